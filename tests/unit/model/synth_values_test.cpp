// The values of synthetic models (synth_values.h): the recipe row by row, and what a written
// F32 file holds.
#include "model/synth_values.h"

#include <ggml.h>
#include <gguf.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "model/gguf_inspect.h"
#include "model/preset.h"
#include "model/tensor_layout.h"
#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench {
namespace {

using model::RowRecipe;
using model::TensorSpec;

TensorSpec spec(const char* name, std::initializer_list<int64_t> ne, TensorSpec::Fill fill, int32_t layer) {
  return model::tensor_spec(name, ne, fill, layer);
}

model::Preset preset(const char* name) { return *model::find_preset(name); }

TEST(SynthValues, PositionalRowsAreTheRopePairsNearestATenthAndAHundredthOfARadianPerToken) {
  // Llama 3.1: base 500000 over 128 dims, pairs of adjacent dims; pair 11 turns 0.105
  // rad/token, pair 22 0.0110.
  const model::ValueShape llama = model::value_shape(preset("Llama-3.1-8B"));
  EXPECT_EQ(llama.channel, 0);
  EXPECT_EQ(llama.head_dim, 128);
  EXPECT_EQ(llama.rope_rows[0], 22);
  EXPECT_EQ(llama.rope_rows[1], 44);
  // Qwen2.5: base 1000000 over 128 dims, pairs (i, i + 64): pair 11 turns 0.093, pair 21 0.0107.
  EXPECT_EQ(model::value_shape(preset("Qwen2.5-7B")).rope_rows[0], 11);
  EXPECT_EQ(model::value_shape(preset("Qwen2.5-7B")).rope_rows[1], 21);
  // Gemma 2 scales its embeddings by sqrt(n_embd).
  EXPECT_FLOAT_EQ(model::value_shape(preset("Gemma-2-9B")).embd_scale, std::sqrt(3584.0f));
  // No positional structure where queries do not read the residual (MLA) or there is no RoPE.
  EXPECT_EQ(model::value_shape(preset("DeepSeek-V3")).channel, -1);
  EXPECT_EQ(model::value_shape(preset("bge-small-en-v1.5")).rope_rows[0], -1);
}

TEST(SynthValues, RecipeByRole) {
  const model::ValueShape s = model::value_shape(preset("Llama-3.1-8B"));
  using F = TensorSpec::Fill;
  // Plain weights: N(0, 1/sqrt(row length)).
  const RowRecipe up = model::row_recipe(spec("blk.0.ffn_up.weight", {4096, 14336}, F::kWeight, 0), s, 7);
  EXPECT_FLOAT_EQ(up.std_dev, 1.0f / 64.0f);
  EXPECT_EQ(up.channel, -1);
  // Residual writers never write the constant channel.
  const TensorSpec down = spec("blk.0.ffn_down.weight", {14336, 4096}, F::kResidualWrite, 0);
  EXPECT_EQ(model::row_recipe(down, s, 0).std_dev, 0.0f);
  EXPECT_EQ(model::row_recipe(down, s, 0).constant, 0.0f);
  EXPECT_GT(model::row_recipe(down, s, 1).std_dev, 0.0f);
  // Every token embedding holds the channel.
  const RowRecipe emb = model::row_recipe(spec("token_embd.weight", {4096, 128256}, F::kEmbedding, -1), s, 99);
  EXPECT_EQ(emb.channel, 0);
  EXPECT_FLOAT_EQ(emb.channel_value, 3.0f);
  // attn_norm lifts the channel by the residual's growth: sqrt((10 + 4096 l) / 10).
  for (int layer : {0, 1, 31}) {
    const RowRecipe norm = model::row_recipe(spec("attn_norm.weight", {4096}, F::kAttnNorm, layer), s, 0);
    EXPECT_FLOAT_EQ(norm.constant, 1.0f);
    EXPECT_NEAR(norm.channel_value, std::sqrt((10.0 + 4096.0 * layer) / 10.0), 1e-3) << layer;
  }
  // Queries and keys: wider, and the positional rows of each head read the channel.
  const TensorSpec q = spec("blk.3.attn_q.weight", {4096, 4096}, F::kQueryKey, 3);
  const RowRecipe plain = model::row_recipe(q, s, 128 + 21);
  EXPECT_FLOAT_EQ(plain.std_dev, 1.9f / 64.0f);
  EXPECT_FLOAT_EQ(plain.gain_sigma, 0.6f);
  EXPECT_EQ(plain.channel, -1);
  const RowRecipe positional = model::row_recipe(q, s, 128 + 22);
  EXPECT_EQ(positional.channel, 0);
  EXPECT_GT(positional.channel_value, 0.0f);
  EXPECT_EQ(model::row_recipe(q, s, 128 + 44).channel, 0);
  EXPECT_EQ(model::row_recipe(q, s, 128 + 45).channel, -1);
  // Same weight in the keys of that layer, so query and key carry the same vector there.
  const TensorSpec k = spec("blk.3.attn_k.weight", {4096, 1024}, F::kQueryKey, 3);
  EXPECT_FLOAT_EQ(model::row_recipe(k, s, 22).channel_value, positional.channel_value);
  // Layers differ in positional strength, the last the strongest.
  const TensorSpec q31 = spec("blk.31.attn_q.weight", {4096, 4096}, F::kQueryKey, 31);
  const TensorSpec q0 = spec("blk.0.attn_q.weight", {4096, 4096}, F::kQueryKey, 0);
  EXPECT_GT(model::row_recipe(q31, s, 22).channel_value, 3.0f * model::row_recipe(q0, s, 22).channel_value);
}

TEST(SynthValues, PositionalLogitAtDistanceZero) {
  // Query and key hold w * x_hat[0] at a positional row, x_hat[0] = 3 sqrt(n / 10): the logit
  // term (w x_hat[0])^2 / sqrt(head_dim) is A exp(1.8 u), u = sqrt(3) (2 (l + 0.5) / L - 1),
  // A = 4 for the 0.1 rad/token pair and 8 for the 0.01 one.
  const model::ValueShape s = model::value_shape(preset("Llama-3.1-8B"));
  const double x = 3.0 * std::sqrt(4096.0 / 10.0);
  for (int layer : {0, 15, 31}) {
    const TensorSpec q = spec("attn_q.weight", {4096, 4096}, TensorSpec::Fill::kQueryKey, layer);
    const double u = std::sqrt(3.0) * (2.0 * (layer + 0.5) / 32.0 - 1.0);
    const double w_fast = model::row_recipe(q, s, 22).channel_value;
    const double w_slow = model::row_recipe(q, s, 44).channel_value;
    EXPECT_NEAR(w_fast * x * w_fast * x / std::sqrt(128.0), 4.0 * std::exp(1.8 * u), 1e-3) << layer;
    EXPECT_NEAR(w_slow * x * w_slow * x / std::sqrt(128.0), 8.0 * std::exp(1.8 * u), 2e-3) << layer;
  }
}

TEST(SynthValues, FillRowsDrawsTheRecipe) {
  std::mt19937_64 rng(1);
  RowRecipe r;
  r.std_dev = 0.5f;
  r.channel = 3;
  r.channel_value = 7.0f;
  std::vector<float> v(16 * 1024);
  model::fill_rows(r, 1024, 16, rng, v.data());
  double sum2 = 0;
  int n = 0;
  for (int row = 0; row < 16; ++row) {
    EXPECT_EQ(v[row * 1024 + 3], 7.0f);
    for (int j = 0; j < 1024; ++j)
      if (j != 3) sum2 += v[row * 1024 + j] * v[row * 1024 + j], ++n;
  }
  EXPECT_NEAR(std::sqrt(sum2 / n), 0.5, 0.01);
  RowRecipe ones;
  ones.constant = 1.0f;
  model::fill_rows(ones, 1024, 2, rng, v.data());
  for (int j = 0; j < 2048; ++j) ASSERT_EQ(v[j], 1.0f);
}

// The F32 data of tensor `name` in the GGUF file at `path` (empty when missing).
std::vector<float> tensor_data(const std::string& path, const std::string& name) {
  ggml_context* data = nullptr;
  gguf_init_params gp{/*no_alloc=*/false, &data};
  std::unique_ptr<gguf_context, decltype(&gguf_free)> file(gguf_init_from_file(path.c_str(), gp), &gguf_free);
  std::unique_ptr<ggml_context, decltype(&ggml_free)> owned(data, &ggml_free);
  if (!file || !data) return {};
  const ggml_tensor* t = ggml_get_tensor(data, name.c_str());
  if (!t || t->type != GGML_TYPE_F32) return {};
  const auto* v = static_cast<const float*>(t->data);
  return std::vector<float>(v, v + ggml_nelements(t));
}

TEST(SynthValues, WrittenFileHoldsTheRecipe) {
  testing::TempDir dir;
  model::Preset p = preset("SmolLM2-135M");  // llama, 576 wide, 9 heads of 64, 3 KV heads
  p.n_layer = 2;
  const std::string path = dir.file("m.gguf");
  auto written = synth::synthesize(p, "F32", path, /*header_only=*/false);
  ASSERT_TRUE(written) << written.error().message;
  const int64_t e = p.n_embd;
  {
    gguf_init_params gp{/*no_alloc=*/true, nullptr};
    std::unique_ptr<gguf_context, decltype(&gguf_free)> meta(gguf_init_from_file(path.c_str(), gp), &gguf_free);
    ASSERT_TRUE(meta);
    const int64_t key = gguf_find_key(meta.get(), "rigbench.values");
    ASSERT_GE(key, 0);
    EXPECT_EQ(gguf_get_val_u32(meta.get(), key), model::kValuesVersion);
  }

  const std::vector<float> emb = tensor_data(path, "token_embd.weight");
  ASSERT_EQ(emb.size(), static_cast<size_t>(e) * p.n_vocab);
  for (uint32_t tok : {0u, 1u, 49151u}) EXPECT_EQ(emb[tok * e], 3.0f) << tok;

  const std::vector<float> out = tensor_data(path, "blk.1.attn_output.weight");
  ASSERT_EQ(out.size(), static_cast<size_t>(e) * e);
  for (int64_t j = 0; j < e; ++j) ASSERT_EQ(out[j], 0.0f) << j;  // row 0: output channel 0
  double row1 = 0;
  for (int64_t j = 0; j < e; ++j) row1 += std::abs(out[e + j]);
  EXPECT_GT(row1, 1.0);

  const std::vector<float> norm0 = tensor_data(path, "blk.0.attn_norm.weight");
  const std::vector<float> norm1 = tensor_data(path, "blk.1.attn_norm.weight");
  ASSERT_EQ(norm1.size(), static_cast<size_t>(e));
  EXPECT_FLOAT_EQ(norm0[0], 1.0f);
  EXPECT_NEAR(norm1[0], std::sqrt((10.0 + e) / 10.0), 1e-4);
  EXPECT_EQ(norm1[1], 1.0f);

  // Head 4's positional rows (llama pairs, base 100000 over 64 dims: pairs 6 and 13, rows 12
  // and 26) read channel 0.
  const model::ValueShape s = model::value_shape(p);
  ASSERT_EQ(s.rope_rows[0], 12);
  ASSERT_EQ(s.rope_rows[1], 26);
  const std::vector<float> q = tensor_data(path, "blk.1.attn_q.weight");
  ASSERT_EQ(q.size(), static_cast<size_t>(e) * e);
  const TensorSpec qs = spec("blk.1.attn_q.weight", {e, e}, TensorSpec::Fill::kQueryKey, 1);
  EXPECT_FLOAT_EQ(q[(4 * 64 + 12) * e], model::row_recipe(qs, s, 4 * 64 + 12).channel_value);
  EXPECT_FLOAT_EQ(q[(4 * 64 + 26) * e], model::row_recipe(qs, s, 4 * 64 + 26).channel_value);
  // The other rows are N(0, 1.9/sqrt(576)) times a log-normal row gain of sigma 0.6: over the
  // distinct rows (the pool's), ln(row RMS) has mean ln(1.9/sqrt(576)) and deviation 0.6.
  std::set<double> log_rms;
  for (int64_t row = 0; row < e; ++row) {
    if (row % 64 == 12 || row % 64 == 26) continue;
    double sum2 = 0;
    for (int64_t j = 0; j < e; ++j) sum2 += q[row * e + j] * q[row * e + j];
    log_rms.insert(0.5 * std::log(sum2 / e));
  }
  ASSERT_GE(log_rms.size(), 40u);
  double mean = 0, var = 0;
  for (double v : log_rms) mean += v / log_rms.size();
  for (double v : log_rms) var += (v - mean) * (v - mean) / (log_rms.size() - 1);
  EXPECT_NEAR(mean, std::log(1.9 / std::sqrt(576.0)), 0.2);
  EXPECT_NEAR(std::sqrt(var), 0.6, 0.15);
}

// --seed: the same seed writes the same bytes; another seed the same tensors (sizes, offsets)
// with other values; the seed is in the file.
TEST(SynthValues, SeedDecidesTheValuesAndIsRecorded) {
  testing::TempDir dir;
  model::Preset p = preset("SmolLM2-135M");
  p.n_layer = 1;
  const std::string a = dir.file("a.gguf"), b = dir.file("b.gguf"), c = dir.file("c.gguf");
  ASSERT_TRUE(synth::synthesize(p, "Q4_0", a, /*header_only=*/false, 7));
  ASSERT_TRUE(synth::synthesize(p, "Q4_0", b, /*header_only=*/false, 7));
  ASSERT_TRUE(synth::synthesize(p, "Q4_0", c, /*header_only=*/false, 8));
  auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string fa = bytes(a), fb = bytes(b), fc = bytes(c);
  EXPECT_EQ(fa, fb);
  ASSERT_EQ(fa.size(), fc.size());
  EXPECT_NE(fa, fc);
  gguf_init_params gp{/*no_alloc=*/true, nullptr};
  std::unique_ptr<gguf_context, decltype(&gguf_free)> ga(gguf_init_from_file(a.c_str(), gp), &gguf_free);
  std::unique_ptr<gguf_context, decltype(&gguf_free)> gc(gguf_init_from_file(c.c_str(), gp), &gguf_free);
  ASSERT_TRUE(ga && gc);
  EXPECT_EQ(gguf_get_data_offset(ga.get()), gguf_get_data_offset(gc.get()));
  const int64_t key = gguf_find_key(ga.get(), "rigbench.seed");
  ASSERT_GE(key, 0);
  EXPECT_EQ(gguf_get_val_u64(ga.get(), key), 7u);
  EXPECT_EQ(gguf_get_val_u64(gc.get(), gguf_find_key(gc.get(), "rigbench.seed")), 8u);
  auto info = model::inspect(a);  // what bench records
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_TRUE(info->synthetic);
  EXPECT_EQ(info->synthetic_values, model::kValuesVersion);
  EXPECT_EQ(info->synthetic_seed, 7u);
}

}  // namespace
}  // namespace rigbench
