#include "report/speed_accuracy_printer.h"

#include "core/strings.h"

namespace rigbench::report {

namespace {

void add_rows(Table& t, const std::vector<fit::HeldOut>& rows, const char* phase) {
  for (const fit::HeldOut& h : rows) {
    const auto& p = h.predicted;
    t.add_row({TableCell::str(phase), TableCell::str(h.point.device), TableCell::str(h.point.device_class),
               TableCell::str(h.point.model), TableCell::number(h.point.tokens_per_s, 2),
               p.has_basis ? TableCell::number(p.mean_tps, 2) : TableCell::absent("no basis"),
               p.has_basis ? TableCell::number(p.low_tps, 2) : TableCell::absent(),
               p.has_basis ? TableCell::number(p.high_tps, 2) : TableCell::absent(),
               p.has_basis ? TableCell::number_text(h.error, format_fixed(100 * h.error, 1) + " %")
                           : TableCell::absent(),
               p.has_basis ? TableCell::boolean(h.covered, h.covered ? "yes" : "no") : TableCell::absent(),
               TableCell::str(h.point.source)});
  }
}

std::string summary(const char* phase, const fit::AccuracySummary& s) {
  // No prediction: no error to state (it read "median |error| 0.0 % ... cover 0.0 %").
  if (s.n_predicted == 0)
    return std::string(phase) + ": none of " + std::to_string(s.n_points) +
           " held-out points predicted (no other device of its class holds a basis), so no error or coverage to state";
  return std::string(phase) + ": " + std::to_string(s.n_predicted) + " of " + std::to_string(s.n_points) +
         " held-out points predicted; median |error| " + format_fixed(100 * s.median_abs_error, 1) +
         " %, 90th percentile " + format_fixed(100 * s.p90_abs_error, 1) + " %, 90 % intervals cover " +
         format_fixed(100 * s.coverage, 1) + " %";
}

}  // namespace

Table speed_accuracy_table(const measure::SpeedAccuracy& a) {
  Table t({{"phase", "phase"},
           {"device", "device"},
           {"device_class", "class"},
           {"model", "model"},
           {"measured_tps", "measured t/s", Align::kRight},
           {"predicted_tps", "predicted t/s", Align::kRight},
           {"predicted_low_tps", "low", Align::kRight},
           {"predicted_high_tps", "high", Align::kRight},
           {"error", "error", Align::kRight},
           {"covered", "in 90 %"},
           {"source_url", "", Align::kLeft, false, true}});
  add_rows(t, a.tg, "tg");
  add_rows(t, a.pp, "pp");
  t.add_note(summary("tg", a.tg_summary));
  t.add_note(summary("pp", a.pp_summary));
  t.add_note("leave-one-device-out over data/published_llama_bench.jsonl: each point predicted from the other "
             "devices of its class (kind/backend), its own device left out; error = predicted / measured - 1");
  return t;
}

void print_speed_accuracy(const measure::SpeedAccuracy& a, OutputFormat format, std::ostream& out) {
  render(speed_accuracy_table(a), format, out);
}

}  // namespace rigbench::report
