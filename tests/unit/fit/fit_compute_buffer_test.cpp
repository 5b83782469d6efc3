// The compute buffer by kind (issue 19): the figures held are llama.cpp's, from its no_alloc
// plan (live here) or from the cases README (/work/shared/cases/fit) of the same build.
#include <ggml.h>
#include <gtest/gtest.h>

#include "engine/llama_simulate.h"
#include "fit/compute_buffer.h"
#include "fit/kv_cache.h"
#include "fit/memory_model.h"
#include "model/model_shape.h"
#include "support/preset_shape.h"

namespace rigbench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

model::TensorInfo tensor(const std::string& name, int layer, int64_t ne0, int64_t ne1 = 1) {
  model::TensorInfo t;
  t.name = name;
  t.layer = layer;
  t.type = "f16";
  t.n_rows = ne1;
  t.bytes = ggml_row_size(GGML_TYPE_F16, ne0) * static_cast<uint64_t>(ne1);
  return t;
}

// Case 5: OpenELM-270M's per-layer heads (mk_openelm.py: 12..20 query heads, 3..5 KV heads,
// head_dim 64, one fused attn_qkv per block) at -c 2048 -fa off: llama.cpp reserves 92.76 MiB
// (the widest layer's scores, 20 heads, beside the fused QKV and the roped Q).
TEST(FitComputeBuffer, OpenElmPerLayerHeadsWithoutFlashAttention) {
  const std::vector<uint32_t> q = {12, 12, 12, 12, 12, 16, 16, 16, 16, 16, 16, 16, 20, 20, 20, 20};
  const std::vector<uint32_t> kv = {3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5};
  const std::vector<uint32_t> ff = {768,  1024, 1280, 1536, 1792, 2304, 2560, 2816,
                                    3072, 3328, 3840, 4096, 4352, 4608, 4864, 5120};
  model::ModelShape s;
  s.arch = "openelm";
  s.n_layer = 16;
  s.n_embd = 1280;
  s.n_vocab = 32000;
  s.n_head = q;
  s.n_head_kv = kv;
  s.n_ff = ff;
  s.head_k = s.head_v = 64;
  s.tensors = {tensor("token_embd.weight", -1, 1280, 32000), tensor("output_norm.weight", -1, 1280)};
  for (int i = 0; i < 16; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    s.tensors.push_back(tensor(p + "attn_norm.weight", i, 1280));
    s.tensors.push_back(tensor(p + "attn_qkv.weight", i, 1280, (2 * kv[i] + q[i]) * 64));
    s.tensors.push_back(tensor(p + "attn_output.weight", i, q[i] * 64, 1280));
    s.tensors.push_back(tensor(p + "ffn_norm.weight", i, 1280));
    s.tensors.push_back(tensor(p + "ffn_gate.weight", i, 1280, ff[i]));
    s.tensors.push_back(tensor(p + "ffn_up.weight", i, 1280, ff[i]));
    s.tensors.push_back(tensor(p + "ffn_down.weight", i, ff[i], 1280));
  }
  fit::ContextParams c;
  c.n_ctx = 2048;
  c.flash_attn = false;
  EXPECT_NEAR(static_cast<double>(fit::estimate_memory(s, c, 0, "cpu").host.compute) / kMiB, 92.76, 92.76 * 0.01);
}

// MoE with experts from block 0 (Mixtral): residual, norm, routed input and weighted sum
// (4 n_embd) + 3 x used experts x expert n_ff per token; within 1 % of llama.cpp's plan
// (the former formula was 8 % low).
TEST(FitComputeBuffer, MixtralExpertsWithinOnePercentOfLlamaCpp) {
  const std::string path = testing::preset_file("Mixtral-8x7B", "Q4_K_M");
  const model::ModelShape shape = testing::preset_shape("Mixtral-8x7B", "Q4_K_M");
  fit::ContextParams c;
  c.n_ctx = 4096;
  engine::SimulationSpec sim;
  sim.path = path;
  sim.n_ctx = 4096;
  sim.flash_attn = "on";
  auto real = engine::simulate_memory(sim);
  ASSERT_TRUE(real) << real.error().message;
  uint64_t compute = 0;
  for (const auto& b : real->buffers) compute += b.compute_bytes;
  const double estimate = static_cast<double>(fit::estimate_memory(shape, c, 0, "cpu").host.compute);
  EXPECT_NEAR(estimate, static_cast<double>(compute), 0.01 * static_cast<double>(compute));
}

