// Where fit puts the weights: llama.cpp's tied output copy (case 6 of issue 19), the placement
// flags users set (--cpu-moe, --n-cpu-moe, -ot; case 11) and a vision projector (--mmproj,
// case 10). Shapes are built in code (what they fake: a file's tensor infos); the figures
// held are llama.cpp's, from the cases README (/work/shared/cases/fit) of the same build.
#include <ggml.h>
#include <gtest/gtest.h>

#include "fit/compute_buffer.h"
#include "fit/memory_model.h"
#include "model/model_shape.h"
#include "model/projector_shape.h"
#include "support/gguf_fixtures.h"
#include "support/preset_shape.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

model::TensorInfo tensor(const std::string& name, int layer, ggml_type type, int64_t ne0, int64_t ne1 = 1) {
  model::TensorInfo t;
  t.name = name;
  t.layer = layer;
  t.type = ggml_type_name(type);
  t.n_rows = ne1;
  t.bytes = ggml_row_size(type, ne0) * static_cast<uint64_t>(ne1);
  return t;
}

// The Gemma-3-270M shape of the cases README (mk_gemma3.build with n_layer 18, n_embd 640,
// 4 heads, 1 KV head, head_dim 256, n_ff 2048, vocab 262144), tied embeddings, type `wt`.
model::ModelShape gemma3_270m(ggml_type wt) {
  model::ModelShape s;
  s.arch = "gemma3";
  s.n_layer = 18;
  s.n_embd = 640;
  s.n_vocab = 262144;
  s.n_head.assign(18, 4);
  s.n_head_kv.assign(18, 1);
  s.n_ff.assign(18, 2048);
  s.head_k = s.head_v = 256;
  s.tensors = {tensor("token_embd.weight", -1, wt, 640, 262144), tensor("output_norm.weight", -1, GGML_TYPE_F32, 640)};
  for (int i = 0; i < 18; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_norm", "post_attention_norm", "ffn_norm", "post_ffw_norm"})
      s.tensors.push_back(tensor(p + n + ".weight", i, GGML_TYPE_F32, 640));
    for (const char* n : {"attn_k_norm", "attn_q_norm"})
      s.tensors.push_back(tensor(p + n + ".weight", i, GGML_TYPE_F32, 256));
    s.tensors.push_back(tensor(p + "attn_q.weight", i, wt, 640, 1024));
    s.tensors.push_back(tensor(p + "attn_k.weight", i, wt, 640, 256));
    s.tensors.push_back(tensor(p + "attn_v.weight", i, wt, 640, 256));
    s.tensors.push_back(tensor(p + "attn_output.weight", i, wt, 1024, 640));
    s.tensors.push_back(tensor(p + "ffn_gate.weight", i, wt, 640, 2048));
    s.tensors.push_back(tensor(p + "ffn_up.weight", i, wt, 640, 2048));
    s.tensors.push_back(tensor(p + "ffn_down.weight", i, wt, 2048, 640));
  }
  for (const auto& t : s.tensors) s.tensor_bytes += t.bytes;
  return s;
}

// A small MoE: 4 blocks of 8 experts, an output layer of its own.
model::ModelShape small_moe() {
  model::ModelShape s;
  s.arch = "qwen3moe";
  s.n_layer = 4;
  s.n_embd = 256;
  s.n_vocab = 1000;
  s.n_head.assign(4, 4);
  s.n_head_kv.assign(4, 2);
  s.n_ff.assign(4, 512);
  s.head_k = s.head_v = 64;
  s.n_expert = 8;
  s.n_expert_used = 2;
  s.n_ff_exp = 128;
  s.tensors = {tensor("token_embd.weight", -1, GGML_TYPE_F16, 256, 1000),
               tensor("output.weight", -1, GGML_TYPE_F16, 256, 1000)};
  for (int i = 0; i < 4; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    s.tensors.push_back(tensor(p + "attn_q.weight", i, GGML_TYPE_F16, 256, 256));
    for (const char* n : {"ffn_gate_exps", "ffn_up_exps"})
      s.tensors.push_back(tensor(p + n + ".weight", i, GGML_TYPE_F16, 256, 128 * 8));
    s.tensors.push_back(tensor(p + "ffn_down_exps.weight", i, GGML_TYPE_F16, 128, 256 * 8));
    s.tensors.push_back(tensor(p + "ffn_gate_inp.weight", i, GGML_TYPE_F32, 256, 8));
  }
  return s;
}

uint64_t experts_of_block(const model::ModelShape& s, int il) {
  uint64_t b = 0;
  for (const auto& t : s.tensors)
    if (t.layer == il && t.name.find("_exps") != std::string::npos) b += t.bytes;
  return b;
}

