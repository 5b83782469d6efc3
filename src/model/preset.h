// rigbench: presets, the architecture shapes of real models (data/presets.json, from their published
// config.json), from which `rigbench synth` writes a GGUF with the real tensors and
// metadata and random weights.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::model {

// Hyperparameters of one model, named as GGUF/llama.cpp name them. Counts are exact values
// from the model's config.json (`source`).
struct Preset {
  std::string name;        // e.g. "Llama-3.1-8B"
  std::string arch;        // GGUF general.architecture: llama, phi3, qwen2, gemma2, gemma3, deepseek2, bert,
                           // qwen35, qwen35moe, mamba
  std::string source;      // address of the config.json the shape comes from
  std::string vocab_file;  // llama.cpp models/ vocab-only GGUF whose tokenizer is copied ("" = generated)
  uint32_t n_vocab = 0;
  uint32_t n_ctx_train = 0;
  uint32_t n_embd = 0;
  uint32_t n_layer = 0;
  uint32_t n_head = 0;
  uint32_t n_head_kv = 0;
  uint32_t n_ff = 0;
  uint32_t head_dim = 0;  // per head, K and V; 0 = n_embd / n_head
  uint32_t n_rot = 0;     // rotated dimensions per head (partial RoPE, Qwen3.5); 0 = head_k()
  float rope_theta = 10000.0f;
  float rope_theta_swa = 0;                // RoPE base of the sliding-window layers (Gemma 3); 0 = not written
  std::array<int32_t, 4> rope_sections{};  // multimodal RoPE sections (Qwen3.5); all 0 = not written
  float norm_eps = 1e-5f;                  // RMS norm epsilon (layer norm epsilon for bert)
  bool tied_embeddings = false;            // no output.weight: the output reuses token_embd
  bool qkv_bias = false;                   // attn_q/k/v biases (Qwen2)
  bool fused_qkv = false;                  // one attn_qkv tensor (Phi-3 GGUFs)
  bool rope_freqs = false;                 // a rope_freqs tensor (Llama 3.1 rope scaling)
  bool qk_norm = false;                    // attn_q_norm and attn_k_norm per attention layer (Gemma 3, Qwen3.5)
  bool attn_output_gate = false;           // attn_q also makes the output gate: twice its rows (Qwen3.5)
  // Sliding-window attention: the window. Gemma 2 slides every other layer; Gemma 3 five
  // layers in six (llama.cpp's default when the file has no pattern key, as converted
  // Gemma 3 files have none: none is written).
  uint32_t n_swa = 0;
  float attn_softcap = 0, final_softcap = 0;
  // Mixture of experts.
  uint32_t n_expert = 0, n_expert_used = 0, n_ff_exp = 0, n_expert_shared = 0, n_layer_dense_lead = 0;
  uint32_t n_ff_shexp = 0;  // a shared expert with its own gate (Qwen3.5 MoE): its FFN size
  // Multi-head latent attention (DeepSeek-V2/V3).
  uint32_t q_lora_rank = 0, kv_lora_rank = 0, qk_nope_dim = 0, qk_rope_dim = 0, v_head_dim = 0;
  // BERT.
  uint32_t n_token_types = 0;
  // Recurrent layers, named as llama.cpp's ssm.* keys. Mamba: every layer; Qwen3.5's gated
  // delta net: all but every full_attention_interval-th layer, with ssm_d_state the head
  // size, ssm_n_group the key heads and ssm_dt_rank the value heads.
  uint32_t ssm_d_conv = 0, ssm_d_inner = 0, ssm_d_state = 0, ssm_dt_rank = 0, ssm_n_group = 0;
  bool ssm_dt_b_c_rms = false;           // RMS norm on dt, B and C (Falcon-Mamba)
  uint32_t full_attention_interval = 0;  // hybrid: layer i attends when (i + 1) % interval == 0

  uint32_t head_k() const { return head_dim ? head_dim : (n_head ? n_embd / n_head : 0); }
  uint32_t rot() const { return n_rot ? n_rot : head_k(); }
  bool is_mla() const { return kv_lora_rank > 0; }
  bool is_mamba() const { return arch == "mamba"; }
  // Whether layer `il` is recurrent (no KV cache): every Mamba layer, Qwen3.5's linear ones.
  bool is_recurrent(uint32_t il) const {
    return is_mamba() || (full_attention_interval > 0 && (il + 1) % full_attention_interval != 0);
  }
};

// Every built-in preset, in the file's order: $RIGBENCH_DATA_DIR/presets.json, else the
// source tree's data/presets.json, read once (the result, or its error, is kept). Errors:
// those of load_presets.
const Result<std::vector<Preset>>& presets();

// The presets of the JSON file `path`: an array of objects, each a Preset's fields by their
// names (a field left out keeps its default). Errors: kNotFound when unreadable;
// kInvalidInput naming the file, the entry (from 1) and the unknown field, the field whose value
// is of another kind than its default's (a count that is negative, fractional or not a number),
// the missing name or arch, or a name given twice (case-insensitive).
Result<std::vector<Preset>> load_presets(const std::string& path);

// The preset named `name` (case-insensitive). Errors: kUsage listing the known names; those of
// presets() when the file cannot be read.
Result<Preset> find_preset(const std::string& name);

// A preset from a Hugging Face config.json, read as llama.cpp's convert_hf_to_gguf.py reads
// it (Hugging Face's defaults for keys the file leaves out; a multimodal file's text_config
// over its top level). model_type: llama, mistral, mixtral, phi3, qwen2, gemma2,
// gemma3_text/gemma3, deepseek_v2/v3, bert/xlm-roberta, qwen3_5/qwen3_5_text,
// qwen3_5_moe/qwen3_5_moe_text, mamba/falcon_mamba. `name` names the result. Errors: kInvalidInput naming the file and
// the missing key or unsupported model_type; kNotFound when unreadable.
Result<Preset> preset_from_hf_config(const std::string& config_path, const std::string& name);

}  // namespace rigbench::model
