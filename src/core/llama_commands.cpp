#include "core/llama_commands.h"

#include <algorithm>
#include <cctype>

#include "core/knobs.h"
#include "core/strings.h"

namespace rigbench {

namespace {

// A word for a shell: single-quoted when it holds anything but [A-Za-z0-9_./:=+,@%-].
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string("_./:=+,@%-").find(c) != std::string::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool off_default(const BenchParams& p, const std::string& key) {
  const Knob* k = find_knob(key);
  return k && knob_text(*k, p) != knob_default(*k);
}

// One knob's spelling in common/arg.cpp (llama-server, llama-cli) and in llama-bench, from
// the run's value: {flag, value} pairs ("" value = a bare flag).
using Words = std::vector<std::pair<std::string, std::string>>;

// The flags llama-server, llama-cli and llama-bench spell alike (batches, attention, KV cache,
// threadpool, load mode, experts in host RAM).
void add_shared_words(const BenchParams& p, Words& w) {
  if (off_default(p, "n_batch")) w.push_back({"-b", std::to_string(p.n_batch)});
  if (off_default(p, "n_ubatch")) w.push_back({"-ub", std::to_string(p.n_ubatch)});
  if (off_default(p, "flash_attn")) w.push_back({"-fa", p.flash_attn});
  if (off_default(p, "type_k")) w.push_back({"-ctk", p.type_k});
  if (off_default(p, "type_v")) w.push_back({"-ctv", p.type_v});
  if (off_default(p, "poll")) w.push_back({"--poll", std::to_string(p.poll)});
  if (off_default(p, "cpu_strict")) w.push_back({"--cpu-strict", std::to_string(p.cpu_strict)});
  if (off_default(p, "load_mode")) w.push_back({"-lm", p.load_mode});
  if (off_default(p, "n_cpu_moe")) w.push_back({"-ncmoe", std::to_string(p.n_cpu_moe)});
}

Words common_words(const BenchParams& p, bool gpu = true) {
  Words w;
  w.push_back({"-t", std::to_string(p.n_threads)});
  // llama-server's -ngl: "all" is every layer (-1 there means its own automatic fitting).
  if (p.n_gpu_layers != BenchParams{}.n_gpu_layers) w.push_back({"-ngl", std::to_string(p.n_gpu_layers)});
  else if (p.devices != "none" && gpu) w.push_back({"-ngl", "all"});
  add_shared_words(p, w);
  if (p.cpu_moe != 0) w.push_back({"-cmoe", ""});
  if (off_default(p, "split_mode")) w.push_back({"-sm", p.split_mode});
  if (off_default(p, "main_gpu")) w.push_back({"-mg", std::to_string(p.main_gpu)});
  if (p.no_kv_offload != 0) w.push_back({"-nkvo", ""});
  if (off_default(p, "devices")) w.push_back({"-dev", replace_all(p.devices, "/", ",")});
  if (!tensor_split_shares(p.tensor_split).empty()) w.push_back({"-ts", replace_all(p.tensor_split, "/", ",")});
  if (off_default(p, "tensor_buft_overrides")) w.push_back({"-ot", replace_all(p.tensor_buft_overrides, ";", ",")});
  if (p.no_op_offload != 0) w.push_back({"--no-op-offload", ""});
  return w;
}

Words bench_words(const BenchParams& p) {
  Words w;
  w.push_back({"-t", std::to_string(p.n_threads)});
  if (off_default(p, "n_gpu_layers")) w.push_back({"-ngl", std::to_string(p.n_gpu_layers)});
  add_shared_words(p, w);
  if (p.cpu_moe != 0) w.push_back({"-ot", "exps=CPU"});  // llama-bench has no -cmoe
  if (off_default(p, "split_mode")) w.push_back({"-sm", p.split_mode});
  if (off_default(p, "main_gpu")) w.push_back({"-mg", std::to_string(p.main_gpu)});
  if (p.no_kv_offload != 0) w.push_back({"-nkvo", "1"});
  if (off_default(p, "devices")) w.push_back({"-dev", p.devices});
  if (!tensor_split_shares(p.tensor_split).empty()) w.push_back({"-ts", replace_all(p.tensor_split, ",", "/")});
  if (off_default(p, "tensor_buft_overrides")) w.push_back({"-ot", p.tensor_buft_overrides});
  if (p.no_op_offload != 0) w.push_back({"-nopo", "1"});
  return w;
}

// -m MODEL, then `head`, then `words`, one argv element each.
std::vector<std::string> argv_of(const std::string& model_path, const Words& head, const Words& words) {
  std::vector<std::string> out = {"-m", model_path};
  for (const Words* list : {&head, &words}) {
    for (const auto& [flag, value] : *list) {
      out.push_back(flag);
      if (!value.empty()) out.push_back(value);
    }
  }
  return out;
}

std::string command(const std::string& tool, const std::string& model_path, const Words& head, const Words& words) {
  std::string out = tool;
  for (const std::string& word : argv_of(model_path, head, words)) out += " " + shell_word(word);
  return out;
}

Words server_head(const BenchParams& p, int n_parallel) {
  return {{"-c", std::to_string(p.n_ctx)}, {"-np", std::to_string(n_parallel)}};
}

// The knobs the llama-server and llama-cli lines carry (common_words), and those of the test
// (llama-bench's -p/-n/-d, no server flag).
constexpr const char* kServerKnobs[] = {
    "n_threads", "n_gpu_layers", "n_batch",  "n_ubatch",     "flash_attn", "type_k",
    "type_v",    "poll",         "cpu_strict", "load_mode",  "n_cpu_moe",  "cpu_moe",
    "split_mode", "main_gpu",    "no_kv_offload", "devices", "tensor_split", "tensor_buft_overrides",
    "no_op_offload", "n_ctx",    "n_depth"};

}  // namespace

std::vector<std::string> llama_server_args(const BenchParams& p, const std::string& model_path, int n_parallel) {
  return argv_of(model_path, server_head(p, n_parallel), common_words(p));
}

std::vector<std::string> llama_server_unmapped(const BenchParams& p) {
  std::vector<std::string> out;
  for (const Knob& k : knobs()) {
    if (std::find(std::begin(kServerKnobs), std::end(kServerKnobs), k.key) != std::end(kServerKnobs)) continue;
    if (off_default(p, k.key)) out.push_back(k.key);
  }
  return out;
}

LlamaCommands llama_commands(const BenchParams& p, const std::string& model_path, int n_parallel, bool gpu) {
  LlamaCommands c;
  const Words common = common_words(p, gpu);
  c.server = command("llama-server", model_path, server_head(p, n_parallel), common);
  c.cli = command("llama-cli", model_path, {{"-c", std::to_string(p.n_ctx)}}, common);
  Words test = {{"-p", std::to_string(p.n_prompt)}, {"-n", std::to_string(p.n_gen)}};
  if (p.n_prompt > 0 && p.n_gen > 0) test = {{"-pg", std::to_string(p.n_prompt) + "," + std::to_string(p.n_gen)}};
  if (p.n_depth > 0) test.push_back({"-d", std::to_string(p.n_depth)});
  c.bench = command("llama-bench", model_path, test, bench_words(p));

  // Ollama: num_ctx is the context of one request (its server multiplies it by the parallel slots).
  c.ollama_parameters.push_back({"num_ctx", std::to_string(std::max(1, p.n_ctx / std::max(1, n_parallel)))});
  c.ollama_parameters.push_back({"num_thread", std::to_string(p.n_threads)});
  if (off_default(p, "n_batch")) c.ollama_parameters.push_back({"num_batch", std::to_string(p.n_batch)});
  if (p.devices == "none") c.ollama_parameters.push_back({"num_gpu", "0"});
  else if (off_default(p, "n_gpu_layers")) c.ollama_parameters.push_back({"num_gpu", std::to_string(p.n_gpu_layers)});
  if (p.flash_attn != "auto") c.ollama_environment.push_back({"OLLAMA_FLASH_ATTENTION", p.flash_attn == "on" ? "1" : "0"});
  if (p.type_k == p.type_v && off_default(p, "type_k")) c.ollama_environment.push_back({"OLLAMA_KV_CACHE_TYPE", p.type_k});
  if (n_parallel > 1) c.ollama_environment.push_back({"OLLAMA_NUM_PARALLEL", std::to_string(n_parallel)});
  for (const char* key : {"n_ubatch", "poll", "cpu_strict", "load_mode", "n_cpu_moe", "cpu_moe", "split_mode",
                          "main_gpu", "no_kv_offload", "devices", "tensor_split", "tensor_buft_overrides",
                          "no_op_offload"}) {
    if (off_default(p, key) && !(std::string(key) == "devices" && p.devices == "none")) c.ollama_unmapped.push_back(key);
  }
  if (p.type_k != p.type_v) c.ollama_unmapped.push_back("type_k/type_v (Ollama sets one type for both)");
  return c;
}

}  // namespace rigbench
