// measure/capacity: the sweep's ramp, bisection and early stop, driven by a fake load function
// with set latencies (no server, no clock): each load gives the run metrics it is set to.
#include "measure/capacity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace rigbench::measure {
namespace {

// A run's metrics as a fake load sets them: TTFT (p50 and p95), TPOT p95 and output t/s.
ServeRunMetrics run(double ttft_p50_ms, double ttft_p95_ms, double tpot_p95_ms, double output_tps) {
  ServeRunMetrics m;
  m.requests = m.completed = 16;
  m.ttft_ms.n = m.tpot_ms.n = m.e2e_ms.n = 16;
  m.ttft_ms.median = ttft_p50_ms;
  m.ttft_ms.p95 = m.ttft_ms.p99 = m.ttft_ms.max = ttft_p95_ms;
  m.tpot_ms.median = m.tpot_ms.p95 = m.tpot_ms.p99 = m.tpot_ms.max = tpot_p95_ms;
  m.e2e_ms.p99 = ttft_p95_ms + 100 * tpot_p95_ms;
  m.output_tps = output_tps;
  return m;
}

// Runs the sweep to its end against `load`; returns the loads run, in order.
std::vector<double> sweep(CapacitySearch& search, const Slo& slo, const std::function<ServeRunMetrics(double)>& load) {
  std::vector<double> loads;
  while (auto next = search.next()) {
    loads.push_back(*next);
    search.add(capacity_step(*next, load(*next), slo));
    if (loads.size() > 64) break;  // a search that never ends fails below
  }
  return loads;
}

TEST(CapacitySearch, RampsThenBisectsToTheLargestConcurrencyThatMeetsTheSlo) {
  const Slo slo = *parse_slo("ttft_p95_ms=2000,tpot_p95_ms=100");
  CapacitySearch search(CapacityOptions{});
  // TTFT p95 300 ms a concurrent request; output t/s rising with the load (no saturation).
  const auto loads = sweep(search, slo, [](double c) { return run(100 * c, 300 * c, 20, 50 * c); });
  EXPECT_EQ(loads, (std::vector<double>{1, 2, 4, 8, 6, 7}));
  const CapacityAnswer a = search.answer();
  EXPECT_EQ(a.end, CapacityEnd::kBisected);
  EXPECT_EQ(a.capacity, 6);
  ASSERT_TRUE(a.missed.has_value());
  EXPECT_EQ(a.missed->load, 7);
  EXPECT_EQ(capacity_line(a, slo, CapacityBy::kConcurrency),
            "serves 6 concurrent requests at TTFT p95 <= 2 s and TPOT p95 <= 100 ms; at 7, TTFT p95 was 2.1 s");
}

TEST(CapacitySearch, StopsEarlyWhenTheServerSaturatesAndSaysQueueing) {
  const Slo slo = *parse_slo("ttft_p95_ms=2000");
  CapacitySearch search(CapacityOptions{});
  // 4 slots: up to 4 the output rate grows; at 8 it is flat and TTFT doubles (requests wait).
  const auto loads = sweep(search, slo, [](double c) {
    const double tps = 100 * std::min(c, 4.0);
    const double ttft = c <= 4 ? 50 : 50 * c / 4;
    return run(ttft, 2 * ttft, 20, tps);
  });
  EXPECT_EQ(loads, (std::vector<double>{1, 2, 4, 8}));  // not 16, 32, 64
  const CapacityAnswer a = search.answer();
  EXPECT_EQ(a.end, CapacityEnd::kSaturated);
  EXPECT_EQ(a.capacity, 8);
  EXPECT_EQ(capacity_line(a, slo, CapacityBy::kConcurrency),
            "serves at least 8 concurrent requests at TTFT p95 <= 2 s; saturated at 8: queueing, TTFT p50 50 ms -> "
            "100 ms while output t/s rose 0 % (more concurrent requests only wait longer)");
  // A rate that fell is said so: a newcomer read "output t/s rose -98 %".
  CapacitySearch falling(CapacityOptions{});
  sweep(falling, slo, [](double c) { return run(c <= 4 ? 50 : 50 * c, 100, 20, c <= 4 ? 100 * c : 8); });
  const std::string line = capacity_line(falling.answer(), slo, CapacityBy::kConcurrency);
  EXPECT_NE(line.find("while output t/s fell 98 %"), std::string::npos) << line;
}

// A TTFT that doubles by a few ms, far below the SLO's limit, is no saturation: the ramp goes
// on (bench/serve_capacity stopped at 2 in two rounds of three, at 8 in the third, before).
TEST(CapacitySearch, ARiseTooSmallForTheSloIsNoSaturation) {
  const Slo slo = *parse_slo("ttft_p95_ms=2000");
  CapacityOptions o;
  o.max = 8;
  o.min_ttft_rise_ms = 100;  // 2000 / 20, as --capacity sets it
  CapacitySearch search(o);
  const auto loads = sweep(search, slo, [](double c) { return run(9 * c, 18 * c, 1, c <= 1 ? 100 : 105); });
  EXPECT_EQ(loads, (std::vector<double>{1, 2, 4, 8}));
  EXPECT_EQ(search.answer().end, CapacityEnd::kMax);
}

TEST(CapacitySearch, TtftRisingThroughAStepAlsoSaysSaturated) {
  const Slo slo = *parse_slo("ttft_p95_ms=2000");
  CapacitySearch search(CapacityOptions{});
  // At 4 the output rate rose 5 % and the median TTFT did not move, but the later half of the
  // step's requests waited twice as long as the earlier half: the queue grew through the step.
  const auto loads = sweep(search, slo, [](double c) {
    ServeRunMetrics m = run(50, 100, 20, c >= 4 ? 210 : 100 * c);
    if (c >= 4) m.ttft_rise = 2.0;
    return m;
  });
  EXPECT_EQ(loads, (std::vector<double>{1, 2, 4}));
  EXPECT_EQ(search.answer().end, CapacityEnd::kSaturated);
  EXPECT_EQ(search.answer().capacity, 4);
}

TEST(CapacitySearch, NoneMetTheMaximumAndRateBisection) {
  const Slo slo = *parse_slo("ttft_p95_ms=2000");
  {
    CapacitySearch none(CapacityOptions{});
    EXPECT_EQ(sweep(none, slo, [](double) { return run(2500, 3400, 20, 10); }), std::vector<double>{1});
    EXPECT_EQ(none.answer().end, CapacityEnd::kNone);
    EXPECT_EQ(capacity_line(none.answer(), slo, CapacityBy::kConcurrency),
              "does not serve 1 concurrent request at TTFT p95 <= 2 s: TTFT p95 was 3.4 s");
    // A limit under 1 ms keeps its figure: "TPOT p95 <= 0 ms" read as an SLO nothing meets.
    const Slo tight = *parse_slo("tpot_p95_ms=0.05");
    CapacitySearch fast(CapacityOptions{});
    sweep(fast, tight, [](double) { return run(10, 20, 20, 10); });
    EXPECT_NE(capacity_line(fast.answer(), tight, CapacityBy::kConcurrency).find("TPOT p95 <= 0.05 ms: TPOT p95 was "),
              std::string::npos)
        << capacity_line(fast.answer(), tight, CapacityBy::kConcurrency);
  }
  {
    CapacityOptions o;
    o.max = 64;
    CapacitySearch all(o);
    EXPECT_EQ(sweep(all, slo, [](double c) { return run(10, 20, 20, 10 * c); }),
              (std::vector<double>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_EQ(all.answer().end, CapacityEnd::kMax);
    EXPECT_EQ(capacity_line(all.answer(), slo, CapacityBy::kConcurrency),
              "serves at least 64 concurrent requests at TTFT p95 <= 2 s (the sweep's maximum, --capacity-max)");
  }
  {
    CapacityOptions o;
    o.by = CapacityBy::kRate;
    CapacitySearch rate(o);
    // TTFT p95 400 ms per req/s: 5 req/s is the last that meets 2 s; bisected to within 10 %.
    const auto loads = sweep(rate, slo, [](double r) { return run(100 * r, 400 * r, 20, 50 * r); });
    EXPECT_EQ(loads, (std::vector<double>{1, 2, 4, 8, 6, 5, 5.5}));
    EXPECT_DOUBLE_EQ(rate.answer().capacity, 5);
    EXPECT_EQ(capacity_line(rate.answer(), slo, CapacityBy::kRate),
              "serves 5 req/s at TTFT p95 <= 2 s; at 5.5, TTFT p95 was 2.2 s");
  }
}

TEST(SloMiss, PercentilesOfARunAndEveryRequest) {
  const ServeRunMetrics m = run(100, 900, 120, 10);
  EXPECT_EQ(slo_miss(m, *parse_slo("ttft_p95_ms=1000")), "");
  EXPECT_EQ(slo_miss(m, *parse_slo("ttft_p50_ms=50")), "TTFT p50 was 100 ms");
  EXPECT_EQ(slo_miss(m, *parse_slo("ttft_p95_ms=1000,tpot_p95_ms=100")), "TPOT p95 was 120 ms");
  EXPECT_EQ(slo_miss(m, *parse_slo("ttft_ms=800")), "TTFT max was 900 ms");  // every request
  ServeRunMetrics failed;
  failed.requests = failed.failed = 4;
  EXPECT_EQ(slo_miss(failed, *parse_slo("ttft_p95_ms=1000")), "no request completed");
  EXPECT_EQ(slo_text(*parse_slo("ttft_p95_ms=2000,e2e_p99_ms=8500")), "TTFT p95 <= 2 s and E2E p99 <= 8.5 s");
  EXPECT_EQ(parse_slo("ttft_p97_ms=5").error().code, ErrorCode::kUsage);
  EXPECT_EQ(parse_slo("itl_p95_ms=5").error().code, ErrorCode::kUsage);
}

}  // namespace
}  // namespace rigbench::measure
