// rigbench: what one record gives each metric of a comparison (report/compare_metric.h): its
// values and the test they measure, the label of that test, which names the row it goes to.
// Pure functions of the record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/stats.h"
#include "report/compare_metric.h"

namespace rigbench::report {

// What one record gives a metric: its per-sample values and the test they measure.
struct MetricValues {
  // t/s per repetition (pp, tg), ms per repetition (TTFT); one value per run: J per tg
  // token, cost per Mtok, bytes allocated (memory)
  std::vector<double> samples;
  int n = 0;         // tokens of the test (pp, tg, TTFT's prompt; tg for energy and cost), or n_ctx (memory)
  int depth = 0;     // n_depth (0 for memory, whose n_ctx includes it)
  std::string test;  // "pp512", "tg128 @ d4096", "ttft pp512", "tg128 in EUR", "tg128 (stated)", "n_ctx 640"
  // A summary-only result (ThroughputResult::summary_only: llama-bench csv, sql): its
  // statistics, as the source stated them; `samples` is then empty.
  std::optional<Summary> stated;
  // Energy and cost: the record's doubts about its energy figures (EnergyInfo::flags).
  std::vector<std::string> flags;
  // A serve-bench run's server (server_label), the end of `test`; "" for an in-process run.
  // compare's md puts it in a legend, so that a served row's test stays short.
  std::string server;
};

// A served run's server as compare and the report name it: its software and short version,
// the API and the URL ("llama.cpp b7090-80fb11ac openai-completions http://127.0.0.1:8080";
// the API and the URL alone where the server did not say what it is).
std::string server_label(const ServerRun& s);

// What a served run's load was beyond its concurrency and rate, as its row's test names it
// ("prefix 256 on 50 %", "turns 3 think 2 s", "burst 0.5", "trace t.jsonl x2"): a shared prefix
// and a chat's later turns decide TTFT through the server's prompt cache. "" for plain random prompts.
std::string workload_text(const ServerRun& s);

// nullopt when the record holds no value of `metric` (a test that did not run, no memory breakdown).
// A serve-bench run's test names its load, its workload (a shared prefix, chat turns), the
// server and its API as well, so that runs of another load, workload or server are never
// pooled ("tg16 @ c4 prefix 256 on 50 % llama.cpp b7090 openai-completions http://127.0.0.1:8080").
std::optional<MetricValues> metric_values(const RunRecord& rec, Metric metric);

// What a run refused for memory (RunRecord::refused) would have measured of `metric`, without
// values: for kPp and kTg, the test of n_prompt or n_gen tokens at n_depth, so that its row's
// cell can say "won't fit"; nullopt for the other metrics or a test of no tokens.
std::optional<MetricValues> wont_fit_values(const RunRecord& rec, Metric metric);

// What of a record's results decides its rows (metric_values: which metrics it holds, their
// tokens, depth and test label; whether it was refused), apart from its setup: records of
// one setup (report/record_identities.h) and one results shape have the same rows. A byte
// signature (report/byte_signature.h): for equality within one process only.
std::string results_shape(const RunRecord& rec);

}  // namespace rigbench::report
