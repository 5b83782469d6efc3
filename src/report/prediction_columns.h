// rigbench: the predicted tg and pp columns (fit/speed_prediction.h) beside a tg bound, in fit's
// device table and fit --rank's table: md "tg pred t/s" as "105 (88-125)" (the mean, whole t/s,
// and its 90 % interval) and, with --wide, "pp512 pred t/s"; csv and json the mean, low and high
// of each (tg_predicted_tps, tg_predicted_low_tps, ..., pp512_predicted_high_tps) and the
// basis (prediction_basis: "tg: <basis>; pp: <basis>").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fit/speed_prediction.h"
#include "report/table.h"

namespace rigbench::report {

// "tg: <basis>; pp: <basis>" of row i, "" where neither has one.
std::string prediction_basis(const std::vector<fit::SpeedPrediction>& tg, const std::vector<fit::SpeedPrediction>& pp,
                             std::size_t i);

// The seven columns, in that order. tg_wide_only: md shows "tg pred t/s" only with --wide too.
std::vector<TableColumn> prediction_columns(bool tg_wide_only);

// Row i's seven cells: "-" where `tg`/`pp` have no row i, "no basis" (md) where it has none.
std::vector<TableCell> prediction_cells(const std::vector<fit::SpeedPrediction>& tg,
                                        const std::vector<fit::SpeedPrediction>& pp, std::size_t i);

}  // namespace rigbench::report
