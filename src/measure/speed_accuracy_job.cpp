#include "measure/speed_accuracy_job.h"

#include "fit/speed_points.h"
#include "hw/catalog.h"
#include "hw/published_results.h"

namespace rigbench::measure {

Result<SpeedAccuracy> speed_accuracy() {
  auto catalog = hw::load_catalog(hw::catalog_path());
  if (!catalog) return std::unexpected(catalog.error());
  auto rows = hw::load_published_results(hw::published_results_path());
  if (!rows) return std::unexpected(rows.error());
  const std::vector<fit::SpeedPoint> points = fit::published_points(*rows, *catalog);
  SpeedAccuracy a;
  a.tg = fit::leave_one_device_out(points, fit::Phase::kTg);
  a.pp = fit::leave_one_device_out(points, fit::Phase::kPp);
  a.tg_summary = fit::summarize_accuracy(a.tg);
  a.pp_summary = fit::summarize_accuracy(a.pp);
  return a;
}

}  // namespace rigbench::measure