// An expert n_ff of 0 in the file means n_ff (llama.cpp's LLaMA MoE reads no expert length):
// the expert tensors say how wide they are.
TEST(FitComputeBuffer, ExpertWidthComesFromTheExpertTensors) {
  model::ModelShape s;
  s.arch = "llama";
  s.n_layer = 1;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2};
  s.n_head_kv = {2};
  s.n_ff = {384};
  s.head_k = s.head_v = 128;
  s.n_expert = 2;
  s.n_expert_used = 1;
  s.n_ff_exp = 0;  // as the file says
  s.tensors = {tensor("blk.0.attn_norm.weight", 0, 256), tensor("blk.0.attn_q.weight", 0, 256, 256),
               tensor("blk.0.ffn_norm.weight", 0, 256), tensor("blk.0.ffn_gate_exps.weight", 0, 256, 384),
               tensor("blk.0.ffn_up_exps.weight", 0, 256, 384)};
  fit::ContextParams c;
  c.n_ctx = 4096;
  const fit::ComputePhases p = fit::compute_phases(s, c);
  EXPECT_EQ(p.ffn, 4096ull * 512 * 2 + 512ull * 4 * (4 * 256 + 3 * 384));
  // llama.cpp's plan for its tiny llama MoE (test-llama-archs) at -c 4096: 8,665,088 bytes.
  EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), 8665088.0, 8665088.0 * 0.01);
}

// One fused gate+up expert projection (ffn_gate_up_exps, 2 x expert n_ff rows: HY-V3, Qwen3.5-MoE)
// is a MoE block all the same. llama.cpp's plan of its tiny HY-V3 (test-llama-archs: n_embd 256,
// 2 experts of 384, 1 used, block 0 also holding a dense FFN and a shared expert) at -c 4096:
// 8,665,088 bytes; fit took it for a dense block and said 7,866,368 (-9.2 %, -2.9 % of the total).
TEST(FitComputeBuffer, FusedGateUpExpertsAreExperts) {
  model::ModelShape s;
  s.arch = "hy_v3";
  s.n_layer = 2;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2, 2};
  s.n_head_kv = {2, 2};
  s.n_ff = {384, 384};
  s.head_k = s.head_v = 128;
  s.n_expert = 2;
  s.n_expert_used = 1;
  for (int i = 0; i < 2; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
      s.tensors.push_back(tensor(p + n, i, 256, 256));
    s.tensors.push_back(tensor(p + "attn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_gate.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_up.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_gate_inp.weight", i, 256, 2));
    s.tensors.push_back(tensor(p + "ffn_gate_up_exps.weight", i, 256, 768));
    s.tensors.push_back(tensor(p + "ffn_up_shexp.weight", i, 256, 192));
  }
  fit::ContextParams c;
  c.n_ctx = 4096;
  const fit::ComputePhases p = fit::compute_phases(s, c);
  EXPECT_EQ(p.ffn, 4096ull * 512 * 2 + 512ull * 4 * (4 * 256 + 3 * 384));
  EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), 8665088.0, 8665088.0 * 0.01);
}

// A skip from the normed embedding into every block (Talkie: layer_output_scale) keeps that
// embedding live through the graph. llama.cpp's plan of its tiny Talkie (test-llama-archs: n_embd
// 256, 2 heads of 128, n_ff 384) at -c 4096: 8,665,088 bytes (4 n_embd + 3 n_ff beside the mask in
// the FFN phase); fit said 7,866,368 (-9.2 %, -3.7 % of the total) without the skip.
TEST(FitComputeBuffer, EmbeddingSkipIntoEveryBlockStaysLive) {
  model::ModelShape s;
  s.arch = "talkie";
  s.n_layer = 2;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2, 2};
  s.n_head_kv = {2, 2};
  s.n_ff = {384, 384};
  s.head_k = s.head_v = 128;
  for (int i = 0; i < 2; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
      s.tensors.push_back(tensor(p + n, i, 256, 256));
    s.tensors.push_back(tensor(p + "ffn_gate.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_up.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "layer_output_scale.weight", i, 1));
  }
  fit::ContextParams c;
  c.n_ctx = 4096;
  EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), 8665088.0, 8665088.0 * 0.01);
}

