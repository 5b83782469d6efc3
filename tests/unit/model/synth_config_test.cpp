// `synth --config` for the architectures users bring (tests/data/synth_cases): each file that
// rigbench writes from a config.json loads in llama.cpp, and its tensors (names, shapes,
// types, bytes) and metadata are those of the reference writer (mk_*.py, run here with
// python3), so that llama.cpp's own memory plan of both files is the same.
#include <ggml.h>
#include <gguf.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>

#include "engine/llama_engine.h"
#include "engine/llama_simulate.h"
#include "model/preset.h"
#include "model/tensor_layout.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench {
namespace {

const std::string kCases = RIGBENCH_TEST_DATA "/synth_cases/";
const std::string kWriters = RIGBENCH_TEST_DATA "/fit_cases/";  // the reference writers, shared with fit's cases

using Gguf = std::unique_ptr<gguf_context, decltype(&gguf_free)>;

Gguf open_gguf(const std::string& path) {
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  return Gguf(gguf_init_from_file(path.c_str(), params), &gguf_free);
}

// A header-only file written from `config` at `quant` (the outcome's preset returned).
model::Preset synth_config(const std::string& config, const std::string& path, const std::string& quant = "Q8_0") {
  synth::SynthRequest req;
  req.config = kCases + config;
  req.quant = quant;
  req.output_path = path;
  req.header_only = true;
  auto out = synth::run_synth(req, nullptr);
  EXPECT_TRUE(out) << config << ": " << (out ? "" : out.error().message);
  return out ? out->preset : model::Preset{};
}

// Runs the reference writer: `call` is Python with `path` bound to the output file. Returns
// the exit code: 127 when there is no python3 (env's "not found").
int run_reference(const std::string& call, const std::string& path) {
  const std::string script = "import sys; sys.path.insert(0, '" + kWriters + "'); path = '" + path + "'; " + call;
  const auto r = testing::run_process({"/usr/bin/env", "python3", "-c", script});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 127) << r.err;
  return r.exit_code;
}

// A scalar or array value of key `i`, as text (arrays element by element).
std::string value_text(const gguf_context* g, int64_t i) {
  const gguf_type t = gguf_get_kv_type(g, i);
  switch (t) {
    case GGUF_TYPE_UINT32: return std::to_string(gguf_get_val_u32(g, i));
    case GGUF_TYPE_INT32: return std::to_string(gguf_get_val_i32(g, i));
    case GGUF_TYPE_FLOAT32: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", gguf_get_val_f32(g, i));
      return buf;
    }
    case GGUF_TYPE_BOOL: return gguf_get_val_bool(g, i) ? "true" : "false";
    case GGUF_TYPE_STRING: return gguf_get_val_str(g, i);
    case GGUF_TYPE_ARRAY: {
      std::string s = "[";
      if (gguf_get_arr_type(g, i) == GGUF_TYPE_INT32) {
        const auto* v = static_cast<const int32_t*>(gguf_get_arr_data(g, i));
        for (size_t k = 0; k < gguf_get_arr_n(g, i); ++k) s += (k ? "," : "") + std::to_string(v[k]);
      }
      return s + "]";
    }
    default: return "type " + std::to_string(t);
  }
}

