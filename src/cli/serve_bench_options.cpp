#include "cli/serve_bench_options.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "cli/args.h"
#include "cli/progress_flags.h"
#include "cli/record_flags.h"
#include "measure/serve_load.h"

namespace rigbench::cli {

namespace {

constexpr long kMaxConcurrency = 100000;  // --concurrency: requests in flight
constexpr long kMaxTokens = 1L << 24;     // -p, -n: as bench's

// The flags that only generation uses, refused with --embeddings: "" when none was given, else
// the usage error's text.
std::string embeddings_refusal(const ServeBenchOptions& o) {
  const auto refused = [](const char* flag) {
    return std::string(flag) + ": a generation setting; --embeddings measures latency per text and texts/s per -b";
  };
  if (o.rate > 0) return refused("--rate");
  if (o.burstiness != 1) return refused("--burstiness");
  if (o.prefix_tokens > 0) return refused("--prefix-tokens");
  if (o.prefix_share) return refused("--prefix-share");
  if (o.turns > 1) return refused("--turns");
  if (!o.prompts_file.empty()) return refused("--prompts") + " (give the texts with --queries)";
  if (!o.trace.empty()) return refused("--trace");
  if (!o.slo.empty()) return refused("--slo");
  if (!o.capacity.empty()) return refused("--capacity");
  if (!o.save_responses.empty()) return refused("--save-responses");
  if (o.duration_s > 0) return refused("--duration-seconds");
  if (o.num_requests > 0) return refused("--num-requests") + " (the query set times -r sets the count)";
  return "";
}

}  // namespace

void add_serve_bench_options(CLI::App& cmd, ServeBenchOptions& o) {
  cmd.add_option("url", o.url, "the server's base URL, e.g. http://127.0.0.1:8080")->required();
  cmd.add_option("--api", o.api,
                 "API: openai (= openai-completions, as vLLM's --backend openai), openai-completions, openai-chat, "
                 "ollama (= ollama-generate), "
                 "ollama-chat; default: detected (openai-completions or ollama-generate)");
  cmd.add_option("-m,--model", o.models,
                 "the server's model names, one run after another, list (a,b,c; default: the one it has loaded)")
      ->delimiter(',');
  cmd.add_option("--api-key", o.api_key, "bearer key (default: $OPENAI_API_KEY); never printed or stored");
  cmd.add_option("--concurrency", o.concurrency,
                 "requests in flight: one run per value, list (1,4,16); with --trace the most in flight (default " +
                     std::to_string(kTraceInFlight) + ")")
      ->delimiter(',')
      ->each([&o](const std::string&) { o.concurrency_given = true; })
      ->check(int_range(1, kMaxConcurrency))
      ->capture_default_str();
  cmd.add_option("--rate", o.rate,
                 "requests per second (> 0), open-loop arrivals (at most --concurrency in flight); inf or without it, "
                 "a closed loop of --concurrency workers (vLLM's --request-rate inf)")
      ->check(range(1e-6, std::numeric_limits<double>::infinity()));
  cmd.add_option("--burstiness", o.burstiness,
                 "--rate's arrival gaps: gamma-distributed with this shape (vLLM's --burstiness): 1 Poisson, below 1 "
                 "burstier, inf even gaps; seeded by --seed")
      ->check(range(1e-3, std::numeric_limits<double>::infinity()))
      ->capture_default_str();
  cmd.add_option("--prefix-tokens", o.prefix_tokens,
                 "a shared prefix (a system prompt) of this many random tokens before every random prompt, the same "
                 "for every request and run of the job (the server's prompt cache may serve it)")
      ->check(int_range(0, kMaxTokens))
      ->capture_default_str();
  cmd.add_option_function<double>(
         "--prefix-share", [&o](const double& v) { o.prefix_share = v; },
         "--prefix-tokens: the share of requests that carry the prefix, 0..1 (default 1: every one); which ones "
         "is drawn from --seed")
      ->check(range(0.0, 1.0));
  cmd.add_option("--turns", o.turns,
                 "multi-turn chats: each of --concurrency sessions sends this many requests, each re-sending its "
                 "history (prompts and answers) before a new prompt (text prompts; closed loop)")
      ->check(int_range(1, 1000))
      ->capture_default_str();
  cmd.add_option("--think-time", o.think_time_s, "--turns: seconds between an answer and the session's next turn")
      ->check(range(0, 3600))
      ->capture_default_str();
  cmd.add_option("--num-requests", o.num_requests,
                 "requests counted per run (default: 8 per concurrent request, at least 16)")
      ->check(int_range(1, measure::kMaxRequestsPerRun));
  cmd.add_option("--duration-seconds,--duration", o.duration_s,
                 "seconds per run (with --num-requests: the first to end)")
      ->check(range(0, 7 * 86400));
  cmd.add_option("--warmup", o.warmup, "requests before each run, one at a time, not counted")
      ->check(int_range(0, 1000))
      ->capture_default_str();
  cmd.add_flag("--no-warmup", o.no_warmup, "no warmup request (as --warmup 0; llama-bench's spelling)");
  cmd.add_option("-p,--n-prompt", o.n_prompt, "random prompt tokens per request")
      ->check(int_range(1, kMaxTokens))
      ->capture_default_str();
  cmd.add_option("-n,--n-gen", o.n_gen, "output tokens asked for per request (ignore_eos, min_tokens, num_predict)")
      ->check(int_range(1, kMaxTokens))
      ->capture_default_str();
  cmd.add_option("--prompts", o.prompts_file,
                 "JSONL prompts instead of random ones: {\"prompt\": ...} or {\"messages\": [...]}, \"max_tokens\"; "
                 "builtin = bench's built-in prompt suite");
  cmd.add_option("--trace", o.trace,
                 "JSONL trace of requests to replay, one a line: {\"arrival_s\": 0.25, \"input_tokens\": 812, "
                 "\"output_tokens\": 64}; each sent at its time after the first's with a random prompt of its length");
  cmd.add_option("--trace-scale", o.trace_scale, "--trace: replay it this many times faster (its times divided)")
      ->check(range(1e-6, 1e6))
      ->capture_default_str();
  cmd.add_option("--slo", o.slo,
                 "service-level objectives: per request for goodput (ttft_ms=500,tpot_ms=50), or percentiles of a run "
                 "for --capacity (ttft_p95_ms=2000,tpot_p95_ms=100,e2e_p99_ms=8000)");
  cmd.add_option("--capacity", o.capacity,
                 "find the largest load that meets --slo, by concurrency or by rate (requests/s, from --rate or 1, "
                 "at most --concurrency in flight): ramp x2, then bisect; ends early when the server saturates")
      ->check(CLI::IsMember({"concurrency", "rate"}));
  cmd.add_option("--capacity-max", o.capacity_max, "--capacity: the largest load the ramp tries")
      ->check(range(1, kMaxConcurrency))
      ->capture_default_str();
  cmd.add_option("--timeout-seconds", o.timeout_s, "a request's time limit, and the longest wait for a byte")
      ->check(range(0.001, 7 * 86400))
      ->capture_default_str();
  cmd.add_option_function<uint64_t>(
      "--seed", [&o](const uint64_t& v) { o.seed = v; },
      "seed of the random prompts and arrivals (default: a fresh one each invocation, printed; each run of the job "
      "mixes in its model and concurrency, so no run re-sends another's prompts)");
  cmd.add_option("--save-responses", o.save_responses,
                 "write each counted request's prompt and answer to this JSONL file, with its record_id (by "
                 "default no prompt or answer is kept, only counts and timings; the API key never is)");
  cmd.add_flag("--no-ignore-eos", o.no_ignore_eos, "let the model stop early (do not send ignore_eos/min_tokens)");
  cmd.add_flag("--embeddings", o.embeddings,
               "time the embeddings endpoint (/v1/embeddings, Ollama's /api/embed) as `rigbench embed` does: "
               "latency per text, texts/s per -b (json/jsonl: the records)");
  cmd.add_option("--queries", o.queries, "--embeddings: the texts, embed's format (default: its built-in set)");
  cmd.add_option("-b,--batch-size", o.batch_sizes, "--embeddings: texts per request in the throughput sweep, list")
      ->delimiter(',')
      ->check(int_range(1, 1 << 20))
      ->capture_default_str();
  cmd.add_option("-r,--repetitions", o.repetitions, "--embeddings: passes over the query set")
      ->check(int_range(1, 1000000))
      ->capture_default_str();
  cmd.add_option("-o,--output", o.output, "output format: md, csv, json or jsonl")->capture_default_str();
  cmd.add_flag("--wide", o.wide, "every column in the md table (every percentile, server timings)");
  add_record_flags(cmd, o.db_path, o.no_db, o.tags, o.machine);
  add_progress_flags(cmd, o.progress, o.no_progress);
  cmd.add_option("--energy", o.energy,
                 "measure energy with bench's meters (the server must run on this machine): auto or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str();
  cmd.add_option("--idle-seconds", o.idle_s, "seconds of idle baseline before each run (the server idle, model loaded)")
      ->check(range(0.0, 3600.0))
      ->capture_default_str();
  cmd.add_option("--watts", o.watts, "a constant power you state, W (when no meter can read it)")
      ->check(range(0.0, 100000.0));
  cmd.add_option("--idle-watts", o.cost.idle_watts, "the idle power you state, W (replaces the idle window)")
      ->check(range(0.0, 100000.0));
  cmd.add_option("--power-log", o.power_log, "CSV log (timestamp,watts) of a wall meter covering the run");
  cmd.add_option("--estimate-power", o.estimate_tdp_w, "estimate power as TDP x CPU utilization, with this TDP in W")
      ->check(range(1.0, 10000.0));
  add_price_flags(cmd, o.cost);
}

Result<ServeBenchFlags> check_serve_bench_options(ServeBenchOptions& opts) {
  ServeBenchFlags out;
  if (opts.concurrency.empty()) return fail(ErrorCode::kUsage, "--concurrency: give at least one value");
  // The numbers' ranges are checked as the flags are parsed (int_range, range: one message shape).
  if (opts.no_warmup) opts.warmup = 0;
  auto progress_shown = show_progress(opts.progress, opts.no_progress, isatty(STDERR_FILENO) != 0);
  if (!progress_shown) return std::unexpected(progress_shown.error());
  out.show_progress = *progress_shown;
  auto slo = measure::parse_slo(opts.slo);
  if (!slo) return std::unexpected(slo.error());
  out.slo = *slo;
  if (!opts.api.empty()) {
    out.forced = net::parse_api(opts.api);
    if (!out.forced) {
      return fail(ErrorCode::kUsage, "--api '" + opts.api +
                                         "': use openai, openai-chat, openai-completions, ollama, ollama-generate or "
                                         "ollama-chat");
    }
  }
  auto url = net::parse_url(opts.url);
  if (!url) return std::unexpected(url.error());
  out.url = *url;
  const auto format = report::parse_output_format(opts.output);
  if (!format) return std::unexpected(format.error());
  out.format = *format;
  out.client.api_key = opts.api_key;
  if (out.client.api_key.empty()) {
    if (const char* env = std::getenv("OPENAI_API_KEY")) out.client.api_key = env;
  }
  out.client.timeout_s = opts.timeout_s;
  out.client.connect_timeout_s = std::min(10.0, opts.timeout_s);
  if (opts.embeddings) {
    if (const std::string why = embeddings_refusal(opts); !why.empty()) return fail(ErrorCode::kUsage, why);
  }
  if (opts.burstiness != 1 && !(opts.rate > 0 && std::isfinite(opts.rate)) && opts.capacity != "rate") {
    return fail(ErrorCode::kUsage, "--burstiness: shapes --rate's arrival gaps; give --rate R (requests/s)");
  }
  if (opts.turns > 1 && ((opts.rate > 0 && std::isfinite(opts.rate)) || opts.capacity == "rate")) {
    return fail(ErrorCode::kUsage, "--turns: sessions are a closed loop of --concurrency users; leave out --rate");
  }
  if (opts.think_time_s > 0 && opts.turns <= 1) {
    return fail(ErrorCode::kUsage, "--think-time: the pause between a session's turns; give --turns N (N > 1)");
  }
  if (opts.prefix_tokens > 0 && !opts.prompts_file.empty()) {
    return fail(ErrorCode::kUsage, "--prefix-tokens: a prefix of random prompts; a --prompts file holds its own");
  }
  if (!opts.trace.empty()) {
    // The trace sets the arrivals and the lengths: a second source of either is refused.
    using Given = std::pair<bool, const char*>;
    for (const auto& [given, flag] :
         {Given{opts.rate > 0, "--rate"}, Given{opts.burstiness != 1, "--burstiness"}, Given{opts.turns > 1, "--turns"},
          Given{!opts.capacity.empty(), "--capacity"}, Given{!opts.prompts_file.empty(), "--prompts"}}) {
      if (given) return fail(ErrorCode::kUsage, std::string(flag) + ": --trace sets the arrivals and the lengths");
    }
    if (!opts.concurrency_given) opts.concurrency = {kTraceInFlight};
  } else if (opts.trace_scale != 1) {
    return fail(ErrorCode::kUsage, "--trace-scale: scales a --trace; give --trace FILE");
  }
  if (opts.prefix_share && opts.prefix_tokens <= 0) {
    return fail(ErrorCode::kUsage, "--prefix-share: the share of requests carrying --prefix-tokens; give --prefix-tokens N");
  }
  if (!opts.capacity.empty()) {
    if (!out.slo.any()) {
      return fail(ErrorCode::kUsage, "--capacity: give the service level with --slo, e.g. ttft_p95_ms=2000,tpot_p95_ms=100");
    }
    measure::CapacityOptions c;
    c.by = opts.capacity == "rate" ? measure::CapacityBy::kRate : measure::CapacityBy::kConcurrency;
    c.start = c.by == measure::CapacityBy::kRate && opts.rate > 0 && std::isfinite(opts.rate) ? opts.rate : 1;
    c.max = opts.capacity_max;
    if (!std::isnan(out.slo.ttft_ms)) c.min_ttft_rise_ms = out.slo.ttft_ms / 20;
    if (c.start > c.max) return fail(ErrorCode::kUsage, "--capacity-max: below the first load (--rate)");
    out.capacity = c;
  }
  return out;
}

}  // namespace rigbench::cli