// A diffusion decoder (Dream, LLaDA: non-causal, no KV cache) with flash attention: llama.cpp casts
// K and V to F16 for ggml_flash_attn_ext, and one copy is live at the peak. llama.cpp's plan of its
// tiny Dream (test-llama-archs: n_embd 256, 2 heads of 128, n_ff 384, vocab 128) at -c 4096 is
// 2 u^2 + 7692 u bytes at -ub u for u = 64..1024 (4,462,592 at 512); the estimate was 6 % low
// (2.9 % of the total) without the F16 copy.
TEST(FitComputeBuffer, DiffusionDecoderKeepsAnF16CopyOfKOrVWithFlashAttention) {
  model::ModelShape s;
  s.arch = "dream";
  s.causal = false;
  s.n_layer = 2;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2, 2};
  s.n_head_kv = {2, 2};
  s.n_ff = {384, 384};
  s.head_k = s.head_v = 128;
  for (int i = 0; i < 2; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
      s.tensors.push_back(tensor(p + n, i, 256, 256));
    s.tensors.push_back(tensor(p + "attn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_gate.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_up.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_down.weight", i, 384, 256));
  }
  for (const uint64_t u : {64ull, 256ull, 512ull, 1024ull}) {
    fit::ContextParams c;
    c.n_ctx = 4096;
    c.n_batch = 2048;
    c.n_ubatch = static_cast<int>(u);
    c.flash_attn = true;
    const double llama = static_cast<double>(2 * u * u + 7692 * u);
    EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), llama, 0.01 * llama) << "-ub " << u;
  }
}

// A diffusion decoder with experts (LLaDA-MoE, RND1: no KV cache): the experts' tensors sit above
// 3 n_embd-wide tensors (the residual, the norm and one freed hole), not the 4 of a causal MoE.
// llama.cpp's plan of its tiny LLaDA-MoE (test-llama-archs: n_embd 256, 2 experts of 384, 1 used)
// at -c 4096 -fa on: 1,019,392 / 2,104,320 / 4,470,784 / 9,990,144 bytes at -ub 128 / 256 / 512 /
// 1024; fit said 4,982,784 at 512 (+11 %, +4.4 % of the total) with the causal MoE's 4 n_embd.
TEST(FitComputeBuffer, DiffusionDecoderExpertsWithoutAKvCache) {
  model::ModelShape s;
  s.arch = "llada-moe";
  s.causal = false;
  s.n_layer = 2;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2, 2};
  s.n_head_kv = {2, 2};
  s.n_ff = {384, 384};
  s.head_k = s.head_v = 128;
  s.n_expert = 2;
  s.n_expert_used = 1;
  for (int i = 0; i < 2; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
      s.tensors.push_back(tensor(p + n, i, 256, 256));
    s.tensors.push_back(tensor(p + "attn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_gate_inp.weight", i, 256, 2));
    s.tensors.push_back(tensor(p + "ffn_gate_exps.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_up_exps.weight", i, 256, 384));
  }
  const std::pair<int, double> llama[] = {{128, 1019392}, {256, 2104320}, {512, 4470784}, {1024, 9990144}};
  for (const auto& [u, bytes] : llama) {
    fit::ContextParams c;
    c.n_ctx = 4096;
    c.n_batch = 2048;
    c.n_ubatch = u;
    c.flash_attn = true;
    EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), bytes, 0.01 * bytes) << "-ub " << u;
  }
}

