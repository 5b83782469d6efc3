#include "model/preset.h"

#include "core/strings.h"

namespace rigbench::model {

namespace {

std::vector<Preset> make_presets() {
  std::vector<Preset> out;
  auto add = [&](Preset p) { out.push_back(std::move(p)); };
  {
    Preset p;
    p.name = "SmolLM2-135M";
    p.arch = "llama";
    p.vocab_file = "ggml-vocab-starcoder.gguf";
    p.source = "https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct/blob/main/config.json";
    p.n_vocab = 49152;
    p.n_ctx_train = 8192;
    p.n_embd = 576;
    p.n_layer = 30;
    p.n_head = 9;
    p.n_head_kv = 3;
    p.n_ff = 1536;
    p.head_dim = 64;
    p.rope_theta = 100000;
    p.norm_eps = 1e-5f;
    p.tied_embeddings = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Llama-3.2-1B";
    p.arch = "llama";
    p.vocab_file = "ggml-vocab-llama-bpe.gguf";
    p.source = "https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct/blob/main/config.json";
    p.n_vocab = 128256;
    p.n_ctx_train = 131072;
    p.n_embd = 2048;
    p.n_layer = 16;
    p.n_head = 32;
    p.n_head_kv = 8;
    p.n_ff = 8192;
    p.head_dim = 64;
    p.rope_theta = 500000;
    p.norm_eps = 1e-5f;
    p.tied_embeddings = true;
    p.rope_freqs = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Llama-3.1-8B";
    p.arch = "llama";
    p.vocab_file = "ggml-vocab-llama-bpe.gguf";
    p.source = "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/config.json";
    p.n_vocab = 128256;
    p.n_ctx_train = 131072;
    p.n_embd = 4096;
    p.n_layer = 32;
    p.n_head = 32;
    p.n_head_kv = 8;
    p.n_ff = 14336;
    p.head_dim = 128;
    p.rope_theta = 500000;
    p.norm_eps = 1e-5f;
    p.rope_freqs = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Llama-3.1-70B";
    p.arch = "llama";
    p.vocab_file = "ggml-vocab-llama-bpe.gguf";
    p.source = "https://huggingface.co/meta-llama/Llama-3.1-70B-Instruct/blob/main/config.json";
    p.n_vocab = 128256;
    p.n_ctx_train = 131072;
    p.n_embd = 8192;
    p.n_layer = 80;
    p.n_head = 64;
    p.n_head_kv = 8;
    p.n_ff = 28672;
    p.head_dim = 128;
    p.rope_theta = 500000;
    p.norm_eps = 1e-5f;
    p.rope_freqs = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Phi-3-mini-4k";
    p.arch = "phi3";
    p.vocab_file = "ggml-vocab-phi-3.gguf";
    p.source = "https://huggingface.co/microsoft/Phi-3-mini-4k-instruct/blob/main/config.json";
    p.n_vocab = 32064;
    p.n_ctx_train = 4096;
    p.n_embd = 3072;
    p.n_layer = 32;
    p.n_head = 32;
    p.n_head_kv = 32;
    p.n_ff = 8192;
    p.rope_theta = 10000;
    p.norm_eps = 1e-5f;
    p.fused_qkv = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Qwen2.5-7B";
    p.arch = "qwen2";
    p.vocab_file = "ggml-vocab-qwen2.gguf";
    p.source = "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json";
    p.n_vocab = 152064;
    p.n_ctx_train = 32768;
    p.n_embd = 3584;
    p.n_layer = 28;
    p.n_head = 28;
    p.n_head_kv = 4;
    p.n_ff = 18944;
    p.rope_theta = 1000000;
    p.norm_eps = 1e-6f;
    p.qkv_bias = true;
    add(p);
  }
  {
    Preset p;
    p.name = "Gemma-2-9B";
    p.arch = "gemma2";
    p.source = "https://huggingface.co/google/gemma-2-9b-it/blob/main/config.json";
    p.n_vocab = 256000;
    p.n_ctx_train = 8192;
    p.n_embd = 3584;
    p.n_layer = 42;
    p.n_head = 16;
    p.n_head_kv = 8;
    p.n_ff = 14336;
    p.head_dim = 256;
    p.rope_theta = 10000;
    p.norm_eps = 1e-6f;
    p.tied_embeddings = true;
    p.n_swa = 4096;
    p.attn_softcap = 50.0f;
    p.final_softcap = 30.0f;
    add(p);
  }
  {
    Preset p;
    p.name = "Mistral-7B";
    p.arch = "llama";
    p.vocab_file = "ggml-vocab-llama-spm.gguf";
    p.source = "https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.3/blob/main/config.json";
    p.n_vocab = 32768;
    p.n_ctx_train = 32768;
    p.n_embd = 4096;
    p.n_layer = 32;
    p.n_head = 32;
    p.n_head_kv = 8;
    p.n_ff = 14336;
    p.rope_theta = 1000000;
    p.norm_eps = 1e-5f;
    add(p);
  }
  {
    Preset p;
    p.name = "Mixtral-8x7B";
    p.arch = "llama";
    p.vocab_file = "ggml-vocab-llama-spm.gguf";
    p.source = "https://huggingface.co/mistralai/Mixtral-8x7B-Instruct-v0.1/blob/main/config.json";
    p.n_vocab = 32000;
    p.n_ctx_train = 32768;
    p.n_embd = 4096;
    p.n_layer = 32;
    p.n_head = 32;
    p.n_head_kv = 8;
    p.n_ff = 14336;
    p.rope_theta = 1000000;
    p.norm_eps = 1e-5f;
    p.n_expert = 8;
    p.n_expert_used = 2;
    add(p);
  }
  {
    Preset p;
    p.name = "DeepSeek-V3";
    p.arch = "deepseek2";
    p.source = "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json";
    p.n_vocab = 129280;
    p.n_ctx_train = 163840;
    p.n_embd = 7168;
    p.n_layer = 61;
    p.n_head = 128;
    p.n_head_kv = 128;
    p.n_ff = 18432;
    p.rope_theta = 10000;
    p.norm_eps = 1e-6f;
    p.n_expert = 256;
    p.n_expert_used = 8;
    p.n_ff_exp = 2048;
    p.n_expert_shared = 1;
    p.n_layer_dense_lead = 3;
    p.q_lora_rank = 1536;
    p.kv_lora_rank = 512;
    p.qk_nope_dim = 128;
    p.qk_rope_dim = 64;
    p.v_head_dim = 128;
    add(p);
  }
  {
    Preset p;
    p.name = "bge-small-en-v1.5";
    p.arch = "bert";
    p.vocab_file = "ggml-vocab-bert-bge.gguf";
    p.source = "https://huggingface.co/BAAI/bge-small-en-v1.5/blob/main/config.json";
    p.n_vocab = 30522;
    p.n_ctx_train = 512;
    p.n_embd = 384;
    p.n_layer = 12;
    p.n_head = 12;
    p.n_head_kv = 12;
    p.n_ff = 1536;
    p.norm_eps = 1e-12f;
    p.n_token_types = 2;
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

}  // namespace rigbench::model
