// rigbench: the table of embedding records (`rigbench embed`'s md and csv, and the embedding
// section of `compare` and the HTML report): per record one latency row (p50/p95/p99 ms of
// single queries at batch 1) and one row per batch size (texts/s and tokens/s, mean ± sd).
// Records without an embedding result are skipped.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/table.h"

namespace rigbench::report {

// Columns: machine, model, pooling, threads, test ("latency b1" or "batch N"), p50/p95/p99 ms,
// texts/s, t/s; keys machine, model, pooling, n_threads, test, batch_size, latency_p50_ms,
// latency_p90_ms (data only), latency_p95_ms, latency_p99_ms, n_samples (data only),
// texts_per_s, stddev_texts_per_s (data only), avg_tps, stddev_tps (data only). Notes, once
// per run: its noise notes (a busy machine, steal, ...) and, for -r auto, a stop at --max-time
// or the cap before every phase's interval was within the target.
Table embedding_table(std::span<const RunRecord> records);

// serve-bench --embeddings's notes under that table: one per record whose loaded window was
// measured, "MODEL @ cN: J per input token, J per text, W loaded, W idle (method)", and its
// cost per Mtok of input at the price when priced. `texts[i]`: the texts records[i]'s counted
// requests embedded (0: no J per text).
void add_serve_embed_notes(Table& table, std::span<const RunRecord> records, std::span<const int64_t> texts);

// The HTML report's section "Embeddings" (id "embeddings"): the same table as HTML, with what
// its rows mean; "" when no record has an embedding result.
std::string embedding_section_html(std::span<const RunRecord> records);

// True when any record has an embedding result.
bool has_embeddings(std::span<const RunRecord> records);

}  // namespace rigbench::report