// ggml-alloc allocates the graph's inputs first and frees each after its last reader: a mask that
// only block 0 reads is gone by block 0's FFN. llama.cpp's tiny gpt-oss (test-llama-archs: 2
// blocks, block 0 sliding (window 32), block 1 global; 2 experts of 384, 1 used) at -c 4096:
// 8,411,136 bytes; fit said 9,439,232 (+12 %, +5.0 % of the total) with the window mask in the
// FFN phase, and now 8,652,800 (+2.9 %, +1.2 % of the total: its attention phase, both masks live).
TEST(FitComputeBuffer, FfnPhaseHoldsOnlyTheMasksALaterBlockReads) {
  model::ModelShape s;
  s.arch = "gpt-oss";
  s.n_layer = 2;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2, 2};
  s.n_head_kv = {2, 2};
  s.n_ff = {384, 384};
  s.head_k = s.head_v = 128;
  s.head_k_swa = s.head_v_swa = 128;
  s.n_swa = 32;
  s.swa_layer = {1, 0};
  s.n_expert = 2;
  s.n_expert_used = 1;
  for (int i = 0; i < 2; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
      s.tensors.push_back(tensor(p + n, i, 256, 256));
    s.tensors.push_back(tensor(p + "attn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "post_attention_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_gate_inp.weight", i, 256, 2));
    s.tensors.push_back(tensor(p + "ffn_gate_exps.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_up_exps.weight", i, 256, 384));
  }
  fit::ContextParams c;
  c.n_ctx = 4096;
  const fit::ComputePhases p = fit::compute_phases(s, c);
  EXPECT_EQ(p.ffn, 4096ull * 512 * 2 + 512ull * 4 * (4 * 256 + 3 * 384));  // the global mask only
  EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), 8411136.0, 8411136.0 * 0.03);
}

// --parallel N: one KV stream per sequence (llama.cpp's default kv_unified false), and the graph
// attends per stream: the mask and the scores span each stream's cells, not all of them.
// llama.cpp's plan of its tiny Llama (test-llama-archs: n_embd 256, 2 heads of 128, n_ff 384,
// vocab 128) at -c 4096: 5,781,504 bytes at -np 2, 4,732,928 at -np 4, 9,971,712 at -np 4 -fa off;
// fit said 7,866,368, 7,866,368 and 28,837,888 (36, 66 and 189 % high).
TEST(FitComputeBuffer, ParallelSequencesAttendToTheirOwnStream) {
  model::ModelShape s;
  s.arch = "llama";
  s.n_layer = 2;
  s.n_embd = 256;
  s.n_vocab = 128;
  s.n_head = {2, 2};
  s.n_head_kv = {2, 2};
  s.n_ff = {384, 384};
  s.head_k = s.head_v = 128;
  for (int i = 0; i < 2; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    for (const char* n : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
      s.tensors.push_back(tensor(p + n, i, 256, 256));
    s.tensors.push_back(tensor(p + "attn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_norm.weight", i, 256));
    s.tensors.push_back(tensor(p + "ffn_gate.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_up.weight", i, 256, 384));
    s.tensors.push_back(tensor(p + "ffn_down.weight", i, 384, 256));
  }
  const struct {
    int n_seq;
    bool fa;
    double llama;
  } cases[] = {{1, true, 7878656.0}, {2, true, 5781504.0}, {4, true, 4732928.0}, {4, false, 9971712.0}};
  for (const auto& k : cases) {
    fit::ContextParams c;
    c.n_ctx = 4096;
    c.n_seq = k.n_seq;
    c.flash_attn = k.fa;
    EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(s, c, true)), k.llama, 0.01 * k.llama)
        << "-np " << k.n_seq << " -fa " << (k.fa ? "on" : "off");
  }
}

