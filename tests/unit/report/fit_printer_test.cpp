// report: fit's and fit --rank's tables for a model that generates no tokens one by one (an
// encoder such as bge: fit::FitResult::generates false) against one that does.
#include "report/fit_printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "report/fit_ranking_printer.h"

namespace rigbench::report {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

std::string cell(const Table& t, std::size_t row, const std::string& key) {
  const auto& cols = t.columns();
  const auto at = std::find_if(cols.begin(), cols.end(), [&](const TableColumn& c) { return c.key == key; });
  EXPECT_NE(at, cols.end()) << key;
  return at == cols.end() ? "" : t.rows().at(row).at(static_cast<std::size_t>(at - cols.begin())).text;
}

bool has_note(const Table& t, const std::string& text) {
  return std::any_of(t.notes().begin(), t.notes().end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

fit::FitResult planned(bool generates, double tg_bound_tps) {
  fit::FitResult r;
  r.target.name = "RTX 3090";
  r.target.backend = "cuda";
  r.target.capacity_bytes = 24 * kGiB;
  r.verdict = fit::Verdict::kFits;
  r.generates = generates;
  r.tg_bound_tps = tg_bound_tps;
  return r;
}

TEST(FitPrinter, AnEncoderShowsNoTgBoundAndSaysWhyAnUnknownBoundStaysUnknown) {
  FitReport encoder, unknown, decoder;
  encoder.results = {planned(false, 0)};
  unknown.results = {planned(true, 0)};
  decoder.results = {planned(true, 123.45)};
  for (FitReport* r : {&encoder, &unknown, &decoder}) r->usd_per_gib = {-1};
  const Table e = fit_table(encoder), u = fit_table(unknown), d = fit_table(decoder);
  EXPECT_EQ(cell(e, 0, "tg_bound_tps"), "-");
  EXPECT_TRUE(has_note(e, "no tg bound: the model is not causal"));
  EXPECT_EQ(cell(u, 0, "tg_bound_tps"), "unknown");
  EXPECT_FALSE(has_note(u, "no tg bound"));
  EXPECT_EQ(cell(d, 0, "tg_bound_tps"), "<= 123.5");
  EXPECT_FALSE(has_note(d, "no tg bound"));
}

// Issue 37: a "does not fit" row still printed a tg bound (the speed of a run that cannot load).
TEST(FitPrinter, ADoesNotFitRowPrintsNoTgBound) {
  FitReport r;
  fit::FitResult no = planned(true, 42.0);
  no.verdict = fit::Verdict::kNo;
  fit::FitResult partial = planned(true, 17.31);
  partial.verdict = fit::Verdict::kPartial;
  r.results = {no, partial};
  r.usd_per_gib = {-1, -1};
  const Table t = fit_table(r);
  EXPECT_EQ(cell(t, 0, "verdict"), "does not fit");
  EXPECT_EQ(cell(t, 0, "tg_bound_tps"), "-");
  EXPECT_EQ(cell(t, 1, "tg_bound_tps"), "<= 17.3");
}

// CI: this machine's row with a tg bound and a prediction of six-figure rates drew a 123-column
// table; the prediction's interval goes under its mean, the table stays within 120 columns.
TEST(FitPrinter, APredictedRateWrapsItsIntervalUnderItsMeanToKeep120Columns) {
  FitReport r;
  fit::FitResult f = planned(true, 128921.1);
  f.target.name = "this machine";
  f.n_ctx = 131072;
  f.max_ctx = 131072;
  r.results = {f};
  r.usd_per_gib = {-1};
  fit::SpeedPrediction tg;
  tg.has_basis = true;
  tg.mean_tps = 115158, tg.low_tps = 100008, tg.high_tps = 122957;
  r.tg_predicted = {tg};
  const std::string md = markdown_table(fit_table(r));
  std::istringstream lines(md);
  bool interval_below = false;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(display_width(line), kMarkdownWidth) << line;
    interval_below = interval_below ||
                     (line.find("(100008-122957) |") != std::string::npos && line.find("115158") == std::string::npos);
  }
  EXPECT_TRUE(interval_below) << md;
  EXPECT_NE(md.find(" 115158 |\n"), std::string::npos) << md;  // the mean on the device's row
}

TEST(FitRankingPrinter, AnEncodersOptionsShowNoTgBoundInTheTableOrTheAnswer) {
  FitRankingReport r;
  r.model = "bge-small-en-v1.5";
  r.ranking.n_ctx = 512;
  fit::BuyOption o;
  o.device = "RTX 3090";
  o.kind = "gpu";
  o.results = {planned(false, 0)};
  o.verdict = fit::Verdict::kFits;
  o.n_ctx = 512;
  o.price_usd = 1499;
  r.ranking.ranked = {o};
  const Table t = fit_ranking_table(r);
  EXPECT_EQ(cell(t, 0, "tg_bound_tps"), "-");
  EXPECT_TRUE(has_note(t, "no tg bound: the model is not causal"));
  EXPECT_FALSE(has_note(t, "tg bound = bandwidth"));
  const std::string answer = buy_sentence(r);
  EXPECT_NE(answer.find("the cheapest catalog option that fits is RTX 3090, $1499"), std::string::npos) << answer;
  EXPECT_EQ(answer.find("tg bound"), std::string::npos) << answer;
}

// fit --rank price listed "Arc B580, partial offload ... USD/usable GiB 22.64" first while the
// sentence said "the lowest price per usable GiB is M3 Ultra 512GB's, $24.80": the sentence
// compares the options that hold the model whole, and says so.
TEST(FitRankingPrinter, ThePricePerGibSentenceSaysItComparesWholeFits) {
  FitRankingReport r;
  r.model = "Llama-3.1-70B Q4_K_M";
  r.ranking.n_ctx = 8192;
  auto option = [](const std::string& device, fit::Verdict v, double usd, double usable_gib) {
    fit::BuyOption o;
    o.device = device;
    o.kind = "gpu";
    o.verdict = v;
    o.n_ctx = 8192;
    o.price_usd = usd;
    o.usd_per_gib_usable = usd / usable_gib;
    o.usd_per_gib_total = usd / usable_gib;
    o.tg_bound_tps = 10;
    return o;
  };
  r.ranking.ranked = {option("Arc B580", fit::Verdict::kPartial, 249, 11),
                      option("RX 7900 XTX", fit::Verdict::kFits, 2400, 46),
                      option("M3 Ultra 512GB", fit::Verdict::kFits, 9499, 383)};
  const std::string answer = buy_sentence(r);
  EXPECT_NE(answer.find("the cheapest catalog option that fits is RX 7900 XTX, $2400"), std::string::npos) << answer;
  EXPECT_NE(
      answer.find("; of the options that hold it whole, the lowest price per usable GiB is M3 Ultra 512GB's, $24.80"),
      std::string::npos)
      << answer;
  EXPECT_NE(answer.find("with partial offload (layers in the host's RAM), one Arc B580 for $249"), std::string::npos)
      << answer;
  // The "does not fit" list broke "M2" / "Pro 32GB" across lines: each name stays whole.
  for (int i = 0; i < 12; ++i) r.ranking.not_fitting.push_back("M2 Pro " + std::to_string(16 + i) + "GB");
  std::ostringstream md;
  render(fit_ranking_table(r), OutputFormat::kMarkdown, md);
  std::istringstream lines(md.str());
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(display_width(line), 120u) << line;
    EXPECT_FALSE(line.ends_with(" M2") || line.ends_with(" M2 Pro")) << line;
  }
  EXPECT_NE(md.str().find("M2 Pro 27GB"), std::string::npos) << md.str();  // written with its spaces
  EXPECT_EQ(md.str().find("\u00a0"), std::string::npos) << md.str();
  std::ostringstream json;
  print_fit_ranking(r, OutputFormat::kJson, json);
  EXPECT_NE(json.str().find("M2 Pro 27GB"), std::string::npos);
  EXPECT_EQ(json.str().find("\u00a0"), std::string::npos) << json.str();
}

}  // namespace
}  // namespace rigbench::report