// Every architecture key of the reference is in ours with the same value; every tensor of
// the reference is in ours with the same shape, type and size, and ours has no other.
void expect_same_as_reference(const std::string& ours_path, const std::string& ref_path) {
  Gguf ours = open_gguf(ours_path), ref = open_gguf(ref_path);
  ASSERT_TRUE(ours && ref);
  for (int64_t i = 0; i < gguf_get_n_kv(ref.get()); ++i) {
    const std::string key = gguf_get_key(ref.get(), i);
    if (key.rfind("tokenizer.", 0) == 0 || key == "general.name") continue;
    const int64_t j = gguf_find_key(ours.get(), key.c_str());
    ASSERT_GE(j, 0) << "missing key " << key;
    EXPECT_EQ(gguf_get_kv_type(ours.get(), j), gguf_get_kv_type(ref.get(), i)) << key;
    EXPECT_EQ(value_text(ours.get(), j), value_text(ref.get(), i)) << key;
  }
  std::map<std::string, int64_t> our_tensors;
  for (int64_t i = 0; i < gguf_get_n_tensors(ours.get()); ++i) our_tensors[gguf_get_tensor_name(ours.get(), i)] = i;
  ASSERT_EQ(gguf_get_n_tensors(ours.get()), gguf_get_n_tensors(ref.get()));
  // Shapes: read through ggml contexts (gguf keeps the dims in the tensor infos).
  ggml_context* our_meta = nullptr;
  ggml_context* ref_meta = nullptr;
  gguf_init_params p1{true, &our_meta}, p2{true, &ref_meta};
  Gguf o2(gguf_init_from_file(ours_path.c_str(), p1), &gguf_free),
      r2(gguf_init_from_file(ref_path.c_str(), p2), &gguf_free);
  ASSERT_TRUE(o2 && r2);
  for (int64_t i = 0; i < gguf_get_n_tensors(ref.get()); ++i) {
    const std::string name = gguf_get_tensor_name(ref.get(), i);
    auto it = our_tensors.find(name);
    ASSERT_NE(it, our_tensors.end()) << "missing tensor " << name;
    const ggml_tensor* a = ggml_get_tensor(our_meta, name.c_str());
    const ggml_tensor* b = ggml_get_tensor(ref_meta, name.c_str());
    ASSERT_TRUE(a && b) << name;
    for (int d = 0; d < 4; ++d) EXPECT_EQ(a->ne[d], b->ne[d]) << name << " dim " << d;
    EXPECT_EQ(ggml_type_name(a->type), std::string(ggml_type_name(b->type))) << name;
    EXPECT_EQ(gguf_get_tensor_size(ours.get(), it->second), gguf_get_tensor_size(ref.get(), i)) << name;
  }
  ggml_free(our_meta);
  ggml_free(ref_meta);
}

// llama.cpp's own plan (no_alloc) of both files: the same model, KV/state and compute bytes.
void expect_same_plan(const std::string& ours, const std::string& ref, int n_ctx) {
  engine::SimulationSpec spec;
  spec.n_ctx = n_ctx;
  spec.n_gpu_layers = 0;
  spec.path = ours;
  auto a = engine::simulate_memory(spec);
  ASSERT_TRUE(a) << a.error().message;
  spec.path = ref;
  auto b = engine::simulate_memory(spec);
  ASSERT_TRUE(b) << b.error().message;
  auto total = [](const engine::Simulation& s, uint64_t BufferMemory::*f) {
    uint64_t t = 0;
    for (const auto& buf : s.buffers) t += buf.*f;
    return t;
  };
  EXPECT_EQ(total(*a, &BufferMemory::model_bytes), total(*b, &BufferMemory::model_bytes));
  EXPECT_EQ(total(*a, &BufferMemory::context_bytes), total(*b, &BufferMemory::context_bytes));
  EXPECT_EQ(total(*a, &BufferMemory::compute_bytes), total(*b, &BufferMemory::compute_bytes));
  EXPECT_EQ(a->n_ctx, b->n_ctx);
}

struct ReferenceCase {
  const char* name;
  const char* config;
  const char* arch;
  const char* reference;  // Python writing `path`
};

class SynthConfigReference : public ::testing::TestWithParam<ReferenceCase> {};

TEST_P(SynthConfigReference, LoadsInLlamaCppAndMatchesTheReferenceWriter) {
  const ReferenceCase& c = GetParam();
  testing::TempDir dir;
  const std::string ours = dir.file("ours.gguf"), ref = dir.file("ref.gguf");
  const model::Preset p = synth_config(c.config, ours);
  EXPECT_EQ(p.arch, c.arch);
  auto loads = engine::check_tensors(ours);
  ASSERT_TRUE(loads) << loads.error().message;
  const int rc = run_reference(c.reference, ref);
  if (rc == 127) GTEST_SKIP() << "no python3 here: the reference writers (tests/data/fit_cases/mk_*.py) need it";
  ASSERT_EQ(rc, 0);
  expect_same_as_reference(ours, ref);
  expect_same_plan(ours, ref, 4096);
}

