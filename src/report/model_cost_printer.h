// rigbench: the output of `rigbench cost --per-model` (cost::ModelCosts): one row per model
// that one machine ran, cheapest first, with the figures behind each cost.
//   md     "cost per Mtok on MACHINE: ..." (price, utilization, what is sorted), the table
//          (model, params, t/s, W, idle W, J/tok, [J/tok at u], CUR/Mtok, [CUR/Mtok at u], power),
//          the sentence ("The cheapest is not the smallest: ..."), then the notes
//   csv    the table, every column (record_id and currency included)
//   json   {"machine", "currency", "price_per_kwh", "price_source", "utilization", "sorted_by",
//          "sentence", "cheapest_is_smallest", "models": [one object per row, keyed as the csv header]}
//   jsonl  one object per model
// Money is in `currency`, never in a key.
#pragma once

#include <ostream>

#include "cost/model_costs.h"
#include "report/table.h"

namespace rigbench::report {

Table model_costs_table(const cost::ModelCosts& costs, const cost::CostInputs& shared);
void print_model_costs(const cost::ModelCosts& costs, const cost::CostInputs& shared, OutputFormat format,
                       std::ostream& out);

}  // namespace rigbench::report
