// rigbench: presets, the architecture shapes of real models (from their published
// config.json), from which `rigbench synth` writes a GGUF with the real tensors and
// metadata and random weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::model {

// Hyperparameters of one model, named as GGUF/llama.cpp name them. Counts are exact values
// from the model's config.json (`source`).
struct Preset {
  std::string name;        // e.g. "Llama-3.1-8B"
  std::string arch;        // GGUF general.architecture: llama, phi3, qwen2, gemma2, deepseek2, bert
  std::string source;      // address of the config.json the shape comes from
  std::string vocab_file;  // llama.cpp models/ vocab-only GGUF whose tokenizer is copied ("" = generated)
  uint32_t n_vocab = 0;
  uint32_t n_ctx_train = 0;
  uint32_t n_embd = 0;
  uint32_t n_layer = 0;
  uint32_t n_head = 0;
  uint32_t n_head_kv = 0;
  uint32_t n_ff = 0;
  uint32_t head_dim = 0;   // per head, K and V; 0 = n_embd / n_head
  float rope_theta = 10000.0f;
  float norm_eps = 1e-5f;  // RMS norm epsilon (layer norm epsilon for bert)
  bool tied_embeddings = false;  // no output.weight: the output reuses token_embd
  bool qkv_bias = false;         // attn_q/k/v biases (Qwen2)
  bool fused_qkv = false;        // one attn_qkv tensor (Phi-3 GGUFs)
  bool rope_freqs = false;       // a rope_freqs tensor (Llama 3.1 rope scaling)
  // Sliding-window attention (Gemma 2): window, every other layer.
  uint32_t n_swa = 0;
  float attn_softcap = 0, final_softcap = 0;
  // Mixture of experts.
  uint32_t n_expert = 0, n_expert_used = 0, n_ff_exp = 0, n_expert_shared = 0, n_layer_dense_lead = 0;
  // Multi-head latent attention (DeepSeek-V2/V3).
  uint32_t q_lora_rank = 0, kv_lora_rank = 0, qk_nope_dim = 0, qk_rope_dim = 0, v_head_dim = 0;
  // BERT.
  uint32_t n_token_types = 0;

  uint32_t head_k() const { return head_dim ? head_dim : n_embd / n_head; }
  bool is_mla() const { return kv_lora_rank > 0; }
};

// Every built-in preset, in a stable order.
const std::vector<Preset>& presets();

// The preset named `name` (case-insensitive). Errors: kUsage listing the known names.
Result<Preset> find_preset(const std::string& name);

// A preset from a Hugging Face config.json (architectures llama, mistral, mixtral, phi3,
// qwen2, gemma2, deepseek_v3, bert). `name` names the result. Errors: kInvalidInput naming
// the file and the missing key or unsupported model_type; kNotFound when unreadable.
Result<Preset> preset_from_hf_config(const std::string& config_path, const std::string& name);

}  // namespace rigbench::model
