// rigbench: the output of `rigbench fit --device all --rank ...` (fit/ranking.h): what to buy.
//   md     "model: NAME at n_ctx N; ranked by price (cheapest first)[, tg bound >= T t/s]", the
//          --vs sentence (the question asked, first), the table (rank, device, n_ctx, needed,
//          memory, usable GiB, tg bound t/s, USD, USD/GiB, USD/usable GiB; a partial-offload
//          option is "RTX 3090, partial offload" and its needed "(device)"), the answer
//          (buy_sentence), then notes (devices left out and why, what usable means, that the tg
//          bound is a bound, the host a multi-GPU price assumes)
//   csv    the table, every column (count, kind, verdict and host_usd included)
//   json   {"model", "model_path", "rank_by", "min_tps", "n_ctx" (as allocated: ranking.n_ctx), "sentence"
//          (buy_sentence), "options": [keyed as the csv header],
//          "not_fitting": [...], "dropped": [...], "left_out": [{"device", "reason"}] (catalog entries
//          not planned: CPU RAM), "vs": {a, b, memory_ratio, usable_ratio, usd_per_gib_total_ratio,
//          usd_per_gib_usable_ratio, sentence} or null, "notes"}
//   jsonl  one object per option
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fit/fit_report.h"
#include "fit/ranking.h"
#include "report/table.h"

namespace rigbench::report {

using FitRankingReport = fit::FitRankingReport;  // the data: fit/fit_report.h

Table fit_ranking_table(const FitRankingReport& r);
// The answer in one sentence: "For MODEL at n_ctx N, the cheapest catalog option that fits is X,
// ... (N: ranking.n_ctx, the context its table's rows are planned at, as llama.cpp allocates it),
// $P (tg bound B t/s); of the options that hold it whole, the lowest price per usable GiB is Y's,
// $U ($T per installed GiB)." (a partial offload's price per GiB is not comparable) ("it is
// also the lowest price per usable GiB, $U ..." when X is Y); when
// no fitting option has a price, the number that fit and the highest tg bound; a single GPU with
// partial offload cheaper than that is named after it ("; with partial offload (layers in the
// host's RAM), one RTX 3090 for $1499 (tg bound 2.1 t/s)"); when none fits
// (or reaches --min-tps), "No catalog option fits MODEL at n_ctx N ...".
std::string buy_sentence(const FitRankingReport& r);
// The cheapest priced option of `r` that holds the model whole (no partial offload); nullptr when none.
const fit::BuyOption* cheapest_fit(const fit::Ranking& r);
// options.wide: md shows the --wide columns (the predicted tg and pp) too.
void print_fit_ranking(const FitRankingReport& r, OutputFormat format, std::ostream& out, RenderOptions options = {});

}  // namespace rigbench::report
