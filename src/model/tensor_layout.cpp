#include "model/tensor_layout.h"

namespace rigbench::model {

namespace {

using Fill = TensorSpec::Fill;

class Layout {
 public:
  void add(const std::string& name, std::initializer_list<int64_t> ne, Fill fill = Fill::kWeight) {
    tensors.push_back(tensor_spec(name, ne, fill, layer));
  }
  void norm(const std::string& name, int64_t n) { add(name, {n}, Fill::kOnes); }
  void bias(const std::string& name, int64_t n) { add(name, {n}, Fill::kZeros); }
  std::vector<TensorSpec> tensors;
  int32_t layer = -1;  // block of the tensors added next
};

std::string blk(uint32_t i, const char* what) { return "blk." + std::to_string(i) + "." + what; }

// token_embd, then output_norm and (unless tied) output.
void add_embeddings(Layout& l, const Preset& p) {
  l.add("token_embd.weight", {p.n_embd, p.n_vocab}, Fill::kEmbedding);
  l.norm("output_norm.weight", p.n_embd);
  if (!p.tied_embeddings) l.add("output.weight", {p.n_embd, p.n_vocab});
}

// Decoder blocks of the llama family (llama, qwen2, gemma2, phi3).
void add_decoder_blocks(Layout& l, const Preset& p) {
  const int64_t e = p.n_embd, hk = p.head_k();
  const int64_t q = hk * p.n_head, kv = hk * p.n_head_kv;
  for (uint32_t i = 0; i < p.n_layer; ++i) {
    l.layer = static_cast<int32_t>(i);
    l.add(blk(i, "attn_norm.weight"), {e}, Fill::kAttnNorm);
    if (p.fused_qkv) {
      l.add(blk(i, "attn_qkv.weight"), {e, q + 2 * kv}, Fill::kQueryKey);
    } else {
      l.add(blk(i, "attn_q.weight"), {e, q}, Fill::kQueryKey);
      l.add(blk(i, "attn_k.weight"), {e, kv}, Fill::kQueryKey);
      l.add(blk(i, "attn_v.weight"), {e, kv});
    }
    if (p.qkv_bias) {
      l.bias(blk(i, "attn_q.bias"), q);
      l.bias(blk(i, "attn_k.bias"), kv);
      l.bias(blk(i, "attn_v.bias"), kv);
    }
    l.add(blk(i, "attn_output.weight"), {q, e}, Fill::kResidualWrite);
    if (p.arch == "gemma2" || p.arch == "gemma3") l.norm(blk(i, "post_attention_norm.weight"), e);
    if (p.qk_norm) {
      l.norm(blk(i, "attn_k_norm.weight"), hk);
      l.norm(blk(i, "attn_q_norm.weight"), hk);
    }
    l.norm(blk(i, "ffn_norm.weight"), e);
    if (p.n_expert > 0) {
      l.add(blk(i, "ffn_gate_inp.weight"), {e, p.n_expert});
      l.add(blk(i, "ffn_gate_exps.weight"), {e, p.n_ff, p.n_expert});
      l.add(blk(i, "ffn_down_exps.weight"), {p.n_ff, e, p.n_expert}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up_exps.weight"), {e, p.n_ff, p.n_expert});
    } else if (p.arch == "phi3") {
      l.add(blk(i, "ffn_down.weight"), {p.n_ff, e}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up.weight"), {e, 2 * static_cast<int64_t>(p.n_ff)});  // gate and up fused
    } else if (p.arch == "gemma3") {
      l.add(blk(i, "ffn_gate.weight"), {e, p.n_ff});
      l.add(blk(i, "ffn_up.weight"), {e, p.n_ff});
      l.add(blk(i, "ffn_down.weight"), {p.n_ff, e}, Fill::kResidualWrite);
    } else {
      l.add(blk(i, "ffn_gate.weight"), {e, p.n_ff});
      l.add(blk(i, "ffn_down.weight"), {p.n_ff, e}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up.weight"), {e, p.n_ff});
    }
    if (p.arch == "gemma2" || p.arch == "gemma3") l.norm(blk(i, "post_ffw_norm.weight"), e);
  }
}

void add_deepseek2_blocks(Layout& l, const Preset& p) {
  const int64_t e = p.n_embd, h = p.n_head;
  const int64_t k_mla = p.qk_nope_dim + p.qk_rope_dim;
  for (uint32_t i = 0; i < p.n_layer; ++i) {
    l.layer = static_cast<int32_t>(i);
    l.add(blk(i, "attn_norm.weight"), {e}, Fill::kAttnNorm);
    if (p.q_lora_rank > 0) {
      l.norm(blk(i, "attn_q_a_norm.weight"), p.q_lora_rank);
      l.add(blk(i, "attn_q_a.weight"), {e, p.q_lora_rank});
      l.add(blk(i, "attn_q_b.weight"), {p.q_lora_rank, h * k_mla}, Fill::kQueryKey);
    } else {
      l.add(blk(i, "attn_q.weight"), {e, h * k_mla}, Fill::kQueryKey);
    }
    l.norm(blk(i, "attn_kv_a_norm.weight"), p.kv_lora_rank);
    l.add(blk(i, "attn_kv_a_mqa.weight"), {e, p.kv_lora_rank + p.qk_rope_dim}, Fill::kQueryKey);
    l.add(blk(i, "attn_k_b.weight"), {p.qk_nope_dim, p.kv_lora_rank, h}, Fill::kQueryKey);
    l.add(blk(i, "attn_v_b.weight"), {p.kv_lora_rank, p.v_head_dim, h});
    l.add(blk(i, "attn_output.weight"), {h * p.v_head_dim, e}, Fill::kResidualWrite);
    l.norm(blk(i, "ffn_norm.weight"), e);
    if (i < p.n_layer_dense_lead) {
      l.add(blk(i, "ffn_gate.weight"), {e, p.n_ff});
      l.add(blk(i, "ffn_down.weight"), {p.n_ff, e}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up.weight"), {e, p.n_ff});
    } else {
      const int64_t shexp = static_cast<int64_t>(p.n_ff_exp) * p.n_expert_shared;
      l.add(blk(i, "ffn_gate_inp.weight"), {e, p.n_expert});
      l.bias(blk(i, "exp_probs_b.bias"), p.n_expert);
      l.add(blk(i, "ffn_gate_exps.weight"), {e, p.n_ff_exp, p.n_expert});
      l.add(blk(i, "ffn_down_exps.weight"), {p.n_ff_exp, e, p.n_expert}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up_exps.weight"), {e, p.n_ff_exp, p.n_expert});
      l.add(blk(i, "ffn_gate_shexp.weight"), {e, shexp});
      l.add(blk(i, "ffn_down_shexp.weight"), {shexp, e}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up_shexp.weight"), {e, shexp});
    }
  }
}

// Qwen3.5 (llama.cpp's llama_model_qwen35::load_arch_tensors, in the order of the
// converter's files): norms, then full attention with an output gate (every
// full_attention_interval-th layer) or the gated delta net, then the feed-forward.
void add_qwen35_blocks(Layout& l, const Preset& p) {
  const int64_t e = p.n_embd, hk = p.head_k();
  const int64_t q = hk * p.n_head, kv = hk * p.n_head_kv;
  const int64_t key_dim = static_cast<int64_t>(p.ssm_d_state) * p.ssm_n_group;
  const int64_t value_dim = static_cast<int64_t>(p.ssm_d_state) * p.ssm_dt_rank;
  const int64_t conv_dim = 2 * key_dim + value_dim;
  for (uint32_t i = 0; i < p.n_layer; ++i) {
    l.layer = static_cast<int32_t>(i);
    l.add(blk(i, "attn_norm.weight"), {e}, Fill::kAttnNorm);
    l.norm(blk(i, "post_attention_norm.weight"), e);
    if (!p.is_recurrent(i)) {
      l.add(blk(i, "attn_q.weight"), {e, p.attn_output_gate ? 2 * q : q}, Fill::kQueryKey);
      l.add(blk(i, "attn_k.weight"), {e, kv}, Fill::kQueryKey);
      l.add(blk(i, "attn_v.weight"), {e, kv});
      l.add(blk(i, "attn_output.weight"), {q, e}, Fill::kResidualWrite);
      l.norm(blk(i, "attn_q_norm.weight"), hk);
      l.norm(blk(i, "attn_k_norm.weight"), hk);
    } else {
      l.add(blk(i, "attn_qkv.weight"), {e, conv_dim});
      l.add(blk(i, "attn_gate.weight"), {e, value_dim});
      l.add(blk(i, "ssm_conv1d.weight"), {p.ssm_d_conv, conv_dim});
      l.bias(blk(i, "ssm_dt.bias"), p.ssm_dt_rank);
      l.add(blk(i, "ssm_a"), {p.ssm_dt_rank}, Fill::kMinusOnes);
      l.add(blk(i, "ssm_beta.weight"), {e, p.ssm_dt_rank});
      l.add(blk(i, "ssm_alpha.weight"), {e, p.ssm_dt_rank});
      l.norm(blk(i, "ssm_norm.weight"), p.ssm_d_state);
      l.add(blk(i, "ssm_out.weight"), {value_dim, e}, Fill::kResidualWrite);
    }
    if (p.n_expert > 0) {  // qwen35moe: routed experts and a gated shared expert
      l.add(blk(i, "ffn_gate_inp.weight"), {e, p.n_expert});
      l.add(blk(i, "ffn_gate_exps.weight"), {e, p.n_ff_exp, p.n_expert});
      l.add(blk(i, "ffn_down_exps.weight"), {p.n_ff_exp, e, p.n_expert}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up_exps.weight"), {e, p.n_ff_exp, p.n_expert});
      l.add(blk(i, "ffn_gate_inp_shexp.weight"), {e});
      l.add(blk(i, "ffn_gate_shexp.weight"), {e, p.n_ff_shexp});
      l.add(blk(i, "ffn_down_shexp.weight"), {p.n_ff_shexp, e}, Fill::kResidualWrite);
      l.add(blk(i, "ffn_up_shexp.weight"), {e, p.n_ff_shexp});
      continue;
    }
    l.add(blk(i, "ffn_gate.weight"), {e, p.n_ff});
    l.add(blk(i, "ffn_down.weight"), {p.n_ff, e}, Fill::kResidualWrite);
    l.add(blk(i, "ffn_up.weight"), {e, p.n_ff});
  }
}

// Mamba-1 (llama_model_mamba::load_arch_tensors): a selective-scan block per layer.
void add_mamba_blocks(Layout& l, const Preset& p) {
  const int64_t e = p.n_embd, d_inner = p.ssm_d_inner, d_state = p.ssm_d_state, dt_rank = p.ssm_dt_rank;
  for (uint32_t i = 0; i < p.n_layer; ++i) {
    l.layer = static_cast<int32_t>(i);
    l.add(blk(i, "attn_norm.weight"), {e}, Fill::kAttnNorm);
    l.add(blk(i, "ssm_in.weight"), {e, 2 * d_inner});
    l.add(blk(i, "ssm_conv1d.weight"), {p.ssm_d_conv, d_inner});
    l.bias(blk(i, "ssm_conv1d.bias"), d_inner);
    l.add(blk(i, "ssm_x.weight"), {d_inner, dt_rank + 2 * d_state});
    l.add(blk(i, "ssm_dt.weight"), {dt_rank, d_inner});
    l.bias(blk(i, "ssm_dt.bias"), d_inner);
    l.add(blk(i, "ssm_a"), {d_state, d_inner}, Fill::kMinusOnes);
    l.norm(blk(i, "ssm_d"), d_inner);
    l.add(blk(i, "ssm_out.weight"), {d_inner, e}, Fill::kResidualWrite);
  }
}

void add_bert(Layout& l, const Preset& p) {
  const int64_t e = p.n_embd;
  l.add("token_embd.weight", {e, p.n_vocab}, Fill::kEmbedding);
  l.add("token_types.weight", {e, p.n_token_types});
  l.add("position_embd.weight", {e, p.n_ctx_train});
  l.norm("token_embd_norm.weight", e);
  l.bias("token_embd_norm.bias", e);
  for (uint32_t i = 0; i < p.n_layer; ++i) {
    l.layer = static_cast<int32_t>(i);
    for (const char* w : {"attn_q", "attn_k", "attn_v"}) {
      l.add(blk(i, (std::string(w) + ".weight").c_str()), {e, e},
            std::string(w) == "attn_v" ? Fill::kWeight : Fill::kQueryKey);
      l.bias(blk(i, (std::string(w) + ".bias").c_str()), e);
    }
    l.add(blk(i, "attn_output.weight"), {e, e}, Fill::kResidualWrite);
    l.bias(blk(i, "attn_output.bias"), e);
    l.norm(blk(i, "attn_output_norm.weight"), e);
    l.bias(blk(i, "attn_output_norm.bias"), e);
    l.add(blk(i, "ffn_up.weight"), {e, p.n_ff});
    l.bias(blk(i, "ffn_up.bias"), p.n_ff);
    l.add(blk(i, "ffn_down.weight"), {p.n_ff, e}, Fill::kResidualWrite);
    l.bias(blk(i, "ffn_down.bias"), e);
    l.norm(blk(i, "layer_output_norm.weight"), e);
    l.bias(blk(i, "layer_output_norm.bias"), e);
  }
}

}  // namespace

TensorSpec tensor_spec(const std::string& name, std::initializer_list<int64_t> ne, TensorSpec::Fill fill,
                       int32_t layer) {
  TensorSpec t;
  t.name = name;
  int d = 0;
  for (int64_t v : ne) t.ne[static_cast<size_t>(d++)] = v;
  t.n_dims = d;
  t.fill = fill;
  t.layer = layer;
  return t;
}

std::vector<TensorSpec> tensor_layout(const Preset& p) {
  Layout l;
  if (p.arch == "bert") {
    add_bert(l, p);
    return l.tensors;
  }
  const bool decoder =
      p.arch == "llama" || p.arch == "qwen2" || p.arch == "gemma2" || p.arch == "gemma3" || p.arch == "phi3";
  const bool qwen35 = p.arch == "qwen35" || p.arch == "qwen35moe";
  if (!decoder && p.arch != "deepseek2" && !qwen35 && p.arch != "mamba") return {};
  add_embeddings(l, p);
  if (p.rope_freqs) l.add("rope_freqs.weight", {p.head_k() / 2}, TensorSpec::Fill::kOnes);
  if (p.arch == "deepseek2") add_deepseek2_blocks(l, p);
  else if (qwen35) add_qwen35_blocks(l, p);
  else if (p.arch == "mamba") add_mamba_blocks(l, p);
  else add_decoder_blocks(l, p);
  return l.tensors;
}

}  // namespace rigbench::model
