// Synthetic weights keep the model numerically sane: reduced-width copies of each
// architecture (n_embd 256, up to 32 layers, so the depth-dependent norm weights of
// synth_values.h are exercised) run through real llama.cpp and give finite, varied logits
// (embeddings for BERT).
#include <gtest/gtest.h>
#include <llama.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "engine/llama_engine.h"
#include "model/preset.h"
#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench {
namespace {

model::Preset shrink(model::Preset p) {
  p.n_layer = std::min(p.n_layer, 32u);
  p.n_embd = 256;
  p.n_ff = 512;
  const uint32_t ratio = p.n_head / std::max(1u, p.n_head_kv);
  p.n_head = 4;
  p.n_head_kv = std::max(1u, p.n_head / ratio);
  p.head_dim = p.head_dim ? 64 : 0;
  if (p.is_mla()) {
    p.q_lora_rank = 64;
    p.kv_lora_rank = 64;
    p.qk_nope_dim = 32;
    p.qk_rope_dim = 32;
    p.v_head_dim = 32;
    p.n_expert = 8;
    p.n_expert_used = 2;
    p.n_ff_exp = 64;
    p.n_layer_dense_lead = 1;
    p.n_head_kv = p.n_head;
  }
  if (p.arch == "bert") p.n_ctx_train = 512;
  return p;
}

class SynthNumerics : public ::testing::TestWithParam<std::string> {};

TEST_P(SynthNumerics, LogitsAreFiniteAndVaried) {
  engine::init_llama();
  testing::TempDir dir;
  const model::Preset p = shrink(*model::find_preset(GetParam()));
  const std::string path = dir.file("m.gguf");
  auto written = synth::synthesize(p, "Q4_K_M", path, /*header_only=*/false);
  ASSERT_TRUE(written) << written.error().message;

  llama_model_params mp = llama_model_default_params();
  std::unique_ptr<llama_model, decltype(&llama_model_free)> model(llama_model_load_from_file(path.c_str(), mp),
                                                                  &llama_model_free);
  ASSERT_TRUE(model);
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = 64;
  cp.n_threads = cp.n_threads_batch = 1;
  const bool bert = p.arch == "bert";
  cp.embeddings = bert;
  std::unique_ptr<llama_context, decltype(&llama_free)> ctx(llama_init_from_model(model.get(), cp), &llama_free);
  ASSERT_TRUE(ctx);

  std::vector<llama_token> tokens;
  for (int i = 0; i < 16; ++i) tokens.push_back(static_cast<llama_token>((i * 7919 + 11) % 500 + 3));
  llama_batch batch = llama_batch_get_one(tokens.data(), static_cast<int32_t>(tokens.size()));
  ASSERT_EQ(bert ? llama_encode(ctx.get(), batch) : llama_decode(ctx.get(), batch), 0);

  const float* out = bert ? llama_get_embeddings_seq(ctx.get(), 0) : llama_get_logits_ith(ctx.get(), -1);
  ASSERT_NE(out, nullptr);
  const int n = bert ? llama_model_n_embd(model.get()) : llama_vocab_n_tokens(llama_model_get_vocab(model.get()));
  float lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(std::isfinite(out[i])) << "value " << i;
    lo = std::min(lo, out[i]);
    hi = std::max(hi, out[i]);
  }
  EXPECT_GT(hi - lo, 1e-3f);
}

INSTANTIATE_TEST_SUITE_P(Archs, SynthNumerics,
                         ::testing::Values("SmolLM2-135M", "Phi-3-mini-4k", "Qwen2.5-7B", "Gemma-2-9B", "Mixtral-8x7B",
                                           "DeepSeek-V3", "bge-small-en-v1.5"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace rigbench
