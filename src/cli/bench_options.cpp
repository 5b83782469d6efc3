#include "cli/bench_options.h"

#include <algorithm>
#include <charconv>

#include "core/strings.h"
#include "engine/llama_engine.h"
#include "report/printer.h"

namespace rigbench::cli {

namespace {

// An integer in [lo, hi], with a message that names the value when it is not one.
CLI::Validator int_in(long lo, long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        long v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size()) return "'" + s + "' is not an integer";
        if (v < lo || v > hi) return "'" + s + "' is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
        return {};
      },
      "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

constexpr long kMaxTokens = 1L << 24;

}  // namespace

void add_bench_options(CLI::App& cmd, BenchOptions& o) {
  auto& p = o.plan;
  cmd.add_option("models", p.models, "GGUF model files (default: a synthetic Llama-3.2-1B Q4_K_M, written once to the cache)");
  cmd.add_option("-p,--n-prompt", p.n_prompt, "prompt tokens of the pp test, comma-separated list; 0 = no pp")
      ->delimiter(',')->check(int_in(0, kMaxTokens))->capture_default_str();
  cmd.add_option("-n,--n-gen", p.n_gen, "generated tokens of the tg test, list; 0 = no tg")
      ->delimiter(',')->check(int_in(0, kMaxTokens))->capture_default_str();
  cmd.add_option("-d,--n-depth", p.n_depth, "tokens already in the KV cache before each test, list")
      ->delimiter(',')->check(int_in(0, kMaxTokens))->capture_default_str();
  cmd.add_option("-r,--repetitions", p.repetitions, "timed repetitions per run")
      ->check(int_in(1, 1000000))->capture_default_str()->take_last();
  cmd.add_option("--warmup", p.warmup, "warmup passes (one pp and one 1-token tg each) before timing")
      ->check(int_in(0, 1000))->capture_default_str()->take_last();
  cmd.add_option("-t,--threads", p.n_threads, "threads, list (default: physical cores)")
      ->delimiter(',')->check(int_in(1, 1024));
  cmd.add_option("--n-gpu-layers", p.n_gpu_layers, "-ngl: layers offloaded to GPUs, list; -1 = all")
      ->delimiter(',')->check(int_in(-1, 100000))->capture_default_str();
  cmd.add_option("--load-mode", p.load_mode,
                 "-lm: how llama.cpp loads the weights, list of auto|none|mmap|mlock|mmap+mlock|dio (none: read into fresh memory)")
      ->delimiter(',')->capture_default_str();
  cmd.add_option("--flash-attn", p.flash_attn, "-fa: flash attention, list of auto|on|off|1|0")
      ->delimiter(',')->capture_default_str();
  cmd.add_option("--cache-type-k", p.type_k, "-ctk: KV cache K type, list (f16, q8_0, q4_0, ...)")
      ->delimiter(',')->capture_default_str();
  cmd.add_option("--cache-type-v", p.type_v, "-ctv: KV cache V type, list (needs -fa on unless f16/f32)")
      ->delimiter(',')->capture_default_str();
  cmd.add_option("-b,--batch-size", p.n_batch, "logical batch size, list")
      ->delimiter(',')->check(int_in(1, kMaxTokens))->capture_default_str();
  cmd.add_option("--ubatch-size", p.n_ubatch, "-ub: physical batch size, list")
      ->delimiter(',')->check(int_in(1, kMaxTokens))->capture_default_str();
  cmd.add_option("--delay", p.delay_s, "seconds to sleep before each run (cool-down)")
      ->check(CLI::Range(0.0, 86400.0))->capture_default_str()->take_last();
  cmd.add_option("-o,--output", o.output, "output format: md, csv, json, jsonl")->capture_default_str()->take_last();
  cmd.add_option("--db", o.db_path, "results database (default: $XDG_DATA_HOME/rigbench/results.db)")->take_last();
  cmd.add_flag("--no-db", o.no_db, "do not store the results");
  cmd.add_option("--tag", o.tags, "text kept with every record (repeatable)");
  cmd.add_flag("--force", o.force, "run even when the memory plan says the model will not fit this machine");
  cmd.add_option("--energy", o.energy, "measure energy with the meters found: auto or off")
      ->check(CLI::IsMember({"auto", "off"}))->capture_default_str()->take_last();
  cmd.add_option("--idle", o.idle_s, "seconds of idle baseline per run, model loaded (median power)")
      ->check(CLI::Range(0.0, 3600.0))->capture_default_str()->take_last();
  cmd.add_option("--watts", o.watts, "a constant power you state, W (when no meter can read it)")
      ->check(CLI::Range(0.0, 100000.0))->take_last();
  cmd.add_option("--power-log", o.power_log, "CSV log (timestamp,watts) of a wall meter or smart plug covering the run");
  cmd.add_option("--estimate-power", o.estimate_tdp_w, "estimate power as TDP x CPU utilization, with this TDP in W (labelled estimated)")
      ->check(CLI::Range(1.0, 10000.0));
  add_price_flags(cmd, o.cost);
  // A list flag takes one value per occurrence (comma-separated, or the flag repeated, as
  // llama-bench), so `-p 64 model.gguf` leaves the model to the positional.
  for (CLI::Option* opt : cmd.get_options()) {
    if (!opt->get_positional()) opt->allow_extra_args(false);
  }
}

Status validate(BenchOptions& o, int default_threads) {
  auto& p = o.plan;
  for (auto& fa : p.flash_attn) {
    const std::string v = to_lower(trim(fa));
    if (v == "1" || v == "on" || v == "true") fa = "on";
    else if (v == "0" || v == "off" || v == "false") fa = "off";
    else if (v == "auto" || v == "-1") fa = "auto";
    else return fail(ErrorCode::kUsage, "-fa/--flash-attn '" + fa + "': expected auto, on (1) or off (0)");
  }
  const auto& modes = engine::load_modes();
  for (auto& lm : p.load_mode) {
    const std::string v = to_lower(trim(lm));
    if (std::find(modes.begin(), modes.end(), v) == modes.end()) {
      return fail(ErrorCode::kUsage, "-lm/--load-mode '" + lm + "': expected one of " + join(modes, ", "));
    }
    lm = v;
  }
  const auto& types = engine::kv_cache_types();
  for (auto* list : {&p.type_k, &p.type_v}) {
    for (auto& t : *list) {
      t = to_lower(trim(t));
      if (std::find(types.begin(), types.end(), t) == types.end()) {
        return fail(ErrorCode::kUsage, std::string(list == &p.type_k ? "-ctk/--cache-type-k" : "-ctv/--cache-type-v") +
                                           " '" + t + "': unknown KV cache type (" + join(types, ", ") + ")");
      }
    }
  }
  if (auto f = report::parse_output_format(o.output); !f) return std::unexpected(f.error());
  if (o.no_db && !o.db_path.empty()) return fail(ErrorCode::kUsage, "--db and --no-db: give one, not both");
  if (std::all_of(p.n_prompt.begin(), p.n_prompt.end(), [](int v) { return v == 0; }) &&
      std::all_of(p.n_gen.begin(), p.n_gen.end(), [](int v) { return v == 0; })) {
    return fail(ErrorCode::kUsage, "-p/-n: both are 0, nothing to measure");
  }
  if (p.n_threads.empty()) p.n_threads = {default_threads};
  return {};
}

}  // namespace rigbench::cli