INSTANTIATE_TEST_SUITE_P(
    Architectures, SynthConfigReference,
    ::testing::Values(
        // gemma3-text.config.json names only five keys: the rest are Gemma3TextConfig's defaults
        // (head_dim 256, 4 KV heads, sliding window 4096), as the converter reads them.
        ReferenceCase{"Gemma3", "gemma3-text.config.json", "gemma3",
                      "import mk_gemma3; mk_gemma3.build(path, n_layer=34, n_embd=2560, n_head=8, n_kv=4, hd=256, "
                      "n_ff=10240, n_vocab=262208, swa=4096, ctx=131072)"},
        ReferenceCase{"Qwen35", "qwen35-9b.config.json", "qwen35", "import mk_qwen35; mk_qwen35.build(path)"},
        ReferenceCase{"FalconMamba", "falcon-mamba-7b.config.json", "mamba", "import mk_mamba; mk_mamba.build(path)"}),
    [](const ::testing::TestParamInfo<ReferenceCase>& info) { return std::string(info.param.name); });

// Converted Gemma 3 files have no sliding-window pattern key (llama.cpp then slides five
// layers in six); the window and the sliding layers' RoPE base are there.
TEST(SynthConfig, Gemma3WritesNoSlidingWindowPatternKey) {
  testing::TempDir dir;
  synth_config("gemma3-text.config.json", dir.file("g.gguf"));
  Gguf g = open_gguf(dir.file("g.gguf"));
  ASSERT_TRUE(g);
  EXPECT_LT(gguf_find_key(g.get(), "gemma3.attention.sliding_window_pattern"), 0);
  const int64_t swa = gguf_find_key(g.get(), "gemma3.attention.sliding_window");
  ASSERT_GE(swa, 0);
  EXPECT_EQ(gguf_get_val_u32(g.get(), swa), 4096u);
  EXPECT_GE(gguf_find_key(g.get(), "gemma3.rope.freq_base_swa"), 0);
  EXPECT_LT(gguf_find_key(g.get(), "gemma3.attn_logit_softcapping"), 0);  // removed in Gemma 3
}

// bge-m3 has one token type: the file says so (not the borrowed BERT vocabulary's 2), its
// token_types.weight has one row, and llama.cpp loads it.
TEST(SynthConfig, BertWithOneTokenTypeLoadsInLlamaCpp) {
  testing::TempDir dir;
  const std::string path = dir.file("bgem3.gguf");
  synth_config("bgem3.config.json", path, "F16");
  auto loads = engine::check_tensors(path);
  EXPECT_TRUE(loads) << loads.error().message;
  Gguf g = open_gguf(path);
  ASSERT_TRUE(g);
  const int64_t k = gguf_find_key(g.get(), "tokenizer.ggml.token_type_count");
  ASSERT_GE(k, 0);
  EXPECT_EQ(gguf_get_val_u32(g.get(), k), 1u);
  const auto layout = model::tensor_layout(*model::preset_from_hf_config(kCases + "bgem3.config.json", "bge-m3"));
  bool found = false;
  for (const auto& t : layout) {
    if (t.name != "token_types.weight") continue;
    found = true;
    EXPECT_EQ(t.ne[0], 1024);
    EXPECT_EQ(t.ne[1], 1);
  }
  EXPECT_TRUE(found);
}

