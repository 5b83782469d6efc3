// rigbench: RunRecord <-> JSON, the one serialized form of a record: `-o json`/`-o jsonl`
// print it, the database keeps it beside its columns, export writes it and import reads it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::store {

// JSON with keys in insertion order, so records read in the order of record.h.
using Json = nlohmann::ordered_json;

// The record as JSON; key names are RunRecord's field names (snake_case, units in names).
// Statistics appear flattened per test: pp/tg {n_tokens, n_samples, samples_ns, samples_tps,
// avg_tps, stddev_tps, median_tps, min_tps, max_tps}; ttft {n_samples, samples_ns, avg_ms,
// stddev_ms, median_ms, min_ms, max_ms}. A test that did not run is absent.
Json to_json(const RunRecord& rec);

// Parses a record. Errors: kInvalidInput naming the missing or mistyped key.
Result<RunRecord> from_json(const Json& j);

}  // namespace rigbench::store
