// rigbench: a bench test's name, the one spelling every table, comparison and answer uses for
// a test's identity. A -pg test (pp and tg of the same repetitions: the tg phase runs after the
// prompt is in the KV cache) is a different measurement from a plain pp or tg test of the same
// token counts, so its phases are named apart: "pp512 (pg)", "tg128 (pg)", and at depth
// "tg128 (pg) @ d4096". Runs whose test names differ are never pooled nor ranked together.
// Pure: no I/O.
#pragma once

#include <string>

#include "core/record.h"

namespace rigbench {

// Whether `rec` is one bench -pg test: n_prompt and n_gen both > 0. A served run (serve-bench,
// RunRecord::server) is not: every request of it is a prompt and a generation, named by its load.
bool pp_tg_test(const RunRecord& rec);

// "pp512" / "tg128" (pp: prompt tokens, else generated tokens `n`), " (pg)" for a -pg test's
// phase, " @ d<depth>" at a depth > 0, as bench labels its rows.
std::string phase_test_name(bool pp, int n, bool pg, int n_depth);

}  // namespace rigbench
