#include "model/preset.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace rigbench::model {

namespace {

std::vector<Preset> make_presets() {
  std::vector<Preset> out;
  auto add = [&](Preset p) { out.push_back(std::move(p)); };
  {
    Preset p;
    p.name = "SmolLM2-135M"; p.arch = "llama"; p.vocab_file = "ggml-vocab-starcoder.gguf";
    p.source = "https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct/blob/main/config.json";
    p.n_vocab = 49152; p.n_ctx_train = 8192; p.n_embd = 576; p.n_layer = 30; p.n_head = 9; p.n_head_kv = 3;
    p.n_ff = 1536; p.head_dim = 64; p.rope_theta = 100000; p.norm_eps = 1e-5f; p.tied_embeddings = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Llama-3.2-1B"; p.arch = "llama"; p.vocab_file = "ggml-vocab-llama-bpe.gguf";
    p.source = "https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct/blob/main/config.json";
    p.n_vocab = 128256; p.n_ctx_train = 131072; p.n_embd = 2048; p.n_layer = 16; p.n_head = 32; p.n_head_kv = 8;
    p.n_ff = 8192; p.head_dim = 64; p.rope_theta = 500000; p.norm_eps = 1e-5f; p.tied_embeddings = true;
    p.rope_freqs = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Llama-3.1-8B"; p.arch = "llama"; p.vocab_file = "ggml-vocab-llama-bpe.gguf";
    p.source = "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/config.json";
    p.n_vocab = 128256; p.n_ctx_train = 131072; p.n_embd = 4096; p.n_layer = 32; p.n_head = 32; p.n_head_kv = 8;
    p.n_ff = 14336; p.head_dim = 128; p.rope_theta = 500000; p.norm_eps = 1e-5f; p.rope_freqs = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Llama-3.1-70B"; p.arch = "llama"; p.vocab_file = "ggml-vocab-llama-bpe.gguf";
    p.source = "https://huggingface.co/meta-llama/Llama-3.1-70B-Instruct/blob/main/config.json";
    p.n_vocab = 128256; p.n_ctx_train = 131072; p.n_embd = 8192; p.n_layer = 80; p.n_head = 64; p.n_head_kv = 8;
    p.n_ff = 28672; p.head_dim = 128; p.rope_theta = 500000; p.norm_eps = 1e-5f; p.rope_freqs = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Phi-3-mini-4k"; p.arch = "phi3"; p.vocab_file = "ggml-vocab-phi-3.gguf";
    p.source = "https://huggingface.co/microsoft/Phi-3-mini-4k-instruct/blob/main/config.json";
    p.n_vocab = 32064; p.n_ctx_train = 4096; p.n_embd = 3072; p.n_layer = 32; p.n_head = 32; p.n_head_kv = 32;
    p.n_ff = 8192; p.rope_theta = 10000; p.norm_eps = 1e-5f; p.fused_qkv = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Qwen2.5-7B"; p.arch = "qwen2"; p.vocab_file = "ggml-vocab-qwen2.gguf";
    p.source = "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json";
    p.n_vocab = 152064; p.n_ctx_train = 32768; p.n_embd = 3584; p.n_layer = 28; p.n_head = 28; p.n_head_kv = 4;
    p.n_ff = 18944; p.rope_theta = 1000000; p.norm_eps = 1e-6f; p.qkv_bias = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Gemma-2-9B"; p.arch = "gemma2";
    p.source = "https://huggingface.co/google/gemma-2-9b-it/blob/main/config.json";
    p.n_vocab = 256000; p.n_ctx_train = 8192; p.n_embd = 3584; p.n_layer = 42; p.n_head = 16; p.n_head_kv = 8;
    p.n_ff = 14336; p.head_dim = 256; p.rope_theta = 10000; p.norm_eps = 1e-6f; p.tied_embeddings = true;
    p.n_swa = 4096; p.attn_softcap = 50.0f; p.final_softcap = 30.0f;
    add(p);
  }
  {
    Preset p;
    p.name = "Mistral-7B"; p.arch = "llama"; p.vocab_file = "ggml-vocab-llama-spm.gguf";
    p.source = "https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.3/blob/main/config.json";
    p.n_vocab = 32768; p.n_ctx_train = 32768; p.n_embd = 4096; p.n_layer = 32; p.n_head = 32; p.n_head_kv = 8;
    p.n_ff = 14336; p.rope_theta = 1000000; p.norm_eps = 1e-5f;
    add(p);
  }
  {
    Preset p;
    p.name = "Mixtral-8x7B"; p.arch = "llama"; p.vocab_file = "ggml-vocab-llama-spm.gguf";
    p.source = "https://huggingface.co/mistralai/Mixtral-8x7B-Instruct-v0.1/blob/main/config.json";
    p.n_vocab = 32000; p.n_ctx_train = 32768; p.n_embd = 4096; p.n_layer = 32; p.n_head = 32; p.n_head_kv = 8;
    p.n_ff = 14336; p.rope_theta = 1000000; p.norm_eps = 1e-5f; p.n_expert = 8; p.n_expert_used = 2;
    add(p);
  }
  {
    Preset p;
    p.name = "DeepSeek-V3"; p.arch = "deepseek2";
    p.source = "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json";
    p.n_vocab = 129280; p.n_ctx_train = 163840; p.n_embd = 7168; p.n_layer = 61; p.n_head = 128; p.n_head_kv = 128;
    p.n_ff = 18432; p.rope_theta = 10000; p.norm_eps = 1e-6f;
    p.n_expert = 256; p.n_expert_used = 8; p.n_ff_exp = 2048; p.n_expert_shared = 1; p.n_layer_dense_lead = 3;
    p.q_lora_rank = 1536; p.kv_lora_rank = 512; p.qk_nope_dim = 128; p.qk_rope_dim = 64; p.v_head_dim = 128;
    add(p);
  }
  {
    Preset p;
    p.name = "bge-small-en-v1.5"; p.arch = "bert"; p.vocab_file = "ggml-vocab-bert-bge.gguf";
    p.source = "https://huggingface.co/BAAI/bge-small-en-v1.5/blob/main/config.json";
    p.n_vocab = 30522; p.n_ctx_train = 512; p.n_embd = 384; p.n_layer = 12; p.n_head = 12; p.n_head_kv = 12;
    p.n_ff = 1536; p.norm_eps = 1e-12f; p.n_token_types = 2;
    add(p);
  }
  return out;
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> kPresets = make_presets();
  return kPresets;
}

Result<Preset> find_preset(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& p : presets()) {
    if (to_lower(p.name) == to_lower(name)) return p;
    names.push_back(p.name);
  }
  return fail(ErrorCode::kUsage, "--preset '" + name + "': unknown preset (" + join(names, ", ") + ")");
}

