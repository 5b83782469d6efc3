// What to buy (fit/ranking.h): options ordered by price, tg bound or USD per usable GiB, the
// --min-tps cut, and --vs on the second study's pair: an RTX 5090 ($1,999, 32 GiB) against a
// Mac Studio M3 Ultra 512 GB ($9,499): "16x the capacity at 3.4x lower cost per GB"
// ($62.47 vs $18.55 per GiB).
#include <gtest/gtest.h>

#include "fit/host_cost.h"
#include "fit/ranking.h"

namespace rigbench::fit {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

BuyOption option(const std::string& name, int count, double price, uint64_t memory_gib, uint64_t usable_gib, double tps,
                 Verdict verdict = Verdict::kFits) {
  BuyOption o;
  o.device = name;
  o.count = count;
  o.verdict = verdict;
  o.tg_bound_tps = tps;
  o.total_memory_bytes = memory_gib * kGiB;
  o.usable_memory_bytes = usable_gib * kGiB;
  if (price > 0) {
    o.price_usd = price;
    o.usd_per_gib_total = price / memory_gib;
    o.usd_per_gib_usable = price / usable_gib;
  }
  return o;
}

std::vector<std::string> names(const Ranking& r) {
  std::vector<std::string> v;
  for (const BuyOption& o : r.ranked) v.push_back((o.count > 1 ? std::to_string(o.count) + "x " : "") + o.device);
  return v;
}

std::vector<BuyOption> options() {
  return {option("RTX 3090", 2, 2998, 48, 45, 20.1), option("M3 Ultra 512GB", 1, 9499, 512, 383, 17.5),
          option("H100 SXM", 1, 0, 80, 78, 80.0), option("RTX 5090", 2, 3998, 64, 61, 38.0),
          option("DGX Spark", 1, 3999, 128, 127, 6.0)};
}

TEST(FitRanking, ByPriceCheapestFirstUnpricedLast) {
  const Ranking r = rank_options(options(), {}, RankBy::kPrice, 0);
  EXPECT_EQ(names(r),
            (std::vector<std::string>{"2x RTX 3090", "2x RTX 5090", "DGX Spark", "M3 Ultra 512GB", "H100 SXM"}));
}

TEST(FitRanking, ByTgBoundAndByUsablePrice) {
  EXPECT_EQ(names(rank_options(options(), {}, RankBy::kTps, 0)),
            (std::vector<std::string>{"H100 SXM", "2x RTX 5090", "2x RTX 3090", "M3 Ultra 512GB", "DGX Spark"}));
  // USD per usable GiB: Spark 31.5, M3 Ultra 24.8, 3090s 66.6, 5090s 65.5
  EXPECT_EQ(names(rank_options(options(), {}, RankBy::kUsablePrice, 0)),
            (std::vector<std::string>{"M3 Ultra 512GB", "DGX Spark", "2x RTX 5090", "2x RTX 3090", "H100 SXM"}));
}

TEST(FitRanking, MinTpsKeepsTheOptionsWhoseBoundReachesIt) {
  const Ranking r = rank_options(options(), {"RTX 4070 (up to 8)"}, RankBy::kPrice, 18);
  EXPECT_EQ(names(r), (std::vector<std::string>{"2x RTX 3090", "2x RTX 5090", "H100 SXM"}));
  EXPECT_EQ(r.not_fitting, (std::vector<std::string>{"RTX 4070 (up to 8)"}));
  EXPECT_EQ(r.dropped,
            (std::vector<std::string>{"M3 Ultra 512GB: tg bound 17.5 < 18 t/s", "DGX Spark: tg bound 6.0 < 18 t/s"}));
}

TEST(FitRanking, VsTheSecondStudysPair) {
  // Usable: 3/4 of 512 GiB less 1 GiB on the Mac; 32 GiB less 1 GiB and the backend's overhead on the card.
  const BuyOption mac = option("M3 Ultra 512GB (Mac Studio)", 1, 9499, 512, 383, 17.5);
  const BuyOption card = option("RTX 5090", 1, 1999, 32, 30, 0, Verdict::kPartial);
  const DeviceVs v = compare_devices(mac, card);
  EXPECT_DOUBLE_EQ(v.memory_ratio, 16);
  EXPECT_NEAR(9499.0 / 512, 18.55, 0.005);
  EXPECT_NEAR(1999.0 / 32, 62.47, 0.005);
  EXPECT_NEAR(v.usd_per_gib_total_ratio, 3.37, 0.005);
  EXPECT_EQ(
      v.sentence,
      "M3 Ultra 512GB (Mac Studio) has 16\u00d7 the memory of RTX 5090 at 3.4\u00d7 lower cost per GiB ($18.55 vs "
      "$62.47 per GiB); of memory a model can use, 12.8\u00d7 at 2.7\u00d7 lower cost per GiB ($24.80 vs $66.63 "
      "per usable GiB). The model fits M3 Ultra 512GB (Mac Studio), not RTX 5090.");
}

// "5x Arc B580" was ranked at the cards' price alone: a host that holds five cards is priced in.
TEST(FitRanking, SeveralGpusAddAnAssumedHost) {
  EXPECT_EQ(multi_gpu_host(1, 190.0).usd(), 0);  // one card sits in the desktop any option needs
  const HostCost two = multi_gpu_host(2, 350.0);    // 1.25 x (700 + 300) = 1250 W: 500 W above 750
  EXPECT_DOUBLE_EQ(two.board_usd, 300);
  EXPECT_DOUBLE_EQ(two.psu_usd, 100);
  const HostCost five = multi_gpu_host(5, 190.0);   // 1.25 x (950 + 300) = 1562.5 W
  EXPECT_DOUBLE_EQ(five.board_usd, 3000);
  EXPECT_DOUBLE_EQ(five.psu_usd, (1562.5 - 750) * 0.20);
  EXPECT_DOUBLE_EQ(multi_gpu_host(3, std::nullopt).psu_usd, (1.25 * (900 + 300) - 750) * 0.20);  // 300 W assumed
  EXPECT_EQ(option_name(BuyOption{.device = "Arc B580", .count = 5}), "5\u00d7 Arc B580");
  BuyOption partial{.device = "RTX 3090"};
  partial.verdict = Verdict::kPartial;
  EXPECT_EQ(option_name(partial), "RTX 3090, partial offload");
}

TEST(FitRanking, ParseRankBy) {
  EXPECT_EQ(*parse_rank_by("price"), RankBy::kPrice);
  EXPECT_EQ(*parse_rank_by("usable-price"), RankBy::kUsablePrice);
  auto bad = parse_rank_by("cheap");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "--rank 'cheap': unknown (price, tps, usable-price)");
}

}  // namespace
}  // namespace rigbench::fit
