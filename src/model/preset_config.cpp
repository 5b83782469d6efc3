// rigbench: a preset from a Hugging Face config.json, read as llama.cpp's converter
// (convert_hf_to_gguf.py and conversion/*.py) reads it: the keys it looks for, in its order,
// and Hugging Face's defaults (the converter loads the file through AutoConfig) where the
// file leaves a key out.
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/preset.h"

namespace rigbench::model {

namespace {

using nlohmann::json;

// A key the converter needs that the file lacks (or holds as something else than a number):
// reported as "config 'F': key 'vocab_size' is missing or not a number".
struct MissingKey {
  std::string key;
};

// nlohmann's message without its "[json.exception.type_error.302] " prefix.
std::string json_text(const json::exception& e) {
  const std::string m = e.what();
  const auto close = m.find("] ");
  return m.starts_with("[json.exception") && close != std::string::npos ? m.substr(close + 2) : m;
}

// The fields of one config.json, with the converter's lookups.
class Config {
 public:
  explicit Config(json j) : j_(std::move(j)) {}

  bool has(const char* key) const { return j_.contains(key) && !j_[key].is_null(); }
  // The first of `keys` that is a number. Errors (MissingKey, naming the first key): none is.
  uint32_t u(std::initializer_list<const char*> keys) const {
    for (const char* k : keys) {
      if (has(k) && j_[k].is_number()) return j_[k].get<uint32_t>();
    }
    throw MissingKey{*keys.begin()};
  }
  uint32_t u_or(std::initializer_list<const char*> keys, uint32_t def) const {
    for (const char* k : keys) {
      if (has(k) && j_[k].is_number()) return j_[k].get<uint32_t>();
    }
    return def;
  }
  float f_or(std::initializer_list<const char*> keys, float def) const {
    for (const char* k : keys) {
      if (has(k) && j_[k].is_number()) return j_[k].get<float>();
    }
    return def;
  }
  bool b_or(const char* key, bool def) const { return has(key) && j_[key].is_boolean() ? j_[key].get<bool>() : def; }
  std::string s_or(const char* key, const std::string& def) const {
    return has(key) && j_[key].is_string() ? j_[key].get<std::string>() : def;
  }
  // rope_parameters (transformers 5) or the older top-level keys.
  const json& rope() const {
    static const json kEmpty = json::object();
    if (has("rope_parameters") && j_["rope_parameters"].is_object()) {
      const json& r = j_["rope_parameters"];
      // Per layer type (Gemma 3): the full-attention layers' parameters, as the converter takes.
      if (r.contains("full_attention") && r["full_attention"].is_object()) return r["full_attention"];
      return r;
    }
    if (has("rope_scaling") && j_["rope_scaling"].is_object()) return j_["rope_scaling"];
    return kEmpty;
  }
  float rope_theta(float def) const {
    const json& r = rope();
    if (r.contains("rope_theta") && r["rope_theta"].is_number()) return r["rope_theta"].get<float>();
    return f_or({"rope_theta"}, def);
  }
  float rope_f_or(const char* key, float def) const {
    const json& r = rope();
    if (r.contains(key) && r[key].is_number()) return r[key].get<float>();
    return f_or({key}, def);
  }
  const json& raw() const { return j_; }

