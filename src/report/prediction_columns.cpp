#include "report/prediction_columns.h"

#include <string>

#include "core/strings.h"

namespace rigbench::report {

namespace {

// A predicted rate: md "105 (88-125)" on the mean cell (shown), the bare number for csv and
// json; "-" where there is no row i, "no basis" without one.
TableCell predicted_cell(const std::vector<fit::SpeedPrediction>& p, std::size_t i, double fit::SpeedPrediction::*field,
                         bool shown) {
  if (i >= p.size()) return TableCell::absent();
  if (!p[i].has_basis) return TableCell::absent(shown ? "no basis" : "-");
  const double v = p[i].*field;
  if (!shown) return TableCell::number(v, 1);
  const bool spread = p[i].high_tps > p[i].low_tps;
  const std::string mean = format_fixed(v, 0);
  const std::string interval =
      spread ? "(" + format_fixed(p[i].low_tps, 0) + "-" + format_fixed(p[i].high_tps, 0) + ")" : "";
  TableCell cell = TableCell::number_text(v, spread ? mean + " " + interval : mean);
  // Where the table would pass 120 columns, the interval goes under its mean, each whole.
  if (spread) cell.pieces = {mean, interval};
  return cell;
}

}  // namespace

std::string prediction_basis(const std::vector<fit::SpeedPrediction>& tg, const std::vector<fit::SpeedPrediction>& pp,
                             std::size_t i) {
  std::string basis;
  if (i < tg.size()) basis += "tg: " + tg[i].basis;
  if (i < pp.size()) basis += std::string(basis.empty() ? "" : "; ") + "pp: " + pp[i].basis;
  return basis;
}

std::vector<TableColumn> prediction_columns(bool tg_wide_only) {
  return {{"tg_predicted_tps", "tg pred t/s", Align::kRight, tg_wide_only, false, /*wrap=*/true},
          {"tg_predicted_low_tps", "", Align::kRight, false, true},
          {"tg_predicted_high_tps", "", Align::kRight, false, true},
          {"pp512_predicted_tps", "pp512 pred t/s", Align::kRight, true, false, /*wrap=*/true},
          {"pp512_predicted_low_tps", "", Align::kRight, false, true},
          {"pp512_predicted_high_tps", "", Align::kRight, false, true},
          {"prediction_basis", "", Align::kLeft, false, true}};
}

std::vector<TableCell> prediction_cells(const std::vector<fit::SpeedPrediction>& tg,
                                        const std::vector<fit::SpeedPrediction>& pp, std::size_t i) {
  return {predicted_cell(tg, i, &fit::SpeedPrediction::mean_tps, true),
          predicted_cell(tg, i, &fit::SpeedPrediction::low_tps, false),
          predicted_cell(tg, i, &fit::SpeedPrediction::high_tps, false),
          predicted_cell(pp, i, &fit::SpeedPrediction::mean_tps, true),
          predicted_cell(pp, i, &fit::SpeedPrediction::low_tps, false),
          predicted_cell(pp, i, &fit::SpeedPrediction::high_tps, false),
          TableCell::str(prediction_basis(tg, pp, i))};
}

}  // namespace rigbench::report