// Case 6, CPU: the tied output's copy is repacked (CPU_REPACK) beside the CPU token_embd:
// llama.cpp plans 234.00 MiB of weights for the Q4_0 Gemma-3-270M shape (90 MiB of it the copy).
TEST(FitPlacement, TiedRepackableEmbeddingCountsTwiceOnTheCpu) {
  const auto m = fit::estimate_memory(gemma3_270m(GGML_TYPE_Q4_0), fit::ContextParams{}, 0, "cpu");
  EXPECT_NEAR(static_cast<double>(m.host.weights) / kMiB, 234.00, 234.00 * 0.01);
  EXPECT_EQ(m.device.weights, 0u);
}

// F16 is not repacked: the copy shares the CPU buffer with the input (no second copy).
TEST(FitPlacement, TiedF16EmbeddingCountsOnceOnTheCpu) {
  const model::ModelShape s = gemma3_270m(GGML_TYPE_F16);
  const auto m = fit::estimate_memory(s, fit::ContextParams{}, 0, "cpu");
  EXPECT_EQ(m.host.weights, s.tensor_bytes);
}

// Case 6, GPU: the output layer (token_embd's copy) goes onto the card: about 763 MiB of
// Llama-3.2-1B Q4_K_M weights there, token_embd itself stays on the host.
TEST(FitPlacement, TiedEmbeddingCopyGoesToTheGpuWithTheOutputLayer) {
  const model::ModelShape shape = testing::preset_shape("Llama-3.2-1B", "Q4_K_M");
  const auto m = fit::estimate_memory(shape, fit::ContextParams{}, -1, "cuda");
  EXPECT_NEAR(static_cast<double>(m.device.weights) / kMiB, 763.0, 763.0 * 0.01);
  uint64_t embd = 0;
  for (const auto& t : shape.tensors)
    if (t.name == "token_embd.weight") embd = t.bytes;
  EXPECT_EQ(m.host.weights, embd);
  // Without the output layer on the card (-ngl 0), no copy there.
  EXPECT_EQ(fit::estimate_memory(shape, fit::ContextParams{}, 0, "cuda").device.weights, 0u);
}

TEST(FitPlacement, CpuMoeKeepsEveryExpertOnTheHost) {
  const model::ModelShape s = small_moe();
  fit::ContextParams c;
  c.n_ctx = 512;
  const auto plain = fit::estimate_memory(s, c, -1, "cuda");
  c.tensor_overrides = cpu_moe_overrides(true, 0);
  const auto moe = fit::estimate_memory(s, c, -1, "cuda");
  uint64_t experts = 0;
  for (int il = 0; il < 4; ++il) experts += experts_of_block(s, il);
  EXPECT_EQ(moe.device.weights, plain.device.weights - experts);
  EXPECT_EQ(moe.host.weights, plain.host.weights + experts);
  EXPECT_GT(moe.host.compute, plain.host.compute);  // the host runs the expert products too
}

TEST(FitPlacement, NCpuMoeKeepsTheFirstBlocksExperts) {
  const model::ModelShape s = small_moe();
  fit::ContextParams c;
  c.n_ctx = 512;
  const auto plain = fit::estimate_memory(s, c, -1, "cuda");
  c.tensor_overrides = cpu_moe_overrides(false, 2);
  const auto moe = fit::estimate_memory(s, c, -1, "cuda");
  EXPECT_EQ(moe.host.weights, plain.host.weights + experts_of_block(s, 0) + experts_of_block(s, 1));
}

TEST(FitPlacement, OverrideTensorMovesMatchingTensorsEitherWay) {
  const model::ModelShape s = small_moe();
  fit::ContextParams c;
  c.n_ctx = 512;
  const auto plain = fit::estimate_memory(s, c, -1, "cuda");
  auto ot = parse_tensor_overrides("blk\\.3\\.ffn_down_exps=CPU,token_embd=CUDA0");
  ASSERT_TRUE(ot) << ot.error().message;
  ASSERT_EQ(ot->size(), 2u);
  EXPECT_EQ((*ot)[1].buft, "CUDA0");
  c.tensor_overrides = *ot;
  const auto moved = fit::estimate_memory(s, c, -1, "cuda");
  uint64_t down3 = 0, embd = 0;
  for (const auto& t : s.tensors) {
    if (t.name == "blk.3.ffn_down_exps.weight") down3 = t.bytes;
    if (t.name == "token_embd.weight") embd = t.bytes;
  }
  EXPECT_EQ(moved.host.weights, plain.host.weights + down3 - embd);
  // The first override that matches wins, as in llama.cpp.
  c.tensor_overrides = *parse_tensor_overrides("exps=CUDA0,blk\\.0=CPU");
  EXPECT_EQ(fit::estimate_memory(s, c, -1, "cuda").device.weights, plain.device.weights - 256 * 256 * 2 - 256 * 8 * 4);
}

