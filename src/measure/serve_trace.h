// rigbench: a request trace for `serve-bench --trace` (a recorded service's load, replayed):
// JSONL, one request a line, {"arrival_s": 0.25, "input_tokens": 812, "output_tokens": 64}:
// when it arrived (seconds, from any origin), its prompt and its answer lengths in tokens.
// Each request is sent at its arrival time after the first's (divided by --trace-scale: 2
// replays it at twice the rate), with a random prompt of its input length, asking for its
// output length (measure/serve_load.h random_prompts_of).
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::measure {

struct TraceRequest {
  double arrival_s = 0;   // seconds after the trace's first request (the file's times, shifted)
  int input_tokens = 0;   // >= 1
  int output_tokens = 0;  // >= 1
};

// Reads the trace at `path` (blank lines skipped). Errors, kUsage (a bad --trace: exit 2), one
// line: "--trace 'PATH': cannot open it", "--trace 'PATH': no requests", or "PATH:LINE: WHAT"
// for a line that is not a JSON object, lacks a key, holds a negative or non-finite time, a
// count below 1, or a time before the line before's (a trace is in the order it arrived).
Result<std::vector<TraceRequest>> read_trace(const std::string& path);

// The times requests are sent at, seconds after the counted run starts: each arrival divided
// by `scale` (> 0).
std::vector<double> trace_arrivals(const std::vector<TraceRequest>& trace, double scale);

// The trace's mean output length, tokens, rounded (a served record's tg<n>); 0 for no requests.
int trace_mean_output_tokens(const std::vector<TraceRequest>& trace);

}  // namespace rigbench::measure
