// rigbench: the HTML report's section "Server latency against concurrency" (id "serve"):
// serve-bench runs' TTFT (solid) and TPOT (dashed) at p50, p90 and p99 against concurrency, a
// line per model, server and API, the capacity a concurrency sweep found marked (a triangle on
// its TTFT p99 line), beside a table of every run (throughput, goodput and the SLO's verdict,
// percentiles, a chat's later-turn TTFT and the server's cached prompt tokens, and where the
// run measured energy, J per output token and cost per Mtok). "" when no record is a
// serve-bench run with a completed request.
#pragma once

#include <span>
#include <string>

#include "core/record.h"
#include "report/html_parts.h"

namespace rigbench::report {

// Appends the section's chart spec to `charts` (a JSON array) and returns its HTML.
std::string serve_section_html(std::span<const RunRecord> records, html::Json& charts);

}  // namespace rigbench::report
