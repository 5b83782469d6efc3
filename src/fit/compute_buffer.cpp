#include "fit/compute_buffer.h"

#include <algorithm>
#include <string_view>

#include "fit/kv_cache.h"

namespace rigbench::fit {

namespace {

constexpr uint64_t kGraphSlack = 2048;  // bytes llama.cpp's reservation adds beyond the peak

template <typename T>
T max_of(const std::vector<T>& v, T def = 0) {
  T m = def;
  for (T x : v) m = std::max(m, x);
  return m;
}

// What block 0's tensors say about the FFN's kind.
struct FfnKind {
  bool gated = false;        // a gate (ffn_gate, a fused ffn_up of 2 n_ff rows, or gated experts)
  bool parallel = false;     // an attention norm and no FFN norm: the FFN runs beside the attention
  bool moe_first = false;    // block 0 holds experts (else leading dense blocks come first)
  uint64_t n_ff_exp = 0;     // rows of an expert's up projection (0 without experts)
  bool fused_qkv = false;    // one attn_qkv projection
  bool learned_pos = false;  // position_embd: no RoPE
  bool embd_skip = false;    // every block adds the normed embedding back (layer_output_scale: Talkie)
  uint64_t indexer_q = 0;    // DeepSeek sparse attention: rows of the lightning indexer's query (heads x dims)
  // A per-head indexer query projection (indexer.q_proj: MiniMax-M3's block-sparse attention,
  // Qwen4exp's pooled-block indexer): its rows (heads x key size) and the first layer holding it.
  uint64_t idx_q_rows = 0;
  int idx_layer = -1;
  uint64_t output_rows = 0;  // rows of output.weight (0: tied or none)
  uint64_t idx_qb_rows = 0;  // rows of the lightning indexer's query (indexer.attn_q_b) in its first layer
  // Lightning attention (MiniMax-01): recurrent blocks that project a fused QKV and hold no
  // ssm_* tensors (the linear-attention state is K x V per head).
  bool lightning = false;
  // Recurrent blocks (the first block with ssm_* tensors). Mamba (ssm_x): inner size, state
  // size and the x projection's rows (dt_rank + 2 d_state); 0 otherwise.
  uint64_t ssm_inner = 0, ssm_state = 0, ssm_x_rows = 0;
  // Mamba-2 (a grouped ssm_norm): in-projection rows, conv channels, groups, inner size.
  uint64_t ssm_in_rows = 0, ssm_conv_rows = 0, ssm_groups = 0, ssm2_inner = 0;
  uint64_t gdn_conv_rows = 0;         // gated delta net (ssm_beta or ssm_ba): convolution channels
  bool attention = false;             // some block has attention projections
  bool has_ssm = false;               // some block has recurrent (ssm_*) tensors
  bool ssm_beside_attention = false;  // the recurrent block also has attention (Falcon-H1)
  uint64_t attn_q_rows = 0;           // rows of the first attn_q (2 x heads x head size with a gate: Qwen3.5)
};

// Architectures that llama.cpp runs without RoPE (llama_model_rope_type: LLAMA_ROPE_TYPE_NONE).
bool without_rope(const std::string& arch) {
  static const char* const kNone[] = {"gpt2",
                                      "gptj",
                                      "mpt",
                                      "refact",
                                      "bloom",
                                      "mamba",
                                      "mamba2",
                                      "jamba",
                                      "jina-bert-v2",
                                      "t5",
                                      "t5encoder",
                                      "jais",
                                      "rwkv6",
                                      "rwkv6qwen2",
                                      "rwkv7",
                                      "arwkv7",
                                      "wavtokenizer-dec",
                                      "nemotron_h",
                                      "nemotron_h_moe",
                                      "kimi-linear",
                                      "kimi-k3"};
  for (const char* a : kNone)
    if (arch == a) return true;
  return false;
}

FfnKind ffn_kind(const model::ModelShape& s) {
  FfnKind k;
  const uint64_t n_ff = s.n_ff.empty() ? 0 : s.n_ff[0];
  bool block0 = false, attn_norm = false, ffn_norm = false;
  for (const auto& t : s.tensors) {
    if (t.name.rfind("position_embd", 0) == 0) k.learned_pos = true;  // not a block's tensor
    static constexpr std::string_view kAttnQ = ".attn_q.weight";      // blk.N.attn_q.weight
    if (k.attn_q_rows == 0 && t.layer >= 0 && t.name.size() > kAttnQ.size() &&
        t.name.compare(t.name.size() - kAttnQ.size(), kAttnQ.size(), kAttnQ) == 0)
      k.attn_q_rows = static_cast<uint64_t>(t.n_rows);
    if (t.layer != 0 && !(k.n_ff_exp == 0 && t.name.find("up_exps.weight") != std::string::npos)) continue;
    block0 = block0 || t.layer == 0;
    if (t.name.rfind("blk.0.ffn_gate", 0) == 0 && t.name.find("_inp") == std::string::npos) k.gated = true;
    if (t.name == "blk.0.ffn_up.weight" && n_ff > 0 && static_cast<uint64_t>(t.n_rows) == 2 * n_ff) k.gated = true;
    if (t.name == "blk.0.attn_norm.weight") attn_norm = true;
    if (t.name == "blk.0.attn_qkv.weight") k.fused_qkv = true;
    if (t.name == "blk.0.indexer.attn_q_b.weight") k.indexer_q = static_cast<uint64_t>(t.n_rows);
    if (t.name == "blk.0.layer_output_scale.weight") k.embd_skip = true;
    for (const char* n : {"blk.0.ffn_norm.weight", "blk.0.post_attention_norm.weight", "blk.0.post_ffw_norm.weight"})
      if (t.name == n) ffn_norm = true;
    if (t.name.find("ffn_up_exps.weight") != std::string::npos) {
      k.n_ff_exp = static_cast<uint64_t>(t.n_rows);
      k.moe_first = k.moe_first || t.layer == 0;
    }
    // One fused gate+up expert projection (HY-V3, Qwen3.5-MoE, Qwen3-Next): 2 x expert n_ff rows.
    if (t.name.find("ffn_gate_up_exps.weight") != std::string::npos) {
      k.n_ff_exp = static_cast<uint64_t>(t.n_rows) / 2;
      k.moe_first = k.moe_first || t.layer == 0;
      k.gated = true;
    }
  }
  for (const auto& t : s.tensors) {
    if (k.idx_layer < 0 && t.layer >= 0 && t.name.size() > 22 &&
        t.name.compare(t.name.size() - 22, 22, ".indexer.q_proj.weight") == 0) {
      k.idx_q_rows = static_cast<uint64_t>(t.n_rows);
      k.idx_layer = t.layer;
    }
    if (t.name == "output.weight") k.output_rows = static_cast<uint64_t>(t.n_rows);
    if (k.idx_qb_rows == 0 && t.layer >= 0 && t.name.find(".indexer.attn_q_b.weight") != std::string::npos)
      k.idx_qb_rows = static_cast<uint64_t>(t.n_rows);
  }
  // The recurrent blocks' tensors, from the first block that has them (hybrids interleave).
  int ssm_layer = -1;
  for (const auto& t : s.tensors) {
    if (t.layer < 0 || t.name.find(".ssm_") == std::string::npos) continue;
    if (ssm_layer < 0) ssm_layer = t.layer;
    if (t.layer != ssm_layer) continue;
    const std::string n = t.name.substr(t.name.find(".ssm_") + 1);
    const uint64_t rows = static_cast<uint64_t>(t.n_rows);
    if (n == "ssm_x.weight") k.ssm_x_rows = rows;
    if (n == "ssm_in.weight") k.ssm_in_rows = rows;
    if (n == "ssm_conv1d.weight") k.ssm_conv_rows = rows;
    if (n.rfind("ssm_conv1d_", 0) == 0 && n.size() > 7 && n.compare(n.size() - 7, 7, ".weight") == 0)
      k.ssm_conv_rows += rows;                                                // Kimi's q, k, v convolutions
    if (n == "ssm_beta.weight" || n == "ssm_ba.weight") k.gdn_conv_rows = 1;  // marked; the channels below
    if (n == "ssm_a" && rows > 1) {                                           // Mamba: F32 [d_state, d_inner]
      k.ssm_inner = rows;
      k.ssm_state = t.bytes / 4 / rows;
    }
    if (n == "ssm_norm.weight" && rows > 1) {  // Mamba-2: F32 [d_inner / n_group, n_group]
      k.ssm_groups = rows;
      k.ssm2_inner = t.bytes / 4;
    }
  }
  for (const auto& t : s.tensors) {
    if (t.layer < 0) continue;
    const auto dot = t.name.find('.', 4);
    if (dot != std::string::npos && t.name.compare(dot + 1, 5, "attn_") == 0 &&
        t.name.find("norm") == std::string::npos) {
      k.attention = true;
      if (t.layer == ssm_layer) k.ssm_beside_attention = true;
    }
  }
  k.has_ssm = ssm_layer >= 0;
  for (uint32_t il = 0; il < s.n_layer && !k.has_ssm; ++il) {
    if (!s.is_recurrent(il)) continue;
    const std::string qkv = "blk." + std::to_string(il) + ".attn_qkv.weight";
    k.lightning = std::any_of(s.tensors.begin(), s.tensors.end(), [&](const auto& t) { return t.name == qkv; });
    break;
  }
  if (!block0) {  // a shape without tensor infos: Llama's kind
    k.attention = true;
    k.gated = true;
    k.moe_first = s.n_expert > 0;
  }
  k.parallel = attn_norm && !ffn_norm;
  if (k.gdn_conv_rows > 0) k.gdn_conv_rows = k.ssm_conv_rows;
  return k;
}

}  // namespace

ComputePhases compute_phases(const model::ModelShape& s, const ContextParams& ctx) {
  ComputePhases p;
  ContextParams c = ctx;
  if (s.arch == "grok") c.flash_attn = false;  // llama.cpp forces flash attention off for Grok
  const uint64_t n_kv = graph_kv_cells(s, c);
  const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const uint64_t e = s.n_embd;
  // The widest layer sets the peak (per-layer head counts: OpenELM).
  const uint64_t n_head = max_of(s.n_head, 1u);
  const uint64_t n_head_kv = max_of(s.n_head_kv);
  const uint64_t q = n_head * (s.is_mla() ? s.head_k_mla : s.head_k);
  const uint64_t kv = s.is_mla() ? s.kv_lora_rank + s.qk_rope_dim + s.kv_lora_rank : 2ull * s.head_k * n_head_kv;
  // The mask: F16 with flash attention, else F32.
  const FfnKind ffn = ffn_kind(s);
  // Without attention anywhere (Mamba, LFM2's convolutions) there is no mask.
  // With sliding-window layers the graph has one mask per cache (llama-graph.cpp,
  // build_attn_inp_kv_iswa): the full cache's over n_kv cells where some attention layer is
  // global, and the window cache's over its own cells; both are inputs, live through the graph.
  uint64_t mask_cells = n_kv, score_cells = n_kv;  // score_cells: the widest layer's KQ
  // ggml-alloc allocates the graph's inputs first and frees each after its last reader, so a
  // mask that only block 0 reads is gone by block 0's FFN: the FFN phase (whose peak is block 0's,
  // where the most masks remain) holds the masks that a later block reads.
  uint64_t ffn_mask_cells = n_kv;
  uint64_t first_mask_cells = n_kv;  // the first cache's mask: the full cache's, else the window's
  const bool compressed =
      std::any_of(s.compress_ratio.begin(), s.compress_ratio.end(), [](uint32_t r) { return r > 0; });
  if (s.causal && s.n_swa > 0 && !compressed) {  // DeepSeek-V4's compressed caches: not traced
    bool any_full = false, later_full = false, later_swa = false;
    uint32_t swa_il = s.n_layer;
    for (uint32_t il = 0; il < s.n_layer; ++il) {
      if (!s.has_kv(il) || s.is_recurrent(il)) continue;
      if (s.is_swa(il)) swa_il = std::min(swa_il, il), later_swa = later_swa || il > 0;
      else any_full = true, later_full = later_full || il > 0;
    }
    if (swa_il < s.n_layer) {
      mask_cells = (any_full ? n_kv : 0) + layer_cells(s, c, swa_il);
      ffn_mask_cells = (later_full ? n_kv : 0) + (later_swa ? layer_cells(s, c, swa_il) : 0);
      if (!any_full) score_cells = first_mask_cells = layer_cells(s, c, swa_il);
    }
  }
  // One KV stream per sequence (kv_unified false, llama.cpp's default): the graph splits the
  // micro-batch over the streams and each attends to its own cells, so the mask and the scores
  // are [cells per stream, u / n_seq, ..., n_seq]: cells per stream x u. (Counting every stream's
  // cells for each token made the compute 36 % high at --parallel 2 and 66 % at 4 on llama.cpp's
  // tiny Llama, 189 % without flash attention.) A unified cache is one stream of every cell.
  const uint64_t streams = s.causal ? static_cast<uint64_t>(kv_streams(c)) : 1;
  mask_cells /= streams;
  score_cells /= streams;
  ffn_mask_cells /= streams;
  first_mask_cells /= streams;
  // A quantized cache's rotation matrices (fit/kv_cache.h rotation_input_bytes): inputs read by
  // every attention block, live in the attention and FFN phases (llama.cpp's tiny Llama at
  // -ctk/-ctv q8_0: 80 KiB). ggml-alloc places them beside the first cache's mask at the bottom
  // of the buffer; where the two together hold an n_embd-wide tensor, that slot changes what
  // else lands where (below: block 0's MoE FFN and the output phase). Traced in llama.cpp's
  // allocation of Llama-3.1-8B, Gemma-2-9B and Mixtral-8x7B at -ctk/-ctv q8_0.
  const uint64_t rotations = ffn.attention ? rotation_input_bytes(s, c) : 0;
  // A mask over `cells` per token: F16 with flash attention, else F32; none without attention.
  auto mask_bytes = [&](uint64_t cells) { return ffn.attention ? cells * u * (c.flash_attn ? 2 : 4) : 0; };
  const uint64_t first_mask = mask_bytes(first_mask_cells);
  const bool rotation_slot = rotations > 0 && first_mask + rotations >= u * 4 * e;
  const uint64_t mask = mask_bytes(mask_cells);
  p.mask = mask;
  const uint64_t ffn_mask = mask_bytes(ffn_mask_cells);
  // Residual, norm, Q/K/V and the attention output live together; with flash attention a
  // sequential FFN without a gate frees one n_embd-wide tensor earlier (checked on llama.cpp's
  // tiny model of each kind).
  // Without flash attention and with one fused QKV projection that RoPE reads (Falcon,
  // OpenELM), the KQ scores meet the residual, the fused QKV and the roped Q only.
  uint64_t act = 4 * e + q + kv;
  // MLA (absorbed; DeepSeek-V2/V3, Mistral 4): the compressed KV row (kv_lora + rope) once beside
  // 3 n_embd and Q. Beside an indexer or linear-attention blocks (DeepSeek-V3.2, Kimi-Linear)
  // the wider form holds (measured on llama.cpp's tiny models).
  if (s.is_mla() && ffn.indexer_q == 0 && !ffn.has_ssm) act = 3 * e + q + s.kv_lora_rank + s.qk_rope_dim;
  // Absorbed MLA beside an indexer or linear-attention blocks, or without RoPE (DeepSeek-V3.2,
  // GLM-DSA, Kimi-Linear, Kimi-K3, Ling/Bailing-MoE 3): two moments of the block in graph order
  // (Q's subtree, then K's), the larger holds, each beside 4 n_embd (the residuals and the
  // attention norm's hole):
  //   Q's: the projection, the absorbed nope part (n_head x kv_lora), the roped q_pe (n_head x
  //        rope; a view without RoPE) and the concatenated Q (n_head x (kv_lora + rope));
  //   K's: the concatenated Q, the compressed row (kv_lora + rope), the roped k_pe, the normed
  //        latent, and the concatenated K unless it fits where the absorbed and roped Q parts were
  //        freed (n_head x kv_lora (+ n_head x rope) >= kv_lora + rope).
  // llama.cpp's tiny Kimi-Linear, Kimi-K3 (one head, unroped: K's moment with the concatenated K)
  // and Bailing-MoE 3 (roped: K's moment, K in the freed Q parts), to the byte. With flash
  // attention only: without it the scores' moment holds, closer to the earlier form (-5 to -10 %
  // on these tiny models at -fa off either way).
  const bool mla_moments = c.flash_attn && s.is_mla() && (ffn.indexer_q > 0 || ffn.has_ssm || without_rope(s.arch));
  if (mla_moments) {
    const bool roped = !without_rope(s.arch);
    const uint64_t L = s.kv_lora_rank, R = s.qk_rope_dim, lr = L + R, q_cat = n_head * lr;
    const uint64_t q_parts = n_head * L + (roped ? n_head * R : 0);
    const uint64_t at_q = 4 * e + q + q_parts + q_cat;
    const uint64_t at_k = 4 * e + q_cat + lr + (roped ? R : 0) + L + (q_parts < lr ? lr : 0);
    act = std::max(at_q, at_k);
  }
  if (c.flash_attn && !ffn.gated && !ffn.parallel && s.arch != "gptneox" && s.n_expert == 0) act = 3 * e + q + kv;
  // A compressed KV projection that the graph decompresses (kv_lora_rank without the MLA lengths:
  // MiniCPM3): when the compressed row's norm is made, Q, the compressed row with its rope part
  // and the normed row are live beside the residuals: 4 n_embd + q + 2 kv_lora + rope (llama.cpp's
  // tiny MiniCPM3: the peak, exactly); the decompressed K and V later are the generic form.
  // With flash attention; without it the scores' moment is the peak (the generic form, +1.2 %).
  if (c.flash_attn && !s.is_mla() && s.kv_lora_rank > 0)
    act = std::max<uint64_t>(act, 4 * e + q + 2ull * s.kv_lora_rank + s.qk_rope_dim);
  // (Only where no block projects Q on its own: beside recurrent blocks whose fused projection
  // block 0 shows, the attention blocks may not fuse theirs.)
  if (!c.flash_attn && ffn.fused_qkv && ffn.attn_q_rows == 0 && !ffn.learned_pos && !without_rope(s.arch))
    act = e + 2 * q + kv;
  // Beside recurrent blocks the attention blocks project Q on its own, with an output gate as wide again (Qwen3.5,
  // Qwen3-Next): without flash attention the generic moment with Q and the gate (llama.cpp's tiny Qwen3.5, traced: the
  // peak to 0.1 %).
  if (!c.flash_attn && ffn.has_ssm && ffn.attn_q_rows == 2 * q) act = 4 * e + 2 * q + kv;
  // Without flash attention and RoPE (learned positions or ALiBi: GPT-2, StarCoder, BLOOM, MPT),
  // the KQ product reads views of the fused QKV, which stays whole beside the residual, the hole
  // the attention norm left, the embedding input and the V cache's row ids (8 bytes per value:
  // 2 floats): 3 n_embd + q + 2 kv (llama.cpp's tiny StarCoder, traced: the peak to 0.1 %).
  if (!c.flash_attn && ffn.fused_qkv && (ffn.learned_pos || without_rope(s.arch))) act = 3 * e + q + 2 * kv;
  // Without a KV cache (non-causal decoders: Dream, LLaDA; encoders) flash attention reads K and V
  // cast from F32 to F16 (llama-graph.cpp, build_attn_mha); one such copy (K's or V's width in F16,
  // a quarter of kv in F32 units) is live at the peak. llama.cpp's plan of its tiny Dream and LLaDA
  // at -ub 64..1024: 2 u^2 (the F16 mask) + 7692 u bytes = (4 e + q + kv + kv / 4) floats a token
  // and the three int32 inputs (tokens, positions, output ids).
  if (!s.causal && c.flash_attn && !s.is_mla()) act += kv / 4;
  // Without a KV cache and without flash attention, KQ reads the roped Q and K and V's transposed
  // copy beside the residual, the embedding input and one hole: 3 n_embd + q + kv, no row ids
  // (llama.cpp's tiny Dream, traced: the peak to the byte).
  if (!s.causal && !c.flash_attn && !s.is_mla()) act = 3 * e + q + kv;
  // A skip from the embeddings into every block (Talkie) keeps the normed embedding live
  // throughout: one n_embd more in the attention phase, and in the FFN phase two (the skip and the
  // hole it leaves below the FFN's tensors; llama.cpp's tiny Talkie: 4 n_embd + 3 n_ff).
  if (ffn.embd_skip) act += e;
  p.attention = mask + u * 4 * act;
  if (!c.flash_attn) p.attention += score_cells * u * n_head * 4;
  // The absorbed query's tensors (n_head x (kv_lora + rope) twice), or, without flash attention,
  // the larger of those and V's transposed copy: MLA's V (a view of the K cache, not stored
  // transposed) is copied so before KQ V (llama-graph.cpp build_attn_mha, "v_cont"), the latent
  // over every cell of every stream (llama.cpp's tiny DeepSeek-V2, traced: v_cont beside KQ; a
  // real DeepSeek-V3 at -c 512 -fa off keeps the query's tensors, and errs high as before).
  const uint64_t absorbed_q = u * 4 * 2 * n_head * (s.kv_lora_rank + s.qk_rope_dim);
  if (s.is_mla() && !c.flash_attn)
    p.attention += std::max(absorbed_q, n_kv * cache_row_bytes(c.type_k, s.kv_lora_rank));
  else if (s.is_mla() && !mla_moments) p.attention += absorbed_q;
  // DeepSeek sparse attention (DeepSeek-V3.2, GLM-DSA): the lightning indexer's scores over
  // every cell (F32) and its mask, 5.5 bytes per cell and token, and its query with the
  // per-head weights, 1.5 x its width per token (fitted to llama.cpp's plan of its tiny model
  // at 4096 and 32768 cells: within 1 % at both).
  if (ffn.indexer_q > 0) p.attention += n_kv / streams * u * 11 / 2 + u * 4 * (ffn.indexer_q * 3 / 2);
  // Indexers with a per-head query projection (indexer.q_proj; the rows are heads x key size):
  // - pooled blocks (Qwen4exp, build_qsa_top_k: cells pooled by indexer_pool): the query and its
  //   norm (2 x its width), the block bias input (one F32 per block and token) and the per-head
  //   block scores twice (the product and its ReLU), F32 [blocks, heads, tokens];
  // - block-sparse selection (MiniMax-M3's MSA, batch path, one stream at a time): the per-head
  //   block mask expanded to every cell and its transposed copy, F32 [cells, tokens, heads] twice
  //   (per stream; beside them, with several streams, the mask's F32 copy).
  // Traced in llama.cpp's allocation of its tiny models (the peak holds exactly these beside the
  // attention phase).
  if (ffn.idx_q_rows > 0 && s.indexer_head_k > 0) {
    const uint64_t n_idx_head = ffn.idx_q_rows / s.indexer_head_k, cells = n_kv / streams;
    if (s.indexer_pool > 0) {
      const uint64_t blocks = (cells + s.indexer_pool - 1) / s.indexer_pool;
      p.attention += u * 4 * 2 * ffn.idx_q_rows + blocks * u * 4 + 2 * blocks * n_idx_head * u * 4;
    } else if (c.flash_attn) {  // without flash attention llama.cpp runs MiniMax-M3 dense
      // With several streams the F32 copy of the mask (every stream's) stays live for the later ones.
      p.attention += 2 * cells * (u / streams) * n_idx_head * 4 + (streams > 1 ? cells * u * 4 : 0);
    }
  }
  // DeepSeek-V4's compressed attention (llama_kv_cache_dsv4; traced in llama.cpp's allocation of
  // its tiny model: -0.2 % at -c 32768 -fa on, -2 % at 4096 where a hole of the first blocks is left
  // out). The masks: the window's, and per compression ratio present the compressed cache's
  // (PAD(ceil(cells / ratio), 256) cells; ratio 4 twice, the indexer's and the CSA's). Per token:
  // the input, the hyper-connection state and the previous one (2 x hc x n_embd), the pre-mixed
  // residual, Q and its norm (2 n_head head_k) and the lightning indexer's query and its rope
  // (2 x its width). And the window's and CSA's K views concatenated (F16).
  if (compressed) {
    const uint64_t cells = n_kv / streams;
    auto comp = [&](uint64_t r) { return ((cells + r - 1) / r + 255) / 256 * 256; };
    bool csa = false, hca = false;
    uint32_t swa_il = 0;
    for (uint32_t il = 0; il < s.n_layer; ++il) {
      csa = csa || s.compress_ratio[il] == 4;
      hca = hca || s.compress_ratio[il] == 128;
      if (s.is_swa(il)) swa_il = il;
    }
    const uint64_t window = layer_cells(s, c, swa_il) / streams;
    const uint64_t masked = window + (csa ? 2 * comp(4) : 0) + (hca ? comp(128) : 0);
    const uint64_t hc = std::max<uint64_t>(s.n_hc, 1);
    p.attention = masked * u * (c.flash_attn ? 2 : 4) +
                  u * 4 * (e + 2 * hc * e + e + 2 * n_head * s.head_k + 2 * ffn.idx_qb_rows) +
                  (window + (csa ? comp(4) : 0)) * s.head_k * 2 * streams;
    // Without flash attention, the F32 scores of the widest layer (the window and the CSA cache).
    if (!c.flash_attn) p.attention += (window + (csa ? comp(4) : hca ? comp(128) : 0)) * u * n_head * 4;
  }
  // Dense FFN: residual and norm (2 n_embd) + up, gate and their product (3 n_ff; 2 without a
  // gate); run in parallel with the attention (no ffn_norm: Command-R, Falcon, Phi-2), the
  // attention's output and input stay live too (2 n_embd more). MoE (llama.cpp's
  // build_moe_ffn): 4 n_embd (residual, norm, the routed input, the weighted sum) + 3 x used
  // experts x expert n_ff (from the expert tensors: some files say 0 and mean n_ff). Where
  // leading dense blocks come first (DeepSeek, GLM-4.5, ERNIE 4.5), llama.cpp's allocator
  // reuses their freed blocks for the experts' tensors and the dense peak holds (measured on
  // its tiny model of each architecture).
  const uint64_t n_ff_max = max_of(s.n_ff);
  uint64_t ffn_per_token =
      2 * e + (ffn.gated ? 3ull : 2ull) * n_ff_max + (ffn.parallel ? 2 * e : 0) + (ffn.embd_skip ? 2 * e : 0);
  if (s.n_expert > 0 && ffn.moe_first) {
    const uint64_t ff_exp = ffn.n_ff_exp > 0 ? ffn.n_ff_exp : (s.n_ff_exp > 0 ? s.n_ff_exp : n_ff_max);
    // Without a KV cache (non-causal decoders: LLaDA-MoE, RND1) the attention leaves one n_embd-wide
    // hole fewer below the experts' tensors: 3 n_embd (llama.cpp's tiny LLaDA-MoE at -ub 128..1024).
    // With one fused QKV projection (DBRX) the attention also leaves one n_embd-wide hole fewer:
    // 3 n_embd (llama.cpp's tiny DBRX: the residual, one hole and the FFN norm beside the experts,
    // where its tiny Llama MoE and Mixtral hold two holes). DBRX is the corpus's only fused-QKV MoE.
    // With the rotation slot the router's small tensors no longer split one of the two holes:
    // one n_embd fewer (Mixtral at -c 8192 -ctk/-ctv q8_0: 200.12 MiB where F16's is 208.01;
    // at -np 4 the smaller mask leaves no slot and both holes stay).
    const uint64_t moe = (s.causal && !ffn.fused_qkv && !rotation_slot ? 4 : 3) * e + 3ull * s.n_expert_used * ff_exp;
    ffn_per_token = std::max(moe, n_ff_max > ff_exp ? ffn_per_token : 0);
  }
  p.ffn = ffn_mask + u * 4 * ffn_per_token;
  p.ffn_mask = ffn_mask;
  p.output = u * 4 * (static_cast<uint64_t>(s.causal ? s.n_vocab : 0) + 2 * e);
  // An output layer narrower than the vocabulary that the graph pads back to n_vocab with -inf
  // (Qwen3-VL's graph, which Qwen3-TTS's talker uses: 3072 codec rows of a larger vocabulary):
  // the narrow logits, the padding and their concatenation are live together.
  if (s.causal && ffn.output_rows > 0 && ffn.output_rows < s.n_vocab && (s.arch == "qwen3vl" || s.arch == "qwen3tts"))
    p.output += u * 4 * static_cast<uint64_t>(s.n_vocab);
  if (!ffn.attention && ffn.ssm_x_rows > 0 && ffn.ssm_inner > 0) {
    // Mamba (no attention, so no mask): per token the residual and input (2 n_embd), the
    // in-projection x and z (2 d_inner), the convolved x, dt and the scan's y (3 d_inner), the
    // x projection (dt_rank + 2 d_state), and the scan's states (d_state x d_inner per
    // sequence); the logits phase keeps one n_embd more. Traced from llama.cpp's allocation of
    // its tiny Mamba (within 0.1 %); the Falcon-Mamba-7B case: 151 MiB.
    const uint64_t d = ffn.ssm_inner;
    p.attention = 0;
    p.ffn = u * 4 * (2 * e + 5 * d + ffn.ssm_x_rows) + ffn.ssm_state * d * 4 * static_cast<uint64_t>(c.n_seq);
    p.output += u * 4 * e;
  } else if (ffn.ssm2_inner > 0 && ffn.ssm_in_rows > 0 && ffn.ssm_conv_rows > ffn.ssm2_inner) {
    // Mamba-2 blocks (alone, or in hybrids: Nemotron-H and Granite-4 hybrid peak apart from the
    // mask, Falcon-H1's blocks run attention beside it, so its mask counts): the residual and input, the in-projection
    // twice (z, xBC, dt and its views' copies), y and its gate (2 d_inner), and the scan states (d_state x d_inner per
    // sequence). Within 3 % of llama.cpp's tiny Mamba-2; not checked on a real size.
    const uint64_t d = ffn.ssm2_inner;
    const uint64_t d_state = (ffn.ssm_conv_rows - d) / (2 * std::max<uint64_t>(ffn.ssm_groups, 1));
    // Beside attention in the same block (Falcon-H1: the two outputs are summed), the attention's
    // output waits for the SSM's: one n_embd more (llama.cpp's tiny Falcon-H1: -5.6 % without it).
    const uint64_t ssm = (ffn.ssm_beside_attention ? mask + u * 4 * e : 0) +
                         u * 4 * (2 * e + 2 * ffn.ssm_in_rows + 2 * d) +
                         d_state * d * 4 * static_cast<uint64_t>(c.n_seq);
    if (!ffn.attention) p.attention = 0, p.ffn = ssm;
    else p.ffn = std::max(p.ffn, ssm);
  } else if (ffn.lightning) {
    // Lightning attention blocks (MiniMax-01, llama.cpp's build of the chunk as one block of t =
    // n_ubatch / n_seq tokens): the decay input and the intra-block scores, F32 [t, t, n_head]
    // per sequence each; beside them the residual and input, the fused QKV, V transposed and the
    // state's contribution (2 n_embd + 5 n_head head_k per token), and the state row read
    // (head_k^2 n_head per sequence), with the attention layers' mask. Traced in llama.cpp's
    // allocation of its tiny MiniMax-01 (within 0.2 % at -c 4096 and -c 32768 -fa on).
    const uint64_t n_seq = static_cast<uint64_t>(std::max(1, c.n_seq)), t = u / n_seq, hk = s.head_k;
    p.attention = std::max(p.attention, mask + 2 * n_head * t * t * 4 * n_seq + u * 4 * (2 * e + 5 * n_head * hk) +
                                            n_head * hk * hk * 4 * n_seq);
  } else if (ffn.gdn_conv_rows > 0) {
    // Gated delta net blocks (Qwen3.5, Qwen3-Next): the convolution's input (its states and the
    // batch) and output, the residual and input, and what the delta rule keeps beside them:
    // 3 n_embd + 3 x conv channels per token (fitted to llama.cpp's tiny Qwen3.5, Qwen3.5-MoE
    // and Qwen3-Next; not checked on a real size).
    p.attention = std::max(p.attention, mask + u * 4 * (3 * e + 3 * ffn.gdn_conv_rows));
  }
  // The rotation matrices in both phases; freed by the last block's attention, their slot takes
  // that block's residual, so the block's output lands above it and the output phase holds one
  // n_embd more (Llama-3.1-8B at -c 8192 -np 1: +8 MiB, to the byte; at -np 4 the 4 MiB mask
  // leaves no slot, and nothing changes).
  p.attention += rotations;
  p.ffn += rotations;
  if (rotation_slot) p.output += u * 4 * e;
  return p;
}

uint64_t compute_buffer_bytes(const model::ModelShape& s, const ContextParams& c, bool include_output) {
  const ComputePhases p = compute_phases(s, c);
  return std::max({p.attention, p.ffn, include_output ? p.output : 0}) + kGraphSlack;
}

uint64_t offloaded_host_compute_bytes(const model::ModelShape& s, const ContextParams& c, bool with_output) {
  const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const ComputePhases p = compute_phases(s, c);
  // The embedding input and lookup (f32), the token ids, positions and output ids.
  const uint64_t inputs = p.mask + u * (4 * 2ull * s.n_embd + 4 + kPositionBytesPerToken + 4);
  return with_output ? std::max(inputs, p.output + kGraphSlack) : inputs;
}

uint64_t position_and_row_id_bytes(const model::ModelShape& s, const ContextParams& c) {
  return kPositionBytesPerToken + row_id_bytes_per_token(s, c);
}

uint64_t pipeline_host_compute_bytes(const model::ModelShape& s, const ContextParams& c) {
  const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const ComputePhases p = compute_phases(s, c);
  const uint64_t inputs = p.mask + u * (4 + position_and_row_id_bytes(s, c) + 4);  // tokens, .., output ids
  return kPipelineCopies * inputs + u * 4 * 2ull * s.n_embd;
}

uint64_t pipeline_device_compute_bytes(const model::ModelShape& s, const ContextParams& c, const PipelineRole& role) {
  const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const uint64_t e = s.n_embd;
  const ComputePhases p = compute_phases(s, c);
  const uint64_t hidden = (role.first ? 1 : 2) * e * 4;  // the hidden state; after the first device also the norm
  const uint64_t inputs = p.mask + u * (hidden + position_and_row_id_bytes(s, c) + (role.output ? 4 : 0));
  const uint64_t attention = p.attention - std::min(p.attention, p.mask);
  const uint64_t ffn = p.ffn - std::min(p.ffn, p.ffn_mask) + (role.middle_layer ? u * 4 * e : 0);
  const uint64_t output = role.output ? p.output - std::min(p.output, u * 4 * e) : 0;
  return kPipelineCopies * inputs + std::max({attention, ffn, output});
}

uint64_t projector_compute_bytes(const model::ProjectorShape& p, bool flash_attn) {
  const uint64_t n = p.n_patches();
  if (n == 0) return 0;
  const uint64_t e = p.n_embd, side = p.warmup_image_size;
  uint64_t attn = n * 4 * (5 * e);
  if (!flash_attn) attn += n * n * p.n_head * 4;
  const uint64_t ffn = n * 4 * (p.gated_ffn ? 3 * e + 3ull * p.n_ff : 2 * e + 2ull * p.n_ff);
  return 3 * side * side * 4 + std::max(attn, ffn) + kGraphSlack;
}

}  // namespace rigbench::fit
