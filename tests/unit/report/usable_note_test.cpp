// "usable" (the memory a model can use on a device) is computed once (fit::usable_bytes) and said
// once (fit::usable_definition): fit's table, fit --rank's and the devices listing computed it and
// defined it each in their own words (the listing subtracted the reserve itself; the three notes
// named different cases, and --rank "1 GiB" where the others said "1.00 GiB").
#include <gtest/gtest.h>

#include <algorithm>
#include <variant>

#include "fit/usable.h"
#include "report/fit_printer.h"
#include "report/fit_ranking_printer.h"
#include "report/listings.h"

namespace rigbench::report {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

// Whether one of `t`'s notes begins with fit's definition of usable.
bool defines_usable(const Table& t) {
  const std::string definition = fit::usable_definition();
  return std::any_of(t.notes().begin(), t.notes().end(),
                     [&](const std::string& n) { return n.rfind(definition, 0) == 0; });
}

TEST(Usable, IsWhatTheDeviceReportsLessLlamaCppsFitReserve) {
  EXPECT_EQ(fit::usable_bytes(24 * kGiB), 23 * kGiB);
  EXPECT_EQ(fit::usable_bytes(kGiB / 2), 0u);
  EXPECT_EQ(fit::usable_bytes(8 * kGiB, 2 * kGiB), 6 * kGiB);
  fit::Target t;
  t.capacity_bytes = 24 * kGiB;
  EXPECT_EQ(t.usable_bytes(), fit::usable_bytes(24 * kGiB));
  EXPECT_EQ(fit::usable_definition(),
            "usable = the memory llama.cpp's device reports (total RAM for a CPU, free memory for this machine's GPU "
            "and an rpc-server, the Metal working set on Apple, the GPU share of a unified system, the driver's total "
            "where it falls short of the card's) less the 1.00 GiB that llama.cpp's --fit keeps free (--fit-target)");
}

TEST(Usable, EveryTableWithAUsableColumnDefinesItInTheSameWords) {
  hw::CatalogDevice card;
  card.name = "H200";
  card.kind = "gpu";
  card.backend = "cuda";
  card.memory_bytes = 141 * kGiB;
  card.reported_memory_bytes = 143771ull << 20;  // the driver's total, short of 141 GiB
  const Table devices = devices_table({card}, "devices.json");
  EXPECT_TRUE(defines_usable(devices));
  const auto& cols = devices.columns();
  const auto usable_col = std::find_if(cols.begin(), cols.end(), [](const TableColumn& c) { return c.key == "usable_bytes"; });
  ASSERT_NE(usable_col, cols.end());
  const TableCell& cell = devices.rows()[0][static_cast<std::size_t>(usable_col - cols.begin())];
  EXPECT_EQ(std::get<uint64_t>(cell.value), fit::usable_bytes(card.visible_bytes()));

  FitReport fit_report;
  fit::FitResult r;
  r.target.name = "H200";
  r.target.backend = "cuda";
  r.target.capacity_bytes = card.visible_bytes();
  fit_report.results = {r};
  fit_report.usd_per_gib = {-1};
  EXPECT_TRUE(defines_usable(fit_table(fit_report)));

  FitRankingReport ranking;
  ranking.model = "m";
  EXPECT_TRUE(defines_usable(fit_ranking_table(ranking)));
}

}  // namespace
}  // namespace rigbench::report