// The config.json files that worked before keep working (fit's checks use them).
TEST(SynthConfig, EarlierCasesStillLoadInLlamaCpp) {
  testing::TempDir dir;
  for (const char* config : {"qwen25-7b-1m.config.json", "olmoe-like.config.json", "codellama34b.config.json"}) {
    SCOPED_TRACE(config);
    const std::string path = dir.file(std::string(config) + ".gguf");
    const model::Preset p = synth_config(config, path, "Q4_K_M");
    auto loads = engine::check_tensors(path);
    EXPECT_TRUE(loads) << loads.error().message;
  }
  EXPECT_EQ(model::preset_from_hf_config(kCases + "olmoe-like.config.json", "x")->n_expert, 64u);
  EXPECT_EQ(model::preset_from_hf_config(kCases + "qwen25-7b-1m.config.json", "x")->n_ctx_train, 1010000u);
}

// Qwen3.5 MoE (no reference writer): llama.cpp loads the file and plans it, with a
// recurrent state for the linear layers; the size is the published model's (about 35 B
// parameters with its vision encoder, which is not written here).
TEST(SynthConfig, Qwen35MoeLoadsInLlamaCpp) {
  testing::TempDir dir;
  const std::string path = dir.file("q35moe.gguf");
  const model::Preset p = synth_config("qwen35-35b-a3b.config.json", path, "Q4_K_M");
  EXPECT_EQ(p.arch, "qwen35moe");
  auto loads = engine::check_tensors(path);
  ASSERT_TRUE(loads) << loads.error().message;
  uint64_t n = 0;
  for (const auto& t : model::tensor_layout(p)) n += t.n_elements();
  EXPECT_GT(n, 33'000'000'000u);
  EXPECT_LT(n, 36'000'000'000u);
  engine::SimulationSpec spec;
  spec.path = path;
  spec.n_ctx = 4096;
  spec.n_gpu_layers = 0;
  auto plan = engine::simulate_memory(spec);
  ASSERT_TRUE(plan) << plan.error().message;
  uint64_t context = 0;
  for (const auto& b : plan->buffers) context += b.context_bytes;
  // KV of 10 attention layers (2 heads x 256, K and V, f16) at 4096 cells, and the state.
  EXPECT_GT(context, 10ull * 4096 * 2 * 2 * 256 * 2);
}

// Mamba whose inner size is not twice the embedding: llama.cpp refuses it, and so does synth,
// naming the file and why.
TEST(SynthConfig, MambaWithAnotherExpansionIsRefusedWithTheReason) {
  testing::TempDir dir;
  testing::write_file(dir.file("m.json"), R"({"model_type": "mamba", "hidden_size": 768, "intermediate_size": 2000,
    "num_hidden_layers": 24, "vocab_size": 50277})");
  auto p = model::preset_from_hf_config(dir.file("m.json"), "m");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(p.error().message.find("m.json"), std::string::npos);
  EXPECT_NE(p.error().message.find("expansion factor of 2"), std::string::npos) << p.error().message;
}

// A small Mamba written in full (not header-only, its data quantized row by row) loads in
// llama.cpp, vocabulary and tensors.
TEST(SynthConfig, SmallMambaWrittenInFullLoads) {
  testing::TempDir dir;
  testing::write_file(dir.file("mamba-130m.json"),
                      R"({"model_type": "mamba", "hidden_size": 768, "intermediate_size": 1536,
    "num_hidden_layers": 2, "vocab_size": 50277, "state_size": 16, "conv_kernel": 4, "time_step_rank": 48,
    "layer_norm_epsilon": 1e-05, "tie_word_embeddings": true})");
  auto p = model::preset_from_hf_config(dir.file("mamba-130m.json"), "mamba-130m");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->n_vocab, 50280u);  // padded to a multiple of 8, as the converter pads it
  const std::string path = dir.file("m.gguf");
  auto w = synth::synthesize(*p, "Q8_0", path, /*header_only=*/false);
  ASSERT_TRUE(w) << w.error().message;
  auto loads = engine::check_loadable(path);
  EXPECT_TRUE(loads) << loads.error().message;
  auto tensors = engine::check_tensors(path);
  EXPECT_TRUE(tensors) << tensors.error().message;
}

}  // namespace
}  // namespace rigbench
