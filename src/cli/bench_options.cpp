#include "cli/bench_options.h"

#include <algorithm>
#include <charconv>

#include "cli/args.h"
#include "cli/knob_flags.h"
#include "cli/progress_flags.h"
#include "cli/record_flags.h"
#include "cli/repetition_flags.h"
#include "core/knobs.h"
#include "core/repetitions.h"
#include "core/strings.h"
#include "report/printer.h"

namespace rigbench::cli {

namespace {

constexpr long kMaxTokens = 1L << 24;


}  // namespace

void add_bench_options(CLI::App& cmd, BenchOptions& o) {
  auto& p = o.plan;
  cmd.add_option("models", p.models,
                 "GGUF model files (default: a synthetic Llama-3.2-1B Q4_K_M, written once to the cache)");
  cmd.add_option("-m,--model", o.model_flags,
                 "a GGUF model file, as llama-bench takes it (repeatable; same as the positional)");
  cmd.add_option("-p,--n-prompt", p.n_prompt, "prompt tokens: one pp test (with TTFT) per value, list; 0 = none")
      ->delimiter(',')
      ->check(int_range(0, kMaxTokens))
      ->capture_default_str();
  cmd.add_option("-n,--n-gen", p.n_gen, "generated tokens: one tg test per value, list; 0 = none")
      ->delimiter(',')
      ->check(int_range(0, kMaxTokens))
      ->capture_default_str();
  cmd.add_option("--pg", o.pg,  // typed -pg only, as llama-bench spells it (cli/args.h llama_spellings)
                 "one test of a PP-token prompt then TG generated tokens, pp, TTFT and tg measured apart (repeatable)")
      ->option_text("PP,TG ...");
  add_knob_list_flags(cmd, p.knobs);
  cmd.add_option("--mmap", o.mmap, "0|1: llama-bench's older spelling of -lm none|mmap, list")->delimiter(',');
  add_repetition_flags(cmd, o.repetitions, p.ci_target_pct, p.max_time_s, "the mean t/s", "test");
  cmd.add_option("--warmup", p.warmup, "warmup passes (one pp and one 1-token tg each) before timing")
      ->check(int_range(0, 1000))
      ->capture_default_str()
      ->take_last();
  cmd.add_flag("--no-warmup", o.no_warmup, "no warmup pass (as --warmup 0)");
  cmd.add_option("--delay", p.delay_s, "seconds to sleep before each test (cool-down)")
      ->check(range(0.0, 86400.0))
      ->capture_default_str()
      ->take_last();
  cmd.add_option("-o,--output", o.output, "output format: md, csv, json, jsonl or sql")
      ->capture_default_str()
      ->take_last();
  cmd.add_flag("--wide", o.wide, "every column in the md table (memory, bound, file)");
  add_record_flags(cmd, o.db_path, o.no_db, o.tags, o.machine);
  cmd.add_flag("--force", o.force,
               "run even when the memory plan says the model will not fit this machine, or that llama.cpp refuses its "
               "KV cache types");
  add_progress_flags(cmd, o.progress, o.no_progress);
  cmd.add_flag("-v,--verbose", o.verbose, "show llama.cpp's own log on stderr");
  cmd.add_option("--energy", o.energy, "measure energy with the meters found: auto or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str()
      ->take_last();
  cmd.add_option("--idle-seconds", o.idle_s,
                 "seconds of idle baseline per test, model loaded (power from the source the phases use)")
      ->check(range(0.0, 3600.0))
      ->capture_default_str()
      ->take_last();
  cmd.add_option("--watts", o.watts, "a constant power you state, W (when no meter can read it)")
      ->check(range(0.0, 100000.0))
      ->take_last();
  cmd.add_option("--idle-watts", o.cost.idle_watts,
                 "the idle power you state, W, model loaded (replaces the idle window)")
      ->check(range(0.0, 100000.0))
      ->take_last();
  cmd.add_option("--power-log", o.power_log,
                 "CSV log (timestamp,watts) of a wall meter or smart plug covering the run");
  cmd.add_option("--estimate-power", o.estimate_tdp_w,
                 "estimate power as TDP x CPU utilization, with this TDP in W (labelled estimated)")
      ->check(range(1.0, 10000.0));
  add_price_flags(cmd, o.cost);
  cmd.add_option("--prompts", o.prompts,
                 "a prompt suite instead of pp/tg: a JSONL file (id, category, text or messages, n_gen) or "
                 "builtin; -r runs the whole suite")
      ->take_last();
  cmd.add_flag("--ignore-eos", o.ignore_eos, "with --prompts: generate each prompt's n_gen tokens past end of generation");
  // A list flag takes one value per occurrence (comma-separated, or the flag repeated, as
  // llama-bench), so `-p 64 model.gguf` leaves the model to the positional.
  for (CLI::Option* opt : cmd.get_options()) {
    if (!opt->get_positional()) opt->allow_extra_args(false);
  }
  cmd.footer(R"(Tests: one pp test per -p value (with TTFT), one tg test per -n value, one per -pg pair; each over the
cartesian product of the knob lists. Lists: comma-separated or the flag repeated.
An encoder (an embedding model such as BERT) is refused up front with a pointer to `rigbench embed`:
it generates nothing, so pp, tg, TTFT and a tg bound do not apply to it.
Repetitions: -r auto (the default) stops as soon as the mean t/s is known to ±--ci-target % (95 %
confidence), at least 3 repetitions: a quiet machine is done sooner than with a fixed 5, a noisy one gets
more, up to --max-time s per test, and every row says how tight it is and why it stopped. -r N as llama-bench.
Exit codes: 0 every test ran; 1 a test failed or was refused (the others still ran and were stored),
or a bad model file; 2 a bad flag or value, or an encoder; 130 interrupted (finished repetitions are kept).
--rpc: each rpc-server is probed first (refused, busy, another protocol version: one line naming it, exit 1);
a server lost mid-run ends the run with its finished repetitions stored, one line naming it, exit 1.
Examples:
  rigbench bench model.gguf -p 512 -n 128 -t 4,8
  rigbench bench model.gguf --prompts builtin -r 3
  rigbench bench -m a.gguf -m b.gguf -pg 512,128 -fa on,off -o json
  rigbench bench model.gguf --rpc none --rpc 192.168.1.7:50052,192.168.1.8:50052 -ngl 99   (local and split))");
}

Status validate(BenchOptions& o, int default_threads) {
  auto& p = o.plan;
  p.models.insert(p.models.end(), o.model_flags.begin(), o.model_flags.end());
  o.model_flags.clear();
  if (!o.mmap.empty()) {
    auto& lm = p.knobs["load_mode"];
    for (const std::string& v : o.mmap) {
      const std::string t = trim(v);
      if (t == "0") lm.push_back("none");
      else if (t == "1") lm.push_back("mmap");
      else return fail(ErrorCode::kUsage, "-mmp/--mmap '" + v + "': expected 0 or 1 (better: -lm none|mmap)");
    }
    o.mmap.clear();
  }
  if (o.no_warmup) p.warmup = 0;
  if (auto shown = show_progress(o.progress, o.no_progress, false); !shown) return std::unexpected(shown.error());
  const RepetitionRule rule = repetition_rule(o.repetitions, p.ci_target_pct, p.max_time_s);
  p.auto_repetitions = rule.automatic;
  p.repetitions = rule.repetitions;
  o.machine = trim(o.machine);  // empty: the host's name
  if (Status s = normalize_knob_lists(p.knobs); !s) return s;
  p.n_pg.clear();
  for (const std::string& pair : o.pg) {
    const auto parts = split(pair, ',');
    int np = -1, ng = -1;
    if (parts.size() == 2) {
      const std::string a = trim(parts[0]), b = trim(parts[1]);
      auto [e1, c1] = std::from_chars(a.data(), a.data() + a.size(), np);
      auto [e2, c2] = std::from_chars(b.data(), b.data() + b.size(), ng);
      if (c1 != std::errc() || e1 != a.data() + a.size() || c2 != std::errc() || e2 != b.data() + b.size())
        np = ng = -1;
    }
    if (np < 0 || ng < 0 || np > kMaxTokens || ng > kMaxTokens || (np == 0 && ng == 0)) {
      return fail(ErrorCode::kUsage, "-pg '" + pair + "': expected PP,TG, two token counts (e.g. -pg 512,128)");
    }
    p.n_pg.emplace_back(np, ng);
  }
  if (auto f = report::parse_output_format(o.output, report::record_formats()); !f) return std::unexpected(f.error());
  if (o.no_db && !o.db_path.empty()) return fail(ErrorCode::kUsage, "--db and --no-db: give one, not both");
  if (o.ignore_eos && o.prompts.empty()) return fail(ErrorCode::kUsage, "--ignore-eos needs --prompts");
  if (!o.prompts.empty()) {
    // The suite's prompts set the tokens: -p/-n/-pg/-d have nothing to say.
    if (p.n_prompt != std::vector<int>{512} || p.n_gen != std::vector<int>{128} || !p.n_pg.empty()) {
      return fail(ErrorCode::kUsage, "--prompts with -p/-n/-pg: a suite's prompts set the tokens; give one or the other");
    }
    if (p.values("n_depth") != std::vector<std::string>{"0"}) {
      return fail(ErrorCode::kUsage, "--prompts with -d/--n-depth: a suite runs each prompt on an empty context");
    }
    p.suite = true;
  }
  const bool any_pp = std::any_of(p.n_prompt.begin(), p.n_prompt.end(), [](int v) { return v > 0; });
  const bool any_tg = std::any_of(p.n_gen.begin(), p.n_gen.end(), [](int v) { return v > 0; });
  if (!p.suite && !any_pp && !any_tg && p.n_pg.empty()) return fail(ErrorCode::kUsage, "-p/-n: both are 0, nothing to measure");
  // Combinations llama.cpp would refuse at the first run, refused before any runs.
  for (const std::string& tv : p.values("type_v")) {
    for (const std::string& fa : p.values("flash_attn")) {
      if (fa == "off" && quantized_kv_type(tv)) {
        return fail(ErrorCode::kUsage, "-ctv " + tv +
                                           " with -fa off: llama.cpp needs flash attention for a quantized V "
                                           "cache (use -fa on or auto, or -ctv f16)");
      }
    }
  }
  int most_tokens = 0;
  for (int np : p.n_prompt) most_tokens = std::max(most_tokens, np);
  for (int ng : p.n_gen) most_tokens = std::max(most_tokens, ng);
  for (const auto& [np, ng] : p.n_pg) most_tokens = std::max(most_tokens, np + ng);
  int deepest = 0;
  for (const std::string& d : p.values("n_depth")) deepest = std::max(deepest, std::stoi(d));
  for (const std::string& c : p.values("n_ctx")) {
    if (p.suite) break;  // a suite checks each prompt against -c once it is tokenized
    const int ctx = std::stoi(c);
    if (ctx > 0 && ctx < deepest + most_tokens) {
      return fail(ErrorCode::kUsage, "-c/--ctx-size " + c + ": smaller than a test needs (n_depth " +
                                         std::to_string(deepest) + " + " + std::to_string(most_tokens) +
                                         " tokens); give at least " + std::to_string(deepest + most_tokens) + " or 0");
    }
  }
  if (p.knobs["n_threads"].empty()) p.knobs["n_threads"] = {std::to_string(default_threads)};
  return {};
}

}  // namespace rigbench::cli
