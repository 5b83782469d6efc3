// rigbench: in-process against served, the section of `compare` that puts `bench` and
// `serve-bench` of one model side by side (llama.cpp issue #25121: "llama-bench always higher
// than llama-server"). A served run pairs with the in-process runs of the same machine and
// model identity (report/identities.h: a local llama-server's runs carry its file's identity,
// measure/serve_job.h ServeTarget::model_file) and the same output length, when it is one
// request at a time of random prompts: concurrency 1, a closed loop, one turn, no shared
// prefix and no trace. Pure: reads the records given, keeps nothing.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/record_identities.h"
#include "report/table.h"

namespace rigbench::report {

struct ServedOverhead {
  std::string machine, model;  // the identities' labels
  std::string test;            // "tg128"
  std::string server;          // "llama.cpp b7090-80fb11ac openai-completions http://127.0.0.1:8080"
  // t/s: the in-process tg mean (bench's decode-only rate; of several configurations the best;
  // tune's trials only where no other in-process run is there)
  // and the served run's tg (its output t/s at c=1: every output token over the run's wall time,
  // so prompt processing and HTTP are inside it), the mean over the served records of the pair.
  double in_process_tps = std::nan("");
  double served_tps = std::nan("");
  double served_client_tg_tps = std::nan("");  // the client's tg after the first token (ServerRun::client_tg_tps)
  // (in-process - served) / in-process, %: > 0 the server is slower. Like for like, the decode
  // alone: bench's tg against the served tg after the first token (`decode_overhead_pct`);
  // per whole request, the prompt, the first token and HTTP inside: `overhead_pct`.
  double overhead_pct = std::nan("");
  double decode_overhead_pct = std::nan("");
  // ms, medians: bench's TTFT of a prompt of the served run's length, and the served TTFT; NaN
  // when bench ran no such prompt.
  double in_process_ttft_ms = std::nan("");
  double served_ttft_ms = std::nan("");
};

// Every pair of `records` (ids made from them), in the order of the served runs' first records.
std::vector<ServedOverhead> served_overheads(std::span<const RunRecord> records, const RecordIdentities& ids);

// The table of `pairs`, under "In-process against served", with a footer per pair: "MODEL on
// MACHINE, TEST: the server's decode (SERVER) is P % slower than in-process; per whole request
// Q % ..." (or faster). compare prints it in md, the report as a section of its own.
Table served_overhead_table(const std::vector<ServedOverhead>& pairs);

// compare -o json's "served_overhead": the table's rows as objects keyed by column (machine,
// model, test, server, in_process_tps, served_client_tg_tps, decode_overhead_pct, served_tps,
// overhead_pct, in_process_ttft_ms, served_ttft_ms; null where NaN).
nlohmann::ordered_json served_overhead_json(const std::vector<ServedOverhead>& pairs);

}  // namespace rigbench::report
