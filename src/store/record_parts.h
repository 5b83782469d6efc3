// rigbench: a stored record in parts, so that a reader of many records parses what repeats
// once. The database keeps each record's JSON whole (`runs.record_json`, what export and
// import read) and, beside it, these parts (schema version 4): records of one configuration
// share their setup text, and records that measured no energy nor cost share their figures
// text too, so `compare` and `report` parse one JSON per distinct text and take each
// record's own figures from the columns and the samples table (store/sqlite_store.cpp).
#pragma once

#include <string>

#include "core/record.h"
#include "core/status.h"
#include "store/record_json.h"

namespace rigbench::store {

struct RecordParts {
  // JSON object: what the run was, the identity of a comparison cell: schema_version,
  // machine, build, model, params, tags, source_fields (when the record has them).
  std::string setup;
  // JSON object: what the run gave, less what varies per record and lies elsewhere:
  // results (per test n_tokens and an empty samples_ns: the samples are the samples
  // table's and the statistics are recomputed from them; a summary-only result keeps its
  // stated statistics), memory.buffers (peak_rss_bytes is a column), energy without notes,
  // meters, domains and power trace, cost without notes, interrupted, refused, failed.
  std::string figures;
  // JSON array of [t_s, w] pairs, the energy's power trace; "" when it has none.
  std::string power_trace;
};

// The parts of `record`, a record's JSON as to_json() writes it (or as an older rigbench
// stored it: absent keys are left out of the parts as from_json() reads them: optional).
RecordParts split_record(const Json& record);

// The record that `setup` and `figures` (parsed RecordParts texts) describe: record_id and
// test_time empty, peak_rss_bytes 0, results without samples (summary-only ones as stated),
// no power trace, no energy notes, meters or domains, no cost notes, no roofline, no
// devices_used. Errors: from_json's (kInvalidInput).
Result<RunRecord> join_parts(const Json& setup, const Json& figures);

}  // namespace rigbench::store