// Case 4: Mamba (no attention, no mask) by its selective-scan graph. The Falcon-Mamba-7B shape
// (mk_mamba.py: n_embd 4096, d_inner 8192, d_state 16, dt_rank 256, vocab 65024) at -c 8192:
// llama.cpp reserves 151 MiB (its logits phase); llama.cpp's tiny Mamba (test-llama-archs,
// n_embd 256, d_inner 512, d_state 128, dt_rank 2, vocab 128): 7,094,304 bytes at any context.
TEST(FitComputeBuffer, MambaSelectiveScanWithoutAttention) {
  auto mamba = [](uint32_t e, uint64_t d, uint64_t d_state, uint64_t dt_rank, uint32_t vocab) {
    model::ModelShape s;
    s.arch = "mamba";
    s.n_layer = 1;
    s.n_embd = e;
    s.n_vocab = vocab;
    s.n_head = {1};
    s.n_head_kv = {0};
    s.n_ff = {0};
    s.head_k = s.head_v = e;
    model::TensorInfo a = tensor("blk.0.ssm_a", 0, static_cast<int64_t>(d_state), static_cast<int64_t>(d));
    a.type = "f32";
    a.bytes = d_state * d * 4;
    s.tensors = {tensor("blk.0.attn_norm.weight", 0, e),
                 tensor("blk.0.ssm_in.weight", 0, e, 2 * d),
                 tensor("blk.0.ssm_x.weight", 0, d, dt_rank + 2 * d_state),
                 tensor("blk.0.ssm_out.weight", 0, d, e),
                 a,
                 tensor("output.weight", -1, e, vocab)};
    return s;
  };
  fit::ContextParams c;
  c.n_ctx = 8192;
  const auto falcon = fit::estimate_memory(mamba(4096, 8192, 16, 256, 65024), c, 0, "cpu");
  EXPECT_NEAR(static_cast<double>(falcon.host.compute) / kMiB, 151.0, 151.0 * 0.01);
  for (int n_ctx : {4096, 32768}) {
    c.n_ctx = n_ctx;
    const auto tiny = fit::estimate_memory(mamba(256, 512, 128, 2, 128), c, 0, "cpu");
    EXPECT_NEAR(static_cast<double>(tiny.host.compute), 7094304.0, 7094304.0 * 0.01) << n_ctx;
  }
}

// Hybrids by the kind of their recurrent block, against llama.cpp's plan of its tiny models
// (test-llama-archs: n_embd 256, n_ff 384, 2 heads) at -c 4096: a gated delta net beside the
// mask (Qwen3.5: 10,524,704 bytes) and a Mamba-2 block that peaks apart from the mask
// (Nemotron-H: 9,977,888 bytes, within 3 %).
TEST(FitComputeBuffer, HybridRecurrentBlocksByKind) {
  auto hybrid = [](std::vector<model::TensorInfo> ssm) {
    model::ModelShape s;
    s.arch = "hybrid";
    s.n_layer = 2;
    s.n_embd = 256;
    s.n_vocab = 128;
    s.n_head = {2, 2};
    s.n_head_kv = {0, 2};
    s.n_ff = {384, 384};
    s.head_k = s.head_v = 128;
    s.tensors = std::move(ssm);
    for (const char* n : {"attn_q", "attn_k", "attn_v"})
      s.tensors.push_back(tensor(std::string("blk.1.") + n + ".weight", 1, 256, 256));
    s.tensors.push_back(tensor("blk.1.attn_norm.weight", 1, 256));
    return s;
  };
  auto f32 = [](const std::string& name, int64_t ne0, int64_t ne1) {
    model::TensorInfo t = tensor(name, 0, ne0, ne1);
    t.type = "f32";
    t.bytes = static_cast<uint64_t>(ne0 * ne1 * 4);
    return t;
  };
  fit::ContextParams c;
  c.n_ctx = 4096;
  const model::ModelShape gdn =
      hybrid({tensor("blk.0.attn_norm.weight", 0, 256), tensor("blk.0.attn_qkv.weight", 0, 256, 768),
              f32("blk.0.ssm_conv1d.weight", 4, 768), tensor("blk.0.ssm_beta.weight", 0, 256, 2),
              tensor("blk.0.ffn_norm.weight", 0, 256), tensor("blk.0.ffn_gate.weight", 0, 256, 384)});
  EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(gdn, c, true)), 10524704.0, 10524704.0 * 0.01);
  const model::ModelShape mamba2 =
      hybrid({tensor("blk.0.attn_norm.weight", 0, 256), f32("blk.0.ssm_norm.weight", 256, 2),
              tensor("blk.0.ssm_in.weight", 0, 256, 1538), f32("blk.0.ssm_conv1d.weight", 4, 1024)});
  EXPECT_NEAR(static_cast<double>(fit::compute_buffer_bytes(mamba2, c, true)), 9977888.0, 9977888.0 * 0.03);
}