TEST(FitPlacement, OverrideTensorRejectsMalformedValues) {
  EXPECT_FALSE(parse_tensor_overrides("exps"));
  EXPECT_FALSE(parse_tensor_overrides("=CPU"));
  EXPECT_FALSE(parse_tensor_overrides("exps="));
  const auto bad = parse_tensor_overrides("blk.(=CPU");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("-ot/--override-tensor"), std::string::npos);
}

// Case 10: a projector's weights and compute go to the device (mtmd offloads it by default).
TEST(FitPlacement, ProjectorGoesToTheDevice) {
  model::ProjectorShape p;
  p.has_vision = true;
  p.image_size = p.warmup_image_size = 896;
  p.patch_size = 14;
  p.n_embd = 1152;
  p.n_ff = 4304;
  p.n_head = 16;
  p.n_layer = 27;
  p.weights_bytes = 800ull << 20;
  EXPECT_EQ(p.n_patches(), 4096u);
  fit::ContextParams c;
  c.mmproj_weights_bytes = p.weights_bytes;
  c.mmproj_compute_bytes = fit::projector_compute_bytes(p, true);
  // FFN phase: 4096 patches x 4 x (2 x 1152 + 2 x 4304) floats, plus the 896^2 RGB F32 image.
  EXPECT_EQ(c.mmproj_compute_bytes, 4096ull * 4 * (2 * 1152 + 2 * 4304) + 3ull * 896 * 896 * 4 + 2048);
  const model::ModelShape s = small_moe();
  const auto without = fit::estimate_memory(s, fit::ContextParams{}, -1, "cuda");
  const auto with = fit::estimate_memory(s, c, -1, "cuda");
  EXPECT_EQ(with.device.weights, without.device.weights + p.weights_bytes);
  EXPECT_EQ(with.device.compute, without.device.compute + c.mmproj_compute_bytes);
  EXPECT_EQ(fit::estimate_memory(s, c, 0, "cpu").host.weights,
            fit::estimate_memory(s, {}, 0, "cpu").host.weights + p.weights_bytes);
}

// The warm-up image llama.cpp's clip reserves for: image_size for Gemma 3's SigLIP; for LightOnOCR
// 256 merged tokens, 16 x 14 px x 2 = 448 px (llama.cpp logs "warmup with image size = 448 x 448").
TEST(FitPlacement, ProjectorWarmupImageFollowsLlamaCppsRuleForItsType) {
  testing::TempDir dir;
  testing::write_projector(dir.file("gemma3.gguf"));
  const auto gemma3 = model::read_projector_shape(dir.file("gemma3.gguf"));
  ASSERT_TRUE(gemma3) << gemma3.error().message;
  EXPECT_EQ(gemma3->warmup_image_size, 896u);
  EXPECT_EQ(gemma3->n_merge, 4u);  // the type's default, no key in the file
  EXPECT_EQ(gemma3->n_patches(), 4096u);
  EXPECT_FALSE(gemma3->gated_ffn);
  testing::write_lightonocr_projector(dir.file("lightonocr.gguf"), 2);
  const auto ocr = model::read_projector_shape(dir.file("lightonocr.gguf"));
  ASSERT_TRUE(ocr) << ocr.error().message;
  EXPECT_EQ(ocr->image_size, 1540u);
  EXPECT_EQ(ocr->n_merge, 2u);  // clip.vision.spatial_merge_size
  EXPECT_EQ(ocr->warmup_image_size, 448u);
  EXPECT_EQ(ocr->n_patches(), 1024u);
  EXPECT_TRUE(ocr->gated_ffn);
  // Gated FFN phase: 1024 patches x 4 x (3 x 1024 + 3 x 4096) + the 448^2 RGB image.
  EXPECT_EQ(fit::projector_compute_bytes(*ocr, true),
            1024ull * 4 * (3 * 1024 + 3 * 4096) + 3ull * 448 * 448 * 4 + 2048);
  // Without flash attention the scores, 1024^2 x 16 heads F32, beside 5 n_embd-wide tensors.
  EXPECT_EQ(fit::projector_compute_bytes(*ocr, false),
            1024ull * 4 * 5 * 1024 + 1024ull * 1024 * 16 * 4 + 3ull * 448 * 448 * 4 + 2048);
}

}  // namespace
}  // namespace rigbench
