// rigbench: the report's what-to-buy answers (report/answers_html.h BuyAnswer), one per stored
// model, planned as `rigbench fit MODEL -c N --rank price` ranks the catalog. It reads the model
// files the records name (and writes a preset's header-only file to a temporary path), so the
// report command calls it and hands the answers to the HTML report, which does no I/O.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "fit/catalog_plan.h"
#include "report/answers_html.h"

namespace rigbench::report {

// What to buy for each stored model, in the order of the models' labels: its shape from its
// file at a stored path when that file is here and has the fingerprint that ran, else from the
// preset alike (same architecture, parameter count within 1 %, at its file type), said so; the
// catalog ranked by price at `ctx_size` (0: fit's default, the model's n_ctx_train from its
// shape or record, else the largest context it ran at), with the KV types, flash attention and
// batch sizes of the run of the largest context, -ngl auto. `catalog` is asked once, for the
// first model with a shape (fit::catalog_plan probes this machine's bandwidth for some catalogs).
// What fails (no file, another file, an unreadable catalog) is the answer's note, never an error.
std::vector<BuyAnswer> buy_answers(std::span<const RunRecord> records, int ctx_size,
                                   const std::function<Result<fit::CatalogPlan>()>& catalog);

}  // namespace rigbench::report