Result<Preset> preset_from_hf_config(const std::string& config_path, const std::string& name) {
  std::ifstream in(config_path);
  if (!in) return fail(ErrorCode::kNotFound, "config '" + config_path + "': cannot open the file");
  const auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return fail(ErrorCode::kInvalidInput, "config '" + config_path + "': not a JSON object");
  const std::string where = "config '" + config_path + "'";
  try {
    const std::string type = j.at("model_type").get<std::string>();
    Preset p;
    p.name = name;
    p.source = config_path;
    auto u = [&](const char* key) { return j.at(key).get<uint32_t>(); };
    auto u_or = [&](const char* key, uint32_t def) { return j.contains(key) && j[key].is_number() ? j[key].get<uint32_t>() : def; };
    auto f_or = [&](const char* key, float def) { return j.contains(key) && j[key].is_number() ? j[key].get<float>() : def; };
    p.n_vocab = u("vocab_size");
    p.n_embd = u("hidden_size");
    p.n_layer = u("num_hidden_layers");
    p.n_head = u("num_attention_heads");
    p.n_head_kv = u_or("num_key_value_heads", p.n_head);
    p.n_ff = u("intermediate_size");
    p.n_ctx_train = u_or("max_position_embeddings", 4096);
    p.head_dim = u_or("head_dim", 0);
    p.rope_theta = f_or("rope_theta", 10000.0f);
    p.norm_eps = f_or("rms_norm_eps", 1e-5f);
    p.tied_embeddings = j.value("tie_word_embeddings", false);
    if (type == "llama" || type == "mistral" || type == "mixtral") {
      p.arch = "llama";
      p.n_expert = u_or("num_local_experts", 0);
      p.n_expert_used = u_or("num_experts_per_tok", 0);
      p.rope_freqs = j.contains("rope_scaling") && j["rope_scaling"].is_object() &&
                     j["rope_scaling"].value("rope_type", "") == "llama3";
      p.vocab_file = p.n_vocab >= 128000 ? "ggml-vocab-llama-bpe.gguf" : "ggml-vocab-llama-spm.gguf";
    } else if (type == "phi3") {
      p.arch = "phi3";
      p.fused_qkv = true;
      p.vocab_file = "ggml-vocab-phi-3.gguf";
    } else if (type == "qwen2") {
      p.arch = "qwen2";
      p.qkv_bias = true;
      p.vocab_file = "ggml-vocab-qwen2.gguf";
    } else if (type == "gemma2") {
      p.arch = "gemma2";
      p.tied_embeddings = true;
      p.n_swa = u_or("sliding_window", 4096);
      p.attn_softcap = f_or("attn_logit_softcapping", 50.0f);
      p.final_softcap = f_or("final_logit_softcapping", 30.0f);
    } else if (type == "deepseek_v3" || type == "deepseek_v2") {
      p.arch = "deepseek2";
      p.n_expert = u("n_routed_experts");
      p.n_expert_used = u("num_experts_per_tok");
      p.n_ff_exp = u("moe_intermediate_size");
      p.n_expert_shared = u_or("n_shared_experts", 0);
      p.n_layer_dense_lead = u_or("first_k_dense_replace", 0);
      p.q_lora_rank = u_or("q_lora_rank", 0);
      p.kv_lora_rank = u("kv_lora_rank");
      p.qk_nope_dim = u("qk_nope_head_dim");
      p.qk_rope_dim = u("qk_rope_head_dim");
      p.v_head_dim = u("v_head_dim");
    } else if (type == "bert") {
      p.arch = "bert";
      p.norm_eps = f_or("layer_norm_eps", 1e-12f);
      p.n_token_types = u_or("type_vocab_size", 2);
      p.vocab_file = "ggml-vocab-bert-bge.gguf";
    } else {
      return fail(ErrorCode::kInvalidInput, where + ": model_type '" + type +
                                                "' is not supported (llama, mistral, mixtral, phi3, qwen2, gemma2, deepseek_v3, bert)");
    }
    if (p.n_head == 0 || p.n_layer == 0 || p.n_embd == 0) return fail(ErrorCode::kInvalidInput, where + ": zero-sized dimension");
    return p;
  } catch (const nlohmann::json::exception& e) {
    return fail(ErrorCode::kInvalidInput, where + ": " + e.what());
  }
}

}  // namespace rigbench::model
