#include "model/memory_layout.h"

#include <algorithm>
#include <initializer_list>

namespace rigbench::model {

namespace {

bool one_of(const std::string& arch, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (arch == n) return true;
  return false;
}

// Architectures whose llama.cpp context keeps no memory (encoders, diffusion models).
bool keeps_no_memory(const std::string& arch) {
  return one_of(arch, {"bert", "jina-bert-v2", "jina-bert-v3", "nomic-bert", "nomic-bert-moe", "neo-bert", "eurobert",
                       "wavtokenizer-dec", "modern-bert", "gemma-embedding", "dream", "llada", "llada-moe", "rnd1"});
}

// How an architecture lays out sliding-window layers, where llama.cpp hard-codes it
// (src/models/<arch>.cpp, load_arch_hparams). Architectures not listed have no sliding-window
// cache, whatever their metadata says (llama.cpp's swa_type stays NONE for them).
enum class SwaWhen { kAlways, kKeyPositive, kKeyNotZero, kLayers64 };
enum class SwaPattern {
  kPeriod,            // scalar key or default period p: layer il is SWA unless il % p == p - 1
  kPeriodDenseFirst,  // ... unless il % p == 0
  kPerLayer,          // array key, one flag per layer; a scalar fills every layer
  kAll,               // every layer
  kNotRecurrent,      // the attention layers of a hybrid (LFM2)
};
struct SwaRule {
  const char* arch;
  SwaWhen when;
  SwaPattern pattern;
  uint32_t period;     // default period (kPeriod*); an array key still gives one flag per layer
  uint32_t n_swa;      // default window when the key is absent (0: the key is required)
  bool window_forced;  // llama.cpp overrides the file's window with n_swa
};
constexpr SwaRule kSwaRules[] = {
    {"gemma2", SwaWhen::kAlways, SwaPattern::kPeriod, 2, 4096, false},
    {"gemma3", SwaWhen::kKeyPositive, SwaPattern::kPeriod, 6, 0, false},
    {"gemma3n", SwaWhen::kAlways, SwaPattern::kPeriod, 5, 0, false},
    {"gemma4", SwaWhen::kAlways, SwaPattern::kPerLayer, 0, 0, false},
    {"gemma4-assistant", SwaWhen::kAlways, SwaPattern::kPerLayer, 0, 0, false},
    {"cohere2", SwaWhen::kAlways, SwaPattern::kPeriod, 4, 0, false},
    {"cohere2moe", SwaWhen::kAlways, SwaPattern::kPeriodDenseFirst, 4, 0, false},
    {"exaone4", SwaWhen::kLayers64, SwaPattern::kPeriod, 4, 4096, false},
    {"exaone-moe", SwaWhen::kAlways, SwaPattern::kPeriod, 4, 128, false},
    {"olmo2", SwaWhen::kKeyPositive, SwaPattern::kPeriod, 4, 0, false},
    {"plamo3", SwaWhen::kKeyPositive, SwaPattern::kPeriod, 8, 0, false},
    {"llama4", SwaWhen::kKeyNotZero, SwaPattern::kPeriod, 4, 8192, true},
    {"muse-glimmer", SwaWhen::kAlways, SwaPattern::kPeriod, 4, 0, false},
    {"gpt-oss", SwaWhen::kAlways, SwaPattern::kPeriod, 2, 0, false},
    {"afmoe", SwaWhen::kKeyPositive, SwaPattern::kPeriod, 4, 0, false},
    {"laguna", SwaWhen::kKeyPositive, SwaPattern::kPeriodDenseFirst, 4, 0, false},
    {"mellum", SwaWhen::kKeyPositive, SwaPattern::kPeriod, 4, 0, false},
    {"smallthinker", SwaWhen::kKeyPositive, SwaPattern::kPeriodDenseFirst, 4, 4096, true},
    {"granite_swa", SwaWhen::kAlways, SwaPattern::kPerLayer, 0, 0, false},
    {"mimo2", SwaWhen::kAlways, SwaPattern::kPerLayer, 0, 0, false},
    {"step35", SwaWhen::kAlways, SwaPattern::kPerLayer, 0, 0, false},
    {"dots3note", SwaWhen::kAlways, SwaPattern::kPerLayer, 0, 0, false},
    {"deepseek4", SwaWhen::kAlways, SwaPattern::kAll, 0, 0, false},
    {"lfm2", SwaWhen::kKeyPositive, SwaPattern::kNotRecurrent, 0, 0, false},
};

// Which layers of a recurrent or hybrid architecture keep a recurrent state, and which keep
// attention cells (llama.cpp: llm_arch_is_recurrent / llm_arch_is_hybrid, the is_recr pattern
// each load_arch_hparams sets, and the layer filters of llama_model::create_memory).
enum class Recurrent { kAll, kNoKvHeads, kNoKvHeadsNoFf, kInterval };
enum class Attention { kNone, kNotRecurrent, kAll, kNotRecurrentNoFf };
struct RecurrentRule {
  const char* arch;
  Recurrent recurrent;
  Attention attention;
  uint32_t interval;  // kInterval: every interval-th layer is attention (full_attention_interval)
};
constexpr RecurrentRule kRecurrentRules[] = {
    {"mamba", Recurrent::kAll, Attention::kNone, 0},
    {"mamba2", Recurrent::kAll, Attention::kNone, 0},
    {"rwkv6", Recurrent::kAll, Attention::kNone, 0},
    {"rwkv6qwen2", Recurrent::kAll, Attention::kNone, 0},
    {"rwkv7", Recurrent::kAll, Attention::kNone, 0},
    {"arwkv7", Recurrent::kAll, Attention::kNone, 0},
    {"falcon-h1", Recurrent::kAll, Attention::kAll, 0},
    {"jamba", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"plamo2", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"granitehybrid", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"lfm2", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"lfm2moe", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"kimi-linear", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"kimi-k3", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"bailingmoe3", Recurrent::kNoKvHeads, Attention::kNotRecurrent, 0},
    {"nemotron_h", Recurrent::kNoKvHeadsNoFf, Attention::kNotRecurrentNoFf, 0},
    {"nemotron_h_moe", Recurrent::kNoKvHeadsNoFf, Attention::kNotRecurrentNoFf, 0},
    {"qwen3next", Recurrent::kInterval, Attention::kNotRecurrent, 4},
    {"qwen35", Recurrent::kInterval, Attention::kNotRecurrent, 4},
    {"qwen35moe", Recurrent::kInterval, Attention::kNotRecurrent, 4},
    {"qwen4exp", Recurrent::kInterval, Attention::kNotRecurrent, 4},
    {"minimax-01", Recurrent::kInterval, Attention::kNotRecurrent, 8},
};

template <typename Rule, std::size_t N>
const Rule* rule_for(const Rule (&rules)[N], const std::string& arch) {
  for (const Rule& r : rules)
    if (arch == r.arch) return &r;
  return nullptr;
}

// Sets n_swa and the sliding-window flag of each layer (after the recurrent layers are known).
void read_sliding_window(const GgufReader& r, ModelShape& s) {
  s.swa_layer.assign(s.n_layer, 0);
  s.n_swa = 0;
  const SwaRule* rule = rule_for(kSwaRules, s.arch);
  if (!rule) return;
  const bool key = r.has("attention.sliding_window");
  const uint32_t window = static_cast<uint32_t>(r.u("attention.sliding_window"));
  switch (rule->when) {
    case SwaWhen::kAlways: break;
    case SwaWhen::kKeyPositive:
      if (window == 0) return;
      break;
    case SwaWhen::kKeyNotZero:
      if (key && window == 0) return;
      break;
    case SwaWhen::kLayers64:
      if (s.n_layer != 64) return;
      break;
  }
  s.n_swa = rule->window_forced ? rule->n_swa : (key ? window : rule->n_swa);
  const std::string pattern_key = "attention.sliding_window_pattern";
  auto by_period = [&](uint32_t p, bool dense_first) {
    for (uint32_t il = 0; il < s.n_layer; ++il)
      s.swa_layer[il] = p == 0 || (dense_first ? il % p != 0 : il % p < p - 1);
  };
  switch (rule->pattern) {
    case SwaPattern::kAll: by_period(0, false); break;
    case SwaPattern::kNotRecurrent:
      for (uint32_t il = 0; il < s.n_layer; ++il) s.swa_layer[il] = !s.is_recurrent(il);
      break;
    case SwaPattern::kPerLayer:
    case SwaPattern::kPeriod:
    case SwaPattern::kPeriodDenseFirst:
      if (r.is_array(pattern_key) || (rule->pattern == SwaPattern::kPerLayer && r.has(pattern_key))) {
        const auto flags = r.per_layer(pattern_key, s.n_layer, 0);
        for (uint32_t il = 0; il < s.n_layer; ++il) s.swa_layer[il] = flags[il] != 0;
      } else if (rule->pattern != SwaPattern::kPerLayer) {
        by_period(static_cast<uint32_t>(r.u(pattern_key, rule->period)),
                  rule->pattern == SwaPattern::kPeriodDenseFirst);
      }
      break;
  }
  // Layers past the trunk (next-token prediction heads) are never sliding-window.
  for (uint32_t il = s.n_layer - std::min(s.n_layer, s.n_layer_nextn); il < s.n_layer; ++il) s.swa_layer[il] = 0;
}

// Sets the recurrent and attention layers and the size of the recurrent state.
void read_recurrent(const GgufReader& r, ModelShape& s) {
  const RecurrentRule* rule = rule_for(kRecurrentRules, s.arch);
  if (!rule) return;
  const uint32_t n_trunk = s.n_layer - std::min(s.n_layer, s.n_layer_nextn);
  s.recurrent_layer.assign(s.n_layer, 0);
  s.kv_layer.assign(s.n_layer, 0);
  std::vector<uint32_t> listed;
  if (rule->recurrent == Recurrent::kInterval && r.has("attention.recurrent_layers"))
    listed = r.per_layer("attention.recurrent_layers", s.n_layer, 0);
  const uint32_t interval = static_cast<uint32_t>(r.u("full_attention_interval", rule->interval));
  for (uint32_t il = 0; il < s.n_layer; ++il) {
    bool rec = false;
    switch (rule->recurrent) {
      case Recurrent::kAll: rec = true; break;
      case Recurrent::kNoKvHeads: rec = il < n_trunk && s.n_head_kv[il] == 0; break;
      case Recurrent::kNoKvHeadsNoFf: rec = il < n_trunk && s.n_head_kv[il] == 0 && s.n_ff[il] == 0; break;
      case Recurrent::kInterval:
        rec = !listed.empty() ? listed[il] != 0 : (il < n_trunk && interval > 0 && (il + 1) % interval != 0);
        break;
    }
    bool attn = false;
    switch (rule->attention) {
      case Attention::kNone: break;
      case Attention::kAll: attn = true; break;
      case Attention::kNotRecurrent: attn = !rec && (rule->recurrent != Recurrent::kInterval || il < n_trunk); break;
      case Attention::kNotRecurrentNoFf: attn = !rec && s.n_ff[il] == 0; break;
    }
    s.recurrent_layer[il] = rec;
    s.kv_layer[il] = attn;
  }

  // The state's two rows per sequence (llama_hparams::n_embd_r, n_embd_s), f32 elements.
  const uint64_t e = s.n_embd, n_head = s.n_head[0];
  const uint64_t wkv = r.u("wkv.head_size"), l_cache = r.u("shortconv.l_cache"), kda = r.u("kda.head_dim");
  const uint64_t d_conv = r.u("ssm.conv_kernel"), d_inner = r.u("ssm.inner_size"), d_state = r.u("ssm.state_size");
  const uint64_t n_group = r.u("ssm.group_count");
  if (wkv) s.state_r = r.u("token_shift_count", 2) * e;
  else if (l_cache) s.state_r = e * (l_cache - 1);
  else if (kda) s.state_r = 3 * (d_conv > 0 ? d_conv - 1 : 3) * n_head * kda;
  else s.state_r = (d_conv > 0 ? d_conv - 1 : 0) * (d_inner + 2 * n_group * d_state);
  if (wkv) s.state_s = e * wkv;
  else if (kda) s.state_s = kda * kda * n_head;
  else if (s.arch == "minimax-01")
    s.state_s = static_cast<uint64_t>(s.head_k) * s.head_k * n_head;  // lightning attention
  else s.state_s = d_state * d_inner;
  // Per-layer n-gram embeddings (PLE, Qwen4exp) keep a convolution history row on their layer
  // (llama_hparams::ple_conv_state): (kernel - 1) x ngram x hyper-connections x n_embd.
  const uint64_t ple_kernel = r.u("ple.conv_kernel"), ngram = r.u("ple.ngram_size"), hc = r.u("hyper_connection.count");
  if (r.is_array("ple.layers") && ple_kernel > 0 && ngram > 1 && r.u("ple.heads_per_ngram") > 0) {
    s.state_ple = (ple_kernel - 1) * ngram * hc * e;
    s.ple_layer.assign(s.n_layer, 0);
    const int64_t id = r.find("ple.layers");
    const auto layers = r.per_layer("ple.layers", static_cast<uint32_t>(gguf_get_arr_n(r.ctx, id)), s.n_layer);
    for (uint32_t il : layers)
      if (il < s.n_layer) s.ple_layer[il] = 1;
  }
}

// Layers llama.cpp leaves out of the KV cache, and the indexer cache of sparse attention.
void read_layer_exceptions(const GgufReader& r, ModelShape& s) {
  const uint32_t n_trunk = s.n_layer - s.n_layer_nextn;
  auto drop_from = [&](uint32_t first) {
    if (s.kv_layer.empty()) s.kv_layer.assign(s.n_layer, 1);
    for (uint32_t il = first; il < s.n_layer; ++il) s.kv_layer[il] = 0;
  };
  // Layers past n_layer_kv_from_start reuse an earlier layer's cache (Gemma 3n: 20; Gemma 4:
  // all but attention.shared_kv_layers).
  if (s.arch == "gemma3n") drop_from(std::min<uint32_t>(20, s.n_layer));
  if (s.arch == "gemma4")
    drop_from(s.n_layer - std::min<uint32_t>(s.n_layer, static_cast<uint32_t>(r.u("attention.shared_kv_layers"))));
  // The main context of these keeps no cache for the next-token prediction layers.
  if (s.n_layer_nextn > 0 && one_of(s.arch, {"step35", "hy_v3", "glm-dsa", "mimo2", "deepseek32", "dots3note"}))
    drop_from(n_trunk);
  // DeepSeek-V4 (llama_kv_cache_dsv4): K-only caches; every layer slides, and the layers
  // attention.compress_ratios marks add a compressed cache (4: CSA, with an indexer cache; 128: HCA).
  if (s.arch == "deepseek4") {
    s.compress_ratio = r.per_layer("attention.compress_ratios", s.n_layer, 0);
    s.indexer_head_k = static_cast<uint32_t>(r.u("attention.indexer.key_length"));
    s.n_hc = static_cast<uint32_t>(r.u("hyper_connection.count"));
  }
  // Sparse attention: a cache of the indexer's keys, one head per cell, beside the main one.
  // DSA (deepseek32: every trunk layer; glm-dsa, dots3note: the layers attention.indexer.types
  // marks), MiniMax-M3's MSA (the layers after the leading dense ones), Qwen4exp (its
  // attention layers, when the indexer has a key size).
  const uint32_t indexer_k = static_cast<uint32_t>(r.u("attention.indexer.key_length"));
  const bool dsa = one_of(s.arch, {"deepseek32", "glm-dsa", "dots3note"});
  if (dsa || s.arch == "minimax-m3" || (s.arch == "qwen4exp" && indexer_k > 0)) {
    s.indexer_head_k = indexer_k;
    const bool typed = dsa && s.arch != "deepseek32" && r.has("attention.indexer.types");
    const auto types = r.per_layer("attention.indexer.types", s.n_layer, 1);
    const uint32_t dense_lead = static_cast<uint32_t>(r.u("leading_dense_block_count"));
    s.indexer_layer.assign(s.n_layer, 0);
    for (uint32_t il = 0; il < n_trunk; ++il) {
      if (dsa) s.indexer_layer[il] = !typed || types[il] != 0;
      else if (s.arch == "minimax-m3") s.indexer_layer[il] = il >= dense_lead;
      else s.indexer_layer[il] = !s.is_recurrent(il);
    }
    // Qwen4exp's indexer scores blocks of attention.compress_ratios cells (build_qsa_top_k).
    if (s.arch == "qwen4exp") {
      const auto ratios = r.per_layer("attention.compress_ratios", s.n_layer, 0);
      for (uint32_t il = 0; il < n_trunk; ++il)
        if (s.indexer_layer[il]) s.indexer_pool = std::max(s.indexer_pool, ratios[il]);
    }
  }
}

}  // namespace

bool is_attention_free(const std::string& arch) {
  const RecurrentRule* rule = rule_for(kRecurrentRules, arch);
  return rule && rule->attention == Attention::kNone;
}

void read_memory_layout(const GgufReader& r, ModelShape& s) {
  if (keeps_no_memory(s.arch)) s.kv_layer.assign(s.n_layer, 0);
  read_recurrent(r, s);
  read_sliding_window(r, s);
  read_layer_exceptions(r, s);
}

}  // namespace rigbench::model