 private:
  json j_;
};

// A multimodal file keeps its language model in text_config: the converter merges it over
// the top level.
json merge_text_config(json j) {
  if (j.contains("text_config") && j["text_config"].is_object()) {
    json text = j["text_config"];
    const std::string outer = j.value("model_type", "");
    for (auto it = text.begin(); it != text.end(); ++it) j[it.key()] = it.value();
    if (!outer.empty()) j["model_type"] = outer;  // the file's type names the converter class
  }
  return j;
}

// The dense transformer fields every decoder shares (TextModel.set_gguf_parameters).
void read_decoder(const Config& c, Preset& p, bool need_ff = true) {
  p.n_vocab = c.u({"vocab_size"});
  p.n_embd = c.u({"hidden_size", "n_embd", "dim"});
  p.n_layer = c.u({"num_hidden_layers", "n_layers", "n_layer", "num_layers"});
  p.n_head = c.u({"num_attention_heads", "n_head", "n_heads"});
  p.n_head_kv = c.u_or({"num_key_value_heads", "n_kv_heads"}, p.n_head);
  p.n_ff = need_ff ? c.u({"intermediate_size", "n_inner", "hidden_dim"}) : c.u_or({"intermediate_size"}, 0);
  p.n_ctx_train = c.u_or({"max_position_embeddings", "n_ctx", "n_positions"}, 4096);
  p.head_dim = c.u_or({"head_dim"}, 0);
  p.rope_theta = c.rope_theta(10000.0f);
  p.norm_eps = c.f_or({"rms_norm_eps"}, 1e-5f);
  p.tied_embeddings = c.b_or("tie_word_embeddings", false);
}

// Gemma 3's text model (Gemma3TextConfig's defaults; conversion/gemma.py Gemma3Model): tied
// embeddings, q/k norms, sliding window on five layers in six with no pattern key written.
void read_gemma3(const Config& c, Preset& p) {
  p.arch = "gemma3";
  p.n_vocab = c.u_or({"vocab_size"}, 262208);
  p.n_embd = c.u_or({"hidden_size"}, 2304);
  p.n_layer = c.u_or({"num_hidden_layers"}, 26);
  p.n_head = c.u_or({"num_attention_heads"}, 8);
  p.n_head_kv = c.u_or({"num_key_value_heads"}, 4);
  p.n_ff = c.u_or({"intermediate_size"}, 9216);
  p.head_dim = c.u_or({"head_dim"}, 256);
  p.n_ctx_train = c.u_or({"max_position_embeddings"}, 131072);
  p.norm_eps = c.f_or({"rms_norm_eps"}, 1e-6f);
  p.rope_theta = c.rope_theta(1000000.0f);
  p.rope_theta_swa = c.f_or({"rope_local_base_freq"}, 10000.0f);
  if (c.raw().contains("rope_parameters") && c.raw()["rope_parameters"].contains("sliding_attention")) {
    p.rope_theta_swa = c.raw()["rope_parameters"]["sliding_attention"].value("rope_theta", p.rope_theta_swa);
  }
  p.tied_embeddings = true;
  p.qk_norm = true;
  if (c.u_or({"sliding_window_pattern"}, 6) != 1) p.n_swa = c.u_or({"sliding_window"}, 4096);
  p.final_softcap = c.f_or({"final_logit_softcapping"}, 0.0f);
}

// Qwen3.5 (conversion/qwen.py Qwen3_5TextModel): a gated-delta-net layer and three in four,
// full attention with an output gate on every fourth. The MTP block is not written.
// Qwen3.5 MoE (Qwen3_5MoeTextModel, over Qwen2MoeModel): the same layers with routed experts
// and a shared expert with its own gate in place of the dense feed-forward.
void read_qwen35(const Config& c, Preset& p, bool moe) {
  read_decoder(c, p, /*need_ff=*/!moe);
  p.arch = moe ? "qwen35moe" : "qwen35";
  if (moe) {
    p.n_expert = c.u({"num_experts", "num_local_experts"});
    p.n_expert_used = c.u({"num_experts_per_tok"});
    p.n_ff_exp = c.u({"moe_intermediate_size"});
    p.n_ff_shexp = c.u({"shared_expert_intermediate_size"});
  }
  p.vocab_file = "ggml-vocab-qwen35.gguf";
  p.norm_eps = c.f_or({"rms_norm_eps"}, 1e-6f);
  p.head_dim = c.u_or({"head_dim"}, 256);
  p.qk_norm = true;
  p.attn_output_gate = c.b_or("attn_output_gate", true);
  p.ssm_d_conv = c.u({"linear_conv_kernel_dim"});
  p.ssm_d_state = c.u({"linear_key_head_dim"});
  p.ssm_n_group = c.u({"linear_num_key_heads"});
  p.ssm_dt_rank = c.u({"linear_num_value_heads"});
  p.ssm_d_inner = c.u({"linear_value_head_dim"}) * p.ssm_dt_rank;
  p.full_attention_interval = c.u_or({"full_attention_interval"}, 4);
  p.n_rot = static_cast<uint32_t>(static_cast<float>(p.head_k()) * c.rope_f_or("partial_rotary_factor", 0.25f));
  p.rope_sections = {11, 11, 10, 0};
  const json& rope = c.rope();
  if (rope.contains("mrope_section") && rope["mrope_section"].is_array()) {
    p.rope_sections = {0, 0, 0, 0};
    for (size_t i = 0; i < 4 && i < rope["mrope_section"].size(); ++i)
      p.rope_sections[i] = rope["mrope_section"][i].get<int32_t>();
  }
}

// Mamba and Falcon-Mamba (conversion/mamba.py MambaModel, which reads the file without
// AutoConfig): the vocabulary padded to pad_vocab_size_multiple, RMS norms on dt/B/C for
// falcon_mamba only, a context of 2^20 (the converter's "arbitrary value").
Status read_mamba(const Config& c, Preset& p, const std::string& type, const std::string& where) {
  p.arch = "mamba";
  p.n_embd = c.u({"hidden_size", "d_model"});
  p.n_layer = c.u({"num_hidden_layers", "n_layer", "n_layers", "num_layers"});
  const uint32_t pad = std::max<uint32_t>(1, c.u_or({"pad_vocab_size_multiple"}, 8));
  p.n_vocab = (c.u({"vocab_size"}) + pad - 1) / pad * pad;
  p.ssm_d_inner = c.u_or({"intermediate_size", "d_inner"}, 2 * p.n_embd);
  p.ssm_d_conv = c.u_or({"conv_kernel", "d_conv"}, 4);
  p.ssm_d_state = c.u_or({"state_size", "d_state"}, 16);
  p.ssm_dt_rank = c.u_or({"time_step_rank", "dt_rank"}, (p.n_embd + 15) / 16);
  p.norm_eps = c.f_or({"layer_norm_epsilon", "rms_norm_eps"}, 1e-5f);
  p.ssm_dt_b_c_rms = type == "falcon_mamba";
  p.n_ctx_train = 1u << 20;
  p.n_head = p.n_head_kv = p.n_ff = 0;
  p.tied_embeddings = c.b_or("tie_word_embeddings", true);
  p.vocab_file = type == "falcon_mamba" ? "ggml-vocab-falcon.gguf" : "ggml-vocab-gpt-neox.gguf";
  if (p.n_layer == 0 || p.n_embd == 0 || p.n_vocab == 0)
    return fail(ErrorCode::kInvalidInput, where + ": zero-sized dimension");
  if (p.ssm_d_inner != 2 * p.n_embd) {
    return fail(ErrorCode::kInvalidInput,
                where + ": intermediate_size " + std::to_string(p.ssm_d_inner) +
                    " is not twice hidden_size; llama.cpp loads only Mamba with an expansion factor of 2");
  }
  return {};
}

}  // namespace

Result<Preset> preset_from_hf_config(const std::string& config_path, const std::string& name) {
  std::ifstream in(config_path);
  if (!in) return fail(ErrorCode::kNotFound, "config '" + config_path + "': cannot open the file");
  const auto parsed = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object())
    return fail(ErrorCode::kInvalidInput, "config '" + config_path + "': not a JSON object");
  const std::string where = "config '" + config_path + "'";
  try {
    const Config c(merge_text_config(parsed));
    if (!c.has("model_type") || !c.raw()["model_type"].is_string()) throw MissingKey{"model_type"};
    const std::string type = c.raw()["model_type"].get<std::string>();
    Preset p;
    p.name = name;
    p.source = config_path;
    if (type == "llama" || type == "mistral" || type == "mixtral") {
      read_decoder(c, p);
      p.arch = "llama";
      p.n_expert = c.u_or({"num_local_experts"}, 0);
      p.n_expert_used = c.u_or({"num_experts_per_tok"}, 0);
      p.rope_freqs = c.rope().is_object() && c.rope().value("rope_type", "") == "llama3";
      p.vocab_file = p.n_vocab >= 128000 ? "ggml-vocab-llama-bpe.gguf" : "ggml-vocab-llama-spm.gguf";
    } else if (type == "phi3") {
      read_decoder(c, p);
      p.arch = "phi3";
      p.fused_qkv = true;
      p.vocab_file = "ggml-vocab-phi-3.gguf";
    } else if (type == "qwen2") {
      read_decoder(c, p);
      p.arch = "qwen2";
      p.qkv_bias = true;
      p.vocab_file = "ggml-vocab-qwen2.gguf";
    } else if (type == "gemma2") {
      read_decoder(c, p);
      p.arch = "gemma2";
      p.tied_embeddings = true;
      p.n_swa = c.u_or({"sliding_window"}, 4096);
      p.attn_softcap = c.f_or({"attn_logit_softcapping"}, 50.0f);
      p.final_softcap = c.f_or({"final_logit_softcapping"}, 30.0f);
    } else if (type == "gemma3" || type == "gemma3_text") {
      read_gemma3(c, p);
    } else if (type == "qwen3_5" || type == "qwen3_5_text") {
      read_qwen35(c, p, /*moe=*/false);
    } else if (type == "qwen3_5_moe" || type == "qwen3_5_moe_text") {
      read_qwen35(c, p, /*moe=*/true);
    } else if (type == "mamba" || type == "falcon_mamba") {
      if (Status s = read_mamba(c, p, type, where); !s) return std::unexpected(s.error());
      return p;
    } else if (type == "deepseek_v3" || type == "deepseek_v2") {
      read_decoder(c, p);
      p.arch = "deepseek2";
      p.n_expert = c.u({"n_routed_experts"});
      p.n_expert_used = c.u({"num_experts_per_tok"});
      p.n_ff_exp = c.u({"moe_intermediate_size"});
      p.n_expert_shared = c.u_or({"n_shared_experts"}, 0);
      p.n_layer_dense_lead = c.u_or({"first_k_dense_replace"}, 0);
      p.q_lora_rank = c.u_or({"q_lora_rank"}, 0);
      p.kv_lora_rank = c.u({"kv_lora_rank"});
      p.qk_nope_dim = c.u({"qk_nope_head_dim"});
      p.qk_rope_dim = c.u({"qk_rope_head_dim"});
      p.v_head_dim = c.u({"v_head_dim"});
    } else if (type == "bert" || type == "xlm-roberta") {
      read_decoder(c, p);
      p.arch = "bert";
      p.norm_eps = c.f_or({"layer_norm_eps"}, 1e-12f);
      // BertConfig's and XLMRobertaConfig's default; bge-m3 has 1.
      p.n_token_types = c.u_or({"type_vocab_size"}, 2);
      if (type == "xlm-roberta") {
        // Position embeddings start after the padding token: the converter drops those rows.
        const uint32_t offset = 1 + c.u_or({"pad_token_id"}, 1);
        if (p.n_ctx_train > offset) p.n_ctx_train -= offset;
      }
      p.vocab_file = "ggml-vocab-bert-bge.gguf";
    } else {
      return fail(ErrorCode::kInvalidInput,
                  where + ": model_type '" + type +
                      "' is not supported (llama, mistral, mixtral, phi3, qwen2, gemma2, gemma3_text, "
                      "qwen3_5, qwen3_5_moe, mamba, falcon_mamba, deepseek_v3, bert, xlm-roberta)");
    }
    if (p.n_head == 0 || p.n_layer == 0 || p.n_embd == 0)
      return fail(ErrorCode::kInvalidInput, where + ": zero-sized dimension");
    return p;
  } catch (const MissingKey& k) {
    const bool text = k.key == "model_type";
    return fail(ErrorCode::kInvalidInput,
                where + ": key '" + k.key + "' is missing or not a " + (text ? "string" : "number"));
  } catch (const json::exception& e) {
    return fail(ErrorCode::kInvalidInput, where + ": " + json_text(e));
  }
}

}  // namespace rigbench::model
