// The compute buffer by kind (issue 19), held against llama.cpp's own figures: header-only copies
// (metadata and tensor infos, no data; tests/data/fit_kinds/) of the tiny models llama.cpp's
// test-llama-archs writes for these kinds, and the compute bytes llama.cpp's no_alloc plan of the
// full file reserves at the sweep's two settings (bench/fit_every_arch: -c 4096 with flash
// attention as "auto" resolves it on the CPU, and -c 32768 -fa on). Each kind's rule was read from
// llama.cpp's graph (src/models/<arch>.cpp) and its allocation traced (ggml-alloc's live tensors at
// the peak); the comment of each case says what was missing before.
#include <gtest/gtest.h>

#include <string>

#include "fit/compute_buffer.h"
#include "model/model_shape.h"

namespace rigbench {
namespace {

struct KindCase {
  const char* file;      // tests/data/fit_kinds/<file>.gguf
  int n_ctx;             // both with flash attention (the sweep's settings)
  uint64_t llama_bytes;  // llama.cpp's compute buffer (CPU), bytes
};

// `flash_attn` false and `n_seq` sequences (each its own KV stream): the sweep's -fa off setting.
void expect_within(const KindCase& k, double tolerance, bool flash_attn = true, int n_seq = 1) {
  auto shape = model::read_shape(std::string(RIGBENCH_TEST_DATA "/fit_kinds/") + k.file + ".gguf");
  ASSERT_TRUE(shape) << shape.error().message;
  fit::ContextParams c;
  c.n_ctx = k.n_ctx;
  c.n_seq = n_seq;
  c.flash_attn = flash_attn;
  const double estimate = static_cast<double>(fit::compute_buffer_bytes(*shape, c, true));
  const double real = static_cast<double>(k.llama_bytes);
  EXPECT_NEAR(estimate, real, tolerance * real) << k.file << " at -c " << k.n_ctx;
}

// Qwen4exp's pooled-block indexer (build_qsa_top_k): the per-head block scores, F32 [blocks, 64
// heads, tokens], as the product and its ReLU (2 x 128 MiB at 4096), the indexer query and its norm
// and the block bias. fit said 10,487,808 / 39,847,936 bytes before (-96.7 % / -98.2 %).
TEST(FitComputeKinds, PooledBlockIndexerScoresPerHead) {
  expect_within({"qwen4exp-moe", 4096, 316811296}, 0.02);
  expect_within({"qwen4exp-moe", 32768, 2248632352}, 0.02);
}

// MiniMax-M3's block-sparse attention (MSA, batch path): the per-head block mask expanded to every
// cell and its transposed copy, F32 [cells, tokens, heads] twice. Before: 7,866,368 / 37,226,496
// (-80.8 % / -87.8 %).
TEST(FitComputeKinds, BlockSparseMaskPerHeadOverEveryCell) {
  expect_within({"minimax-m3-moe", 4096, 41061376}, 0.01);
  expect_within({"minimax-m3-moe", 32768, 305417216}, 0.01);
}

// MiniMax-01's lightning attention: the decay input and the intra-block scores, F32 [t, t, heads],
// beside the fused QKV, V transposed and the state's contribution. Before: 8,652,800 / 38,012,928
// (-29.1 % / -8.6 %).
TEST(FitComputeKinds, LightningAttentionScoresPerHead) {
  expect_within({"minimax-01-moe", 4096, 12212288}, 0.01);
  expect_within({"minimax-01-moe", 32768, 41572416}, 0.01);
}

// Qwen3-TTS (Qwen3-VL's graph): an output layer of 3072 rows padded back to the 4096-token
// vocabulary with -inf; the narrow logits, the padding and the concatenation live together in the
// output phase. Before: 9,439,232 at 4096 (-47.1 %).
TEST(FitComputeKinds, NarrowOutputPaddedToTheVocabulary) {
  expect_within({"qwen3tts-dense", 4096, 17827840}, 0.01);
  expect_within({"qwen3tts-dense", 32768, 37244928}, 0.01);
}

// MiniCPM3: a compressed KV projection without the MLA lengths, decompressed by the graph; when the
// compressed row's norm is made, Q, the row with its rope part and the normed row are live beside
// the residuals. Before: 7,866,368 / 37,226,496 (-14.4 % / -3.4 %).
TEST(FitComputeKinds, DecompressedLatentAttention) {
  expect_within({"minicpm3-dense", 4096, 9189376}, 0.01);
  expect_within({"minicpm3-dense", 32768, 38549504}, 0.01);
}

// Absorbed MLA beside linear attention or an indexer, one rule: the larger of Q's moment and K's
// (the concatenated Q, the compressed row, the normed latent, and the concatenated K unless it fits
// where the absorbed and roped Q parts were freed). Kimi-Linear and Kimi-K3 run it without RoPE
// (one head: K does not fit there); before: 10,225,664 / 39,585,792 (+3.9 % / +1.0 %).
TEST(FitComputeKinds, UnropedLatentAttention) {
  for (const char* file : {"kimi-linear-moe", "kimi-k3-moe"}) {
    expect_within({file, 4096, 9838624}, 0.01);
    expect_within({file, 32768, 39198752}, 0.01);
  }
}

// DeepSeek-V4's compressed attention: the window's mask and one per compressed cache (the indexer's
// and the CSA's at ratio 4, the HCA's at 128), the hyper-connection state twice, and the lightning
// indexer's query with its rope (2 x 64 heads x 128 per token). Before: 14.00 / 42.00 MiB (-70.9 % /
// -32.4 %). At 4096 a hole left by the first blocks (about 0.9 MiB) is not modelled: -1.8 %.
TEST(FitComputeKinds, CompressedAttentionWithHyperConnections) {
  expect_within({"deepseek4-moe", 4096, 50437024}, 0.02);
  expect_within({"deepseek4-moe", 32768, 65117088}, 0.01);
}

// Falcon-H1: attention and a Mamba-2 SSM side by side in one block, their outputs summed; the
// attention's output waits beside the SSM's scan (one n_embd more than a Mamba-2 block alone).
// Before: 13,903,872 / 43,264,000 (-5.6 % / -1.9 %); the hole the convolution leaves is not
// modelled (-2 % / -0.7 %).
TEST(FitComputeKinds, AttentionBesideStateSpaceScan) {
  expect_within({"falcon-h1-dense", 4096, 14723104}, 0.025);
  expect_within({"falcon-h1-dense", 32768, 44083232}, 0.01);
}

// The same rule with RoPE (Bailing-MoE 3: q_pe and k_pe roped; K fits where the absorbed and roped
// Q parts were freed). Before: 10,225,664 / 39,585,792 (+16.3 % / +3.8 %). DeepSeek-V3.2 and GLM-DSA
// (roped, beside an indexer) follow the same rule in the sweep (-1.2 % / -0.0 % of the total).
TEST(FitComputeKinds, RopedLatentAttentionBesideLinearAttention) {
  expect_within({"bailingmoe3-moe", 4096, 8792096}, 0.01);
  expect_within({"bailingmoe3-moe", 32768, 38152224}, 0.01);
}

// MoE with one fused QKV projection (DBRX, the corpus's only one): the attention leaves one
// n_embd-wide hole fewer below the experts' tensors, 3 n_embd beside them where a MoE with
// separate Q, K, V projections (Llama MoE, Mixtral) holds 4. Before: 8,652,800 / 38,012,928
// (+6.2 % / +1.3 %). Evidence: that one architecture; no real-size DBRX was checked.
TEST(FitComputeKinds, FusedQkvMoeLeavesOneHoleFewer) {
  expect_within({"dbrx-moe", 4096, 8148992}, 0.01);
  expect_within({"dbrx-moe", 32768, 37509120}, 0.01);
}

// Without flash attention (issue 31; bench/fit_every_arch at -c 4096 -np 1 and -c 8192 -np 2
// -fa off), the peak is KQ in block 0: the inputs (the V cache's row ids, 8 bytes per value, among
// them), what the block holds live, then KQ above it all. Traced per kind:
// - StarCoder (learned positions, fused QKV): the fused QKV stays whole beside the residual, a hole
//   and the inputs. fit read its position embedding from block 0 only, missed it, and planned it as
//   Falcon (roped QKV): 27,789,312 bytes (-5.4 %).
TEST(FitComputeKinds, UnropedFusedQkvWithoutFlashAttention) {
  expect_within({"starcoder-dense", 4096, 29370368}, 0.005, false);
  expect_within({"starcoder-dense", 8192, 29370368}, 0.005, false, 2);
}

// - Dream (no KV cache, non-causal): KQ reads the roped Q and K and V's transposed copy, and no row
//   ids. Before: 6,817,792 (+8.3 %).
TEST(FitComputeKinds, CachelessAttentionWithoutFlashAttention) {
  expect_within({"dream-dense", 4096, 6297600}, 0.005, false);
  expect_within({"dream-dense", 8192, 6297600}, 0.005, false, 2);
}

// - Qwen3.5 (gated delta net blocks, then attention): block 0's fused projection is the
//   recurrent block's; the attention blocks project Q with its output gate on its own. Before: the
//   fused-QKV form, 27,789,312 (-5.4 %).
TEST(FitComputeKinds, GatedQueryBesideRecurrentBlocksWithoutFlashAttention) {
  expect_within({"qwen35-dense", 4096, 29376544}, 0.005, false);
  expect_within({"qwen35-dense", 8192, 29376544}, 0.005, false, 2);
}

}  // namespace
}  // namespace rigbench