// A quantized cache is rotated (llama-kv-cache.cpp attn_rot_k/v): F32 Hadamard matrices as graph
// inputs, K's nrot^2 (nrot the largest power of two from 64 dividing head_k), V's 64^2. llama.cpp's
// tiny Llama (head 128) at -ctk/-ctv q8_0 allocates attn_inp_k_rot 65536 B and attn_inp_v_rot
// 16384 B; with head 64 (its tiny Qwen3) 16384 B each.
TEST(ComputeBuffer, AQuantizedCacheAddsItsRotationMatrices) {
  const auto l8b = testing::preset_shape("Llama-3.1-8B", "Q4_K_M");
  const auto l1b = testing::preset_shape("Llama-3.2-1B", "Q4_K_M");
  fit::ContextParams c;
  c.n_ctx = 4096;
  c.flash_attn = true;
  EXPECT_EQ(fit::rotation_input_bytes(l8b, c), 0u);  // f16
  c.type_k = c.type_v = "q8_0";
  EXPECT_EQ(fit::rotation_input_bytes(l8b, c), 128u * 128 * 4 + 64 * 64 * 4);
  EXPECT_EQ(fit::rotation_input_bytes(l1b, c), 64u * 64 * 4 + 64 * 64 * 4);
  c.type_v = "f16";
  EXPECT_EQ(fit::rotation_input_bytes(l8b, c), 128u * 128 * 4);
  fit::ContextParams f16 = c;
  f16.type_k = "f16";
  EXPECT_EQ(fit::compute_buffer_bytes(l8b, c, false), fit::compute_buffer_bytes(l8b, f16, false) + 128u * 128 * 4);
}

// Real-size shapes (header-only presets) where ggml-alloc's holes decide the peak: a quantized
// cache's rotation inputs beside the first mask add one n_embd to the output phase
// (Llama-3.1-8B) and take one from a MoE's FFN (Mixtral). Each within 0.05 % of llama.cpp's
// no_alloc plan (before: Llama q8_0 -2.9 %, Mixtral q8_0 +4.0 %).
TEST(FitComputeBuffer, RealShapesHoldLlamaCppsHolesWithARotatedCache) {
  struct Case {
    const char* preset;
    const char* cache;
    int n_ctx, n_seq, n_ubatch;
  };
  const Case cases[] = {{"Llama-3.1-8B", "q8_0", 8192, 1, 512},
                        {"Llama-3.1-8B", "q8_0", 16384, 4, 512},
                        {"Mixtral-8x7B", "q8_0", 8192, 1, 512},
                        {"Mixtral-8x7B", "q8_0", 4096, 2, 256}};
  for (const Case& k : cases) {
    const std::string path = testing::preset_file(k.preset, "Q4_K_M");
    const model::ModelShape shape = testing::preset_shape(k.preset, "Q4_K_M");
    fit::ContextParams c;
    c.n_ctx = k.n_ctx;
    c.n_seq = k.n_seq;
    c.n_ubatch = k.n_ubatch;
    c.flash_attn = true;
    c.type_k = c.type_v = k.cache;
    engine::SimulationSpec sim;
    sim.path = path;
    sim.n_ctx = k.n_ctx;
    sim.n_seq = k.n_seq;
    sim.n_ubatch = k.n_ubatch;
    sim.flash_attn = "on";
    sim.type_k = sim.type_v = k.cache;
    auto real = engine::simulate_memory(sim);
    ASSERT_TRUE(real) << real.error().message;
    uint64_t compute = 0;
    for (const auto& b : real->buffers) compute += b.compute_bytes;
    const double estimate = static_cast<double>(fit::estimate_memory(shape, c, 0, "cpu").host.compute);
    EXPECT_NEAR(estimate / static_cast<double>(compute), 1.0, 0.0005)
        << k.preset << " " << k.cache << " -c " << k.n_ctx << " -np " << k.n_seq << " -ub " << k.n_ubatch << ": "
        << estimate << " vs llama.cpp's " << compute;
  }
}

}  // namespace
}  // namespace rigbench
