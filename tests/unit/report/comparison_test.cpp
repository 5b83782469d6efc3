// compare: grouping by machine/model/build, winners, "no clear winner", ratios against the
// baseline, the printers; regressions across builds with Welch's t-test.
#include "report/comparison.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/knobs.h"
#include "core/results.h"
#include "core/strings.h"
#include "report/compare_printers.h"
#include "report/memory_usage.h"
#include "report/regressions.h"
#include "report/reversals.h"
#include "support/golden.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

constexpr const char* kCommitA = "aaaaaaaa11111111";
constexpr const char* kCommitB = "bbbbbbbb22222222";

// A record of `model` on `host`: pp of 512 and tg of 128 tokens from the given durations.
RunRecord run(const std::string& id, const std::string& host, const std::string& model, std::vector<int64_t> pp_ns,
              std::vector<int64_t> tg_ns, const std::string& commit = kCommitA,
              const std::string& time = "2026-11-29T10:00:00Z") {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = host;
  r.model.name = model;
  r.model.fingerprint = "xxh64:" + model;  // another model is another file
  r.build.llama_cpp_commit = commit;
  r.test_time = time;
  r.results.pp = make_throughput(512, std::move(pp_ns));
  r.results.tg = make_throughput(128, std::move(tg_ns));
  return r;
}

// A run of the ncmoe cases' model on `host`: tg128 at about `tg_tps` over 3 repetitions (the
// mean duration and ±1/128 of it), at `n_cpu_moe`.
RunRecord moe_run(const std::string& id, const std::string& host, double tg_tps, int n_cpu_moe = 0,
                  const std::string& commit = kCommitA, const std::string& time = "2026-11-29T10:00:00Z") {
  const auto ns = static_cast<int64_t>(128e9 / tg_tps);
  RunRecord r = run(id, host, "qwen3moe", {1'000'000'000}, {ns, ns + ns / 128, ns - ns / 128}, commit, time);
  r.params.n_cpu_moe = n_cpu_moe;
  return r;
}

using rigbench::testing::unpadded;

// The row of `cmp`'s -o json whose test is `test`; null when there is none.
nlohmann::json json_row(const Comparison& cmp, const std::string& test) {
  std::ostringstream json;
  print_comparison(cmp, {}, 0.05, OutputFormat::kJson, json);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  for (const auto& row : doc["rows"]) {
    if (row["test"] == test) return row;
  }
  return nullptr;
}

const Row& find_row(const Comparison& cmp, const std::string& label, const std::string& test) {
  for (const Row& r : cmp.rows) {
    if ((r.model == label || r.machine == label) && r.test == test) return r;
  }
  ADD_FAILURE() << "no row " << label << " " << test;
  static const Row none;
  return none;
}

// box-b runs "alpha" twice as fast as box-a; box-c overlaps box-a; "beta" ran on box-a only.
std::vector<RunRecord> three_machines() {
  return {
      run("1", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000}),
      run("2", "box-b", "alpha", {500'000'000, 505'000'000}, {500'000'000, 505'000'000}),
      run("3", "box-c", "alpha", {1'005'000'000, 1'020'000'000}, {2'000'000'000, 2'020'000'000}),
      run("4", "box-a", "beta", {1'000'000'000, 1'000'000'000}, {1'000'000'000, 1'000'000'000}),
  };
}

TEST(Compare, ByMachineWinnersRatiosAndOverlap) {
  const auto records = three_machines();
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  EXPECT_EQ(cmp->columns, (std::vector<std::string>{"box-a", "box-b", "box-c"}));
  EXPECT_EQ(cmp->baseline, 0u);
  const Row& tg = find_row(*cmp, "alpha F32", "tg128 (pg)");
  EXPECT_EQ(tg.winner, 1);  // box-b
  EXPECT_EQ(tg.verdict, "");
  EXPECT_NEAR(tg.cells[1].ratio, 2.0, 1e-9);
  EXPECT_NEAR(tg.cells[2].ratio, 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(tg.cells[0].ratio, 1.0);
  EXPECT_EQ(tg.cells[0].summary.n, 2u);
  // pp: box-a and box-c overlap, but box-b is clear of both.
  EXPECT_EQ(find_row(*cmp, "alpha F32", "pp512 (pg)").winner, 1);
  // beta ran on one machine only.
  const Row& beta = find_row(*cmp, "beta F32", "tg128 (pg)");
  EXPECT_EQ(beta.winner, -1);
  EXPECT_EQ(beta.verdict, "single result");
  EXPECT_EQ(beta.cells[1].state, CellState::kMissing);
}

// A CPU build and a Vulkan build of the same sources on one machine: one machine, two builds
// told apart by their backends (never pooled); on machines of one backend each, nothing changes.
TEST(Compare, OneMachineTwoBackendsGetsAColumnPerBuildInTheSameRows) {
  std::vector<RunRecord> records = {
      run("1", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000}),
      run("2", "box-a", "alpha", {250'000'000, 255'000'000}, {500'000'000, 505'000'000}),
      run("3", "box-b", "alpha", {900'000'000, 910'000'000}, {900'000'000, 910'000'000}),
  };
  records[0].machine.backends = {"CPU"};
  records[1].machine.backends = {"Vulkan", "CPU"};
  records[2].machine.backends = {"CUDA", "CPU"};
  EXPECT_EQ(build_backends(records[0].machine), "CPU");
  EXPECT_EQ(build_backends(records[1].machine), "Vulkan");
  EXPECT_EQ(build_backends(MachineInfo{}), "CPU");  // a record that lists none
  // RPC is in every build since GGML_RPC=ON: a CPU build lists "RPC, CPU" and a Vulkan build
  // "Vulkan, RPC, CPU" (they were labelled "(RPC)" and "(Vulkan,RPC)").
  MachineInfo rpc_cpu, rpc_vulkan;
  rpc_cpu.backends = {"RPC", "CPU"};
  rpc_vulkan.backends = {"Vulkan", "RPC", "CPU"};
  EXPECT_EQ(build_backends(rpc_cpu), "CPU");
  EXPECT_EQ(build_backends(rpc_vulkan), "Vulkan");
  // By machine, box-a's two builds are a column each, named by the build, in box-b's rows (they
  // were rows of their own, "(CPU)" and "(Vulkan)", never beside box-b's results).
  auto by_machine = compare(records, {});
  ASSERT_TRUE(by_machine) << by_machine.error().message;
  EXPECT_EQ(by_machine->columns, (std::vector<std::string>{"box-a (CPU)", "box-a (Vulkan)", "box-b"}));
  EXPECT_FALSE(by_machine->several_builds);
  const Row& tg_row = find_row(*by_machine, "alpha F32", "tg128 (pg)");
  EXPECT_EQ(tg_row.build, "rigbench 0.1.0 / llama.cpp aaaaaaaa");
  ASSERT_EQ(tg_row.cells.size(), 3u);
  for (const Cell& c : tg_row.cells) EXPECT_EQ(c.state, CellState::kMeasured);
  EXPECT_EQ(tg_row.cells[0].summary.n, 2u);  // the CPU build's two samples, not pooled with Vulkan's
  EXPECT_EQ(tg_row.winner, 1);               // the Vulkan build's 4x tg
  CompareOptions by_build;
  by_build.by = CompareBy::kBuild;
  auto side_by_side = compare(records, by_build);
  ASSERT_TRUE(side_by_side);
  EXPECT_EQ(side_by_side->columns, (std::vector<std::string>{"rigbench 0.1.0 / llama.cpp aaaaaaaa",
                                                              "rigbench 0.1.0 / llama.cpp aaaaaaaa (CPU)",
                                                              "rigbench 0.1.0 / llama.cpp aaaaaaaa (Vulkan)"}));
  for (const Row& r : side_by_side->rows) {
    if (r.machine != "box-a" || r.test != "tg128 (pg)") continue;
    EXPECT_EQ(r.cells[1].summary.n, 2u);  // the CPU build's two samples, not pooled with Vulkan's
    EXPECT_EQ(r.cells[2].summary.n, 2u);
    EXPECT_EQ(r.winner, 2);
  }
  // A CPU build and a Vulkan build of one commit are two backends, not a regression (the
  // CPU build's 4x faster run was listed as "(Vulkan) -> (CPU)" before).
  EXPECT_TRUE(find_regressions(records, 0.05).empty());
  records[1].machine.backends = {"CPU"};  // the same backend: now a pair of builds to test
  records[1].build.llama_cpp_commit = kCommitB;
  EXPECT_FALSE(find_regressions(records, 0.05).empty());
}

// compare --by model took a 70B that did not fit as its baseline (every ratio "-") and called
// stories260K faster than Qwen2.5-7B (+225818 %, significant).
TEST(Compare, ByModelTheBaselineHasResultsAndSizesAreNotRanked) {
  std::vector<RunRecord> records = {
      run("1", "box-a", "aaa-big", {}, {}),
      run("2", "box-a", "small", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000}),
      run("3", "box-a", "large", {4'000'000'000, 4'040'000'000}, {4'000'000'000, 4'040'000'000}),
      run("4", "box-a", "large-q8", {6'000'000'000, 6'060'000'000}, {6'000'000'000, 6'060'000'000}),
  };
  records[0].refused = "will not fit this machine";
  records[0].results = Results{};
  records[0].model.n_params = 70'000'000'000;
  records[1].model.n_params = 260'000;
  records[2].model.n_params = records[3].model.n_params = 7'000'000'000;  // two quantizations of one size
  CompareOptions by_model;
  by_model.by = CompareBy::kModel;
  auto cmp = compare(records, by_model);
  ASSERT_TRUE(cmp) << cmp.error().message;
  ASSERT_EQ(cmp->columns.size(), 4u);
  EXPECT_EQ(cmp->columns[cmp->baseline], "large F32");  // the first with results, not aaa-big
  const Row& pp = find_row(*cmp, "box-a", "pp512 (pg)");
  EXPECT_EQ(pp.winner, -1);
  EXPECT_EQ(pp.verdict, "sizes differ");
  EXPECT_NEAR(pp.cells[2].ratio, 4.0 / 6.0, 1e-9);  // large-q8 against large: the same size
  EXPECT_TRUE(std::isnan(pp.cells[3].ratio));       // small against large: not compared
  const Answers a = find_answers(*cmp, Metric::kPp);
  for (const PairAnswer& p : a.pairs)
    EXPECT_TRUE(cmp->columns[p.a].starts_with("large") && cmp->columns[p.b].starts_with("large")) << p.sentence;
  by_model.across_sizes = true;  // the question asked: rank every size
  auto across = compare(records, by_model);
  ASSERT_TRUE(across);
  EXPECT_EQ(find_row(*across, "box-a", "pp512 (pg)").winner, 3);
}

TEST(Compare, OverlappingSpreadsHaveNoClearWinner) {
  const std::vector<RunRecord> records = {
      run("1", "box-a", "alpha", {1'000'000'000, 1'100'000'000}, {1'000'000'000, 1'000'000'000}),
      run("2", "box-c", "alpha", {1'050'000'000, 1'150'000'000}, {1'000'000'000, 1'000'000'000}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Row& pp = find_row(*cmp, "alpha F32", "pp512 (pg)");
  EXPECT_EQ(pp.winner, -1);
  EXPECT_EQ(pp.verdict, "no clear winner");
  // Equal samples with no spread: the intervals touch, still no winner.
  EXPECT_EQ(find_row(*cmp, "alpha F32", "tg128 (pg)").verdict, "no clear winner");
}

TEST(Compare, TtftIsBetterWhenLowerAndMemoryIsNotRanked) {
  auto records = three_machines();
  records[0].results.ttft = make_latency({200'000'000, 201'000'000});
  records[1].results.ttft = make_latency({100'000'000, 101'000'000});
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Row& ttft = find_row(*cmp, "alpha F32", "ttft pp512 (pg)");
  EXPECT_EQ(ttft.winner, 1);
  EXPECT_NEAR(ttft.cells[1].ratio, 200.5 / 100.5, 1e-9);  // baseline ms / cell ms
  const Row& mem = find_row(*cmp, "alpha F32", "n_ctx 640");
  EXPECT_EQ(mem.metric, Metric::kMemory);
  EXPECT_EQ(mem.winner, -1);
  EXPECT_EQ(mem.verdict, "");
  EXPECT_TRUE(std::isnan(mem.cells[0].ratio));
  EXPECT_DOUBLE_EQ(mem.cells[0].summary.mean, 1171200 + 163840 + 290240);
}

// J/token and cost per run, lower is better; a stated figure never ranks against a measured one.
TEST(Compare, EnergyAndCostWhereMeasured) {
  auto records = three_machines();
  auto measure = [](RunRecord& r, const char* method, double j_per_token, double eur_per_mtok) {
    r.energy.method = method;
    r.energy.tg = PhaseEnergyInfo{1.0, 128 * j_per_token, 128 * j_per_token, j_per_token};
    r.cost = CostInfo{};
    r.cost->currency = "EUR";
    r.cost->gross_per_mtok = eur_per_mtok;
  };
  measure(records[0], "counter", 0.02, 0.5);
  measure(records[1], "counter+integrated", 0.01, 0.25);
  measure(records[2], "stated", 0.005, 0.125);
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(find_row(*cmp, "alpha F32", "tg128 (pg)").metric, Metric::kTg);  // t/s first, then J/token
  const Row* j = nullptr;
  const Row* cost = nullptr;
  for (const Row& r : cmp->rows) {
    if (r.model == "alpha F32" && r.metric == Metric::kTgEnergy && r.test == "tg128 (pg)") j = &r;
    if (r.model == "alpha F32" && r.metric == Metric::kCost && r.test == "tg128 (pg) in EUR") cost = &r;
  }
  ASSERT_TRUE(j && cost);
  // One figure per run: Welch's test cannot separate one value a side, so no winner is named
  // (the table said box-b while the answers called the same pair untested).
  EXPECT_EQ(j->winner, -1);
  EXPECT_EQ(j->verdict, "untested");
  EXPECT_NEAR(j->cells[1].ratio, 2.0, 1e-12);  // baseline J / cell J
  EXPECT_EQ(j->cells[2].state, CellState::kMissing);
  EXPECT_EQ(cost->winner, -1);
  EXPECT_NEAR(cost->cells[1].ratio, 2.0, 1e-12);
  const Row& stated = find_row(*cmp, "alpha F32", "tg128 (pg) (stated)");
  EXPECT_EQ(stated.metric, Metric::kTgEnergy);
  EXPECT_EQ(stated.verdict, "single result");
  EXPECT_EQ(find_row(*cmp, "alpha F32", "tg128 (pg) in EUR (stated)").cells[2].summary.mean, 0.125);
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  EXPECT_NE(unpadded(md.str()).find("| alpha F32 | tg128 (pg) J/token | 0.02 | 0.01 ×2.00 | - | untested |"),
            std::string::npos)
      << md.str();
  // (the test wraps where the table would pass 120 columns)
  EXPECT_NE(unpadded(rigbench::testing::unwrapped_rows(md.str()))
                .find("| alpha F32 | tg128 (pg) in EUR per Mtok | 0.5 | 0.25 ×2.00 | - | untested |"),
            std::string::npos)
      << md.str();
  // One figure per run: never tested for regressions.
  records[1].build.llama_cpp_commit = kCommitB;
  records[1].machine.hostname = "box-a";
  for (const Regression& r : find_regressions(records, 0.05)) {
    EXPECT_NE(r.metric, Metric::kTgEnergy);
    EXPECT_NE(r.metric, Metric::kCost);
  }
}

TEST(Compare, Baseline) {
  const auto records = three_machines();
  auto b = compare(records, {CompareBy::kMachine, "BOX-B"});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->baseline, 1u);
  EXPECT_NEAR(find_row(*b, "alpha F32", "tg128 (pg)").cells[0].ratio, 0.5, 1e-9);
  auto partial = compare(records, {CompareBy::kMachine, "-c"});
  ASSERT_TRUE(partial);
  EXPECT_EQ(partial->baseline, 2u);
  auto ambiguous = compare(records, {CompareBy::kMachine, "box"});
  ASSERT_FALSE(ambiguous);
  EXPECT_EQ(ambiguous.error().code, ErrorCode::kUsage);
  EXPECT_EQ(ambiguous.error().message, "--baseline 'box': several machines match (box-a, box-b, box-c)");
  auto none = compare(records, {CompareBy::kMachine, "zzz"});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "--baseline 'zzz': no machines match (box-a, box-b, box-c)");
}

TEST(Compare, ByModelAndByBuild) {
  auto records = three_machines();
  records[1].build.llama_cpp_commit = kCommitB;
  auto by_model = compare(records, {CompareBy::kModel, ""});
  ASSERT_TRUE(by_model);
  EXPECT_EQ(by_model->columns, (std::vector<std::string>{"alpha F32", "beta F32"}));
  const Row& a_tg = find_row(*by_model, "box-a", "tg128 (pg)");
  ASSERT_EQ(a_tg.cells.size(), 2u);
  EXPECT_EQ(a_tg.cells[1].state, CellState::kMeasured);
  auto by_build = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(by_build);
  EXPECT_EQ(by_build->columns,
            (std::vector<std::string>{"rigbench 0.1.0 / llama.cpp aaaaaaaa", "rigbench 0.1.0 / llama.cpp bbbbbbbb"}));
}

TEST(Compare, SameConfigurationsPoolAndTheBestConfigurationIsShown) {
  auto records = three_machines();
  RunRecord again = records[0];  // box-a, alpha, same knobs: pooled
  again.record_id = "1b";
  again.results.tg = make_throughput(128, {1'005'000'000});
  RunRecord more_threads = records[0];  // box-a, alpha, 16 threads: faster, shown
  more_threads.record_id = "1c";
  more_threads.params.n_threads = 16;
  more_threads.results.tg = make_throughput(128, {400'000'000, 410'000'000});
  records.push_back(again);
  records.push_back(more_threads);
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Cell& a = find_row(*cmp, "alpha F32", "tg128 (pg)").cells[0];
  EXPECT_EQ(a.n_configs, 2u);
  EXPECT_EQ(a.summary.n, 2u);
  EXPECT_NE(a.config.find("threads=16"), std::string::npos) << a.config;
  records.pop_back();
  auto pooled = compare(records, {});
  EXPECT_EQ(find_row(*pooled, "alpha F32", "tg128 (pg)").cells[0].summary.n, 3u);
}

TEST(Compare, LoadModeIsPartOfTheConfiguration) {
  EXPECT_EQ(knobs_label(testing::sample_record()),
            "ngl=-1 lm=auto n_batch=2048 n_ubatch=512 type_k=f16 type_v=f16 fa=auto poll=50 cpu_strict=0 threads=8 "
            "n_depth=0");
  auto records = three_machines();
  RunRecord no_mmap = records[0];  // box-a, alpha, -lm none: another configuration, faster, shown
  no_mmap.record_id = "1d";
  no_mmap.params.load_mode = "none";
  no_mmap.results.tg = make_throughput(128, {900'000'000, 910'000'000});
  records.push_back(no_mmap);
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Cell& a = find_row(*cmp, "alpha F32", "tg128 (pg)").cells[0];
  EXPECT_EQ(a.n_configs, 2u);  // not pooled with the default (auto) run
  EXPECT_EQ(a.summary.n, 2u);
  EXPECT_NE(a.config.find("lm=none"), std::string::npos) << a.config;
}

// Synthetic copies of one model with another values recipe or seed run at another speed.
TEST(Compare, SyntheticRecipeAndSeedSeparateModels) {
  auto records = three_machines();
  for (RunRecord& r : records) r.model.synthetic = true, r.model.synthetic_values = 2, r.model.synthetic_seed = 42;
  RunRecord other_seed = records[0];
  other_seed.record_id = "1s";
  other_seed.model.synthetic_seed = 7;
  records.push_back(other_seed);
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(find_row(*cmp, "alpha F32 (synthetic v2, seed 42)", "tg128 (pg)").cells[0].summary.n, 2u);
  EXPECT_EQ(find_row(*cmp, "alpha F32 (synthetic v2, seed 7)", "tg128 (pg)").cells[0].summary.n, 2u);
  EXPECT_NE(model_identity(records[0]).key, model_identity(other_seed).key);
}

TEST(Compare, LabelsStayDistinctAndNoRecordsIsAnError) {
  auto records = three_machines();
  records[2].machine.hostname = "box-a";  // same name, another CPU
  records[2].machine.cpu = "Other CPU";
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->columns, (std::vector<std::string>{"box-a", "box-a (2)", "box-b"}));
  // What the " (2)" stands for is said, with both CPUs (it was a bare "(2)").
  const std::string cpu = records[0].machine.cpu;
  ASSERT_FALSE(cpu.empty());
  const std::string expected = cpu < "Other CPU"
                                   ? "box-a (2): another machine named box-a, told apart by its CPU (Other CPU; box-a: " + cpu + ")"
                                   : "box-a (2): another machine named box-a, told apart by its CPU (" + cpu + "; box-a: Other CPU)";
  EXPECT_EQ(cmp->same_name_notes, (std::vector<std::string>{expected}));
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  EXPECT_NE(md.str().find("note: " + expected.substr(0, 60)), std::string::npos) << md.str();
  EXPECT_FALSE(compare(std::vector<RunRecord>{}, {}));
}

TEST(ComparePrinters, MarkdownMarksWinnerRatiosAndDoesNotFit) {
  auto cmp = compare(three_machines(), {});
  ASSERT_TRUE(cmp);
  // The seam for refused runs: a cell the planner refused is printed as such.
  for (Row& r : cmp->rows) {
    if (r.model == "beta F32") r.cells[2].state = CellState::kWontFit;
  }
  std::ostringstream out;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, out);
  const std::string md = unpadded(rigbench::testing::unwrapped_rows(out.str()));
  EXPECT_NE(md.find("| model | test | box-a (baseline) | box-b | box-c | winner |"), std::string::npos) << md;
  EXPECT_NE(md.find("| alpha F32 | tg128 (pg) t/s | 127.37 ± 0.90 (±6.3 %) | **254.73** **± 1.79** (±6.3 %) ×2.00 | "
                    "63.68 ± 0.45 (±6.3 %) ×0.50 | box-b |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| beta F32 | tg128 (pg) t/s | 128.00 ± 0.00 (±0.0 %) | - | does not fit | single result |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| alpha F32 | memory n_ctx 640 | 1.55 MiB | 1.55 MiB | 1.55 MiB | |"), std::string::npos) << md;
  // The regressions line wraps at 120 columns like a paragraph.
  EXPECT_NE(md.find("\nRegressions (same machine, model and knobs across builds; Welch's t-test on per-sample values, "
                    "one-sided, alpha 0.05):\nnone to test"),
            std::string::npos)
      << md;
}

// The whole outputs against golden files (tests/data/golden/compare.*): a stray column, row or
// key fails. Regressions included in md and json.
TEST(ComparePrinters, GoldenOutputs) {
  std::vector<RunRecord> records = three_machines();
  RunRecord later = run("a-later", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000},
                        kCommitB, "2026-11-29T12:00:00Z");
  records.push_back(later);
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  for (Row& r : cmp->rows) {
    if (r.model == "beta F32") r.cells[2].state = CellState::kWontFit;
  }
  const auto regressions = find_regressions(records, 0.05);
  for (const auto& [format, name] :
       {std::pair{OutputFormat::kMarkdown, "compare.md"}, std::pair{OutputFormat::kCsv, "compare.csv"},
        std::pair{OutputFormat::kJson, "compare.json"}}) {
    std::ostringstream out;
    print_comparison(*cmp, regressions, 0.05, format, out);
    EXPECT_EQ(rigbench::testing::matches_golden(out.str(), name), "") << name;
  }
}

TEST(ComparePrinters, CsvAndJson) {
  auto cmp = compare(three_machines(), {});
  ASSERT_TRUE(cmp);
  std::ostringstream csv;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kCsv, csv);
  EXPECT_TRUE(csv.str().starts_with(
      "model,metric,unit,test,machine,baseline,state,n,mean,stddev,median,p90,p95,p99,min,max,ci95_low,ci95_high,"
      "ci95_pct,ci_target_pct,ci_reached,ratio,winner,verdict,config,energy_flags,noise_codes,noise_notes\n"))
      << csv.str();
  EXPECT_NE(csv.str().find("alpha F32,tg_tps,t/s,tg128 (pg),box-b,false,measured,2,"), std::string::npos);
  std::ostringstream json;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, json);
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["by"], "machine");
  EXPECT_EQ(j["baseline"], "box-a");
  EXPECT_EQ(j["columns"].size(), 3u);
  bool found = false;
  for (const auto& row : j["rows"]) {
    if (row["model"] == "alpha F32" && row["test"] == "tg128 (pg)") {
      found = true;
      EXPECT_EQ(row["winner"], "box-b");
      EXPECT_NEAR(row["cells"][1]["ratio"].get<double>(), 2.0, 1e-9);
      EXPECT_EQ(row["cells"][1]["n"], 2);
    }
  }
  EXPECT_TRUE(found);
  std::ostringstream jsonl;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJsonl, jsonl);
  const auto first = nlohmann::json::parse(jsonl.str().substr(0, jsonl.str().find('\n')));
  EXPECT_EQ(first["kind"], "cell");
  EXPECT_FALSE(parse_output_format("xml"));
  EXPECT_FALSE(parse_compare_by("gpu"));
}

// A new user's compare over bench and serve-bench runs was 521 columns wide: each served row's
// test named its server whole ("tg128 @ c1 llama.cpp b1-80fb11ac openai-completions
// http://127.0.0.1:18080 t/s"), and a run's noise note stood again under each of its rows. The
// md names each server once, in a legend (S1, S2 in the order of the rows), and says a run's
// note once; -o json keeps the whole test and adds the server.
// A sample record of `host` served by llama.cpp at `url`, one request in flight.
RunRecord served_record(const std::string& id, const std::string& host, const std::string& url) {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = host;
  ServerRun s;
  s.url = url;
  s.software = "llama.cpp";
  s.version = "b1-80fb11ac73e66d89eae2c6a91d8a77428fa733ed";
  s.api = "openai-completions";
  s.concurrency = 1;
  r.server = s;
  return r;
}

TEST(ComparePrinters, ServedRowsNameTheirServerByALegendAndARunsNoteIsSaidOnce) {
  auto served = [](const std::string& id, const std::string& host, const std::string& url) {
    RunRecord r = served_record(id, host, url);
    r.noise = {{"machine_busy", "", "machine busy: other processes used 60 % of the CPUs' time", "stop them"}};
    return r;
  };
  const std::vector<RunRecord> records = {served("1", "box-a", "http://127.0.0.1:8080"),
                                          served("2", "box-b", "http://127.0.0.1:8081")};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  EXPECT_EQ(row_servers(*cmp), (std::vector<std::string>{"llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8080",
                                                         "llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8081"}));
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  const std::string out = unpadded(md.str());
  EXPECT_NE(out.find("| tg128 @ c1 · S1 t/s |"), std::string::npos) << out;
  EXPECT_NE(out.find("| tg128 @ c1 · S2 t/s |"), std::string::npos) << out;
  EXPECT_NE(out.find("S1: the server llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8080 (serve-bench"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("S2: the server llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8081 (serve-bench"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("openai-completions http://127.0.0.1:8080 t/s"), std::string::npos) << out;
  // Each run has pp, TTFT and tg rows: its note is said once, under its first row.
  std::size_t notes = 0;
  for (std::size_t at = out.find("other processes used 60 %"); at != std::string::npos;
       at = out.find("other processes used 60 %", at + 1))
    ++notes;
  EXPECT_EQ(notes, 2u) << out;
  EXPECT_NE(out.find("[noise] Model, \"quoted\" | piped F32 · pp512 @ c1 · S1 t/s, box-a: machine busy"),
            std::string::npos)
      << out;

  const auto row = json_row(*cmp, "tg128 @ c1 llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8081");
  ASSERT_TRUE(row.is_object());
  EXPECT_EQ(row["server"], "llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8081");
}

// The answers, rankings and pairs above and below the table name a served row's server by its
// legend tag, as the table does: beside one server's URL they were 139 to 163 columns wide.
TEST(ComparePrinters, AnswersRankingsAndPairsNameAServerByItsTag) {
  auto served = [](const std::string& id, const std::string& host) {
    return served_record(id, host, "http://127.0.0.1:18391");
  };
  RunRecord a = testing::sample_record("3"), b = testing::sample_record("4");
  a.machine.hostname = "box-a";
  b.machine.hostname = "box-b";
  const std::vector<RunRecord> records = {served("1", "box-a"), served("2", "box-b"), a, b};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  CompareExtras extras;
  extras.answers = {find_answers(*cmp, Metric::kTg)};
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md, extras);
  const std::string out = md.str();
  EXPECT_NE(out.find("@ c1 · S1"), std::string::npos) << out;
  std::size_t urls = 0;
  for (std::size_t at = out.find("127.0.0.1:18391"); at != std::string::npos; at = out.find("127.0.0.1:18391", at + 1))
    ++urls;
  EXPECT_EQ(urls, 1u) << out;  // the legend's, alone
  EXPECT_NE(out.find("S1: the server llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:18391"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Ranking per model"), std::string::npos) << out;
  EXPECT_NE(out.find("Pairs ("), std::string::npos) << out;
}

// Columns that cannot stand side by side within 120 columns (six machines, each cell with its
// notes) go in successive tables, each within 120, each row's winner of all the columns, the
// notes once below the last (#37: four machines' compare was 156 columns wide).
TEST(ComparePrinters, ColumnsThatCannotFitSideBySideGoInSuccessiveTables) {
  std::vector<RunRecord> records;
  for (int i = 0; i < 6; ++i) {
    const int64_t ns = 1'000'000'000 + 10'000'000 * i;
    RunRecord r = run(std::to_string(i), "box-" + std::string(1, static_cast<char>('a' + i)), "alpha", {ns, ns + 20'000'000},
                      {ns, ns + 20'000'000});
    r.noise = {{"first_repetition", "", "the first is slow", "more warmup"}, {"high_cv", "", "CV 9 %", "re-run"}};
    records.push_back(std::move(r));
  }
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  const std::string out = md.str();
  EXPECT_NE(out.find("The columns in "), std::string::npos) << out;
  EXPECT_NE(out.find("Columns box-a, "), std::string::npos) << out;
  for (const std::string& line : split(out, '\n')) EXPECT_LE(display_width(line), kMarkdownWidth) << line;
  std::size_t tables = 0, notes = 0;
  for (std::size_t at = out.find("| model "); at != std::string::npos; at = out.find("| model ", at + 1)) ++tables;
  for (std::size_t at = out.find("[noise] "); at != std::string::npos; at = out.find("[noise] ", at + 1)) ++notes;
  EXPECT_GE(tables, 2u) << out;
  EXPECT_EQ(notes, 12u) << out;  // each machine's two notes, said once below the last table, not per table
  // Every machine's column is in exactly one table's header, and each table has the winner column.
  std::map<std::string, int> headers;
  for (const std::string& line : split(out, '\n')) {
    if (!line.starts_with("| model ")) continue;
    EXPECT_NE(line.find("| winner"), std::string::npos) << line;
    for (const std::string& cell : split(line, '|')) {
      const std::string name = trim(cell);
      if (name.starts_with("box-")) ++headers[name.substr(0, 5)];
    }
  }
  for (char c = 'a'; c < 'g'; ++c) EXPECT_EQ(headers[std::string("box-") + c], 1) << c << "\n" << out;
}

// One kind of note seen in several rows of a column is one line naming the rows, with its
// remedy once; a kind seen once keeps its own line (#37: compare printed a note per test per
// machine, each with the same remedy).
TEST(ComparePrinters, NotesOfOneKindInOneColumnAreOneLineWithTheirRows) {
  RunRecord a1 = run("1", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000});
  RunRecord a2 = run("2", "box-a", "beta", {1'000'000'000, 1'020'000'000}, {1'000'000'000, 1'020'000'000});
  a1.noise = {{"high_cv", "tg", "CV 9 %", "re-run on a quiet machine"},
              {"high_cv", "pp", "CV 6 %", "re-run on a quiet machine"}};
  a2.noise = {{"high_cv", "tg", "CV 7 %", "re-run on a quiet machine"},
              {"first_repetition", "pp", "the first is slow", "more warmup"}};
  RunRecord b1 = run("3", "box-b", "alpha", {500'000'000, 505'000'000}, {500'000'000, 505'000'000});
  RunRecord b2 = run("4", "box-b", "beta", {500'000'000, 505'000'000}, {500'000'000, 505'000'000});
  b2.noise = {{"high_cv", "tg", "CV 8 %", "re-run on a quiet machine"}};
  auto cmp = compare(std::vector<RunRecord>{a1, a2, b1, b2}, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const std::vector<std::string> lines = noise_lines(*cmp);
  ASSERT_EQ(lines.size(), 3u) << rigbench::join(lines, "\n");
  EXPECT_EQ(lines[0],
            "box-a, 3 rows (alpha F32 · pp512 (pg) t/s; alpha F32 · tg128 (pg) t/s; beta F32 · tg128 (pg) t/s): "
            "3 notes, the first: pp: CV 6 % (-o json: each); re-run on a quiet machine")
      << rigbench::join(lines, "\n");
  EXPECT_EQ(lines[1], "beta F32 · pp512 (pg) t/s, box-a: pp: the first is slow; more warmup");
  EXPECT_EQ(lines[2], "beta F32 · tg128 (pg) t/s, box-b: tg: CV 8 %; re-run on a quiet machine");

  // Two pooled runs' notes of one kind in one cell: counted, never one of them dropped unsaid.
  RunRecord p1 = run("5", "box-c", "gamma", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000});
  RunRecord p2 = run("6", "box-c", "gamma", {1'000'000'000, 1'020'000'000}, {1'000'000'000, 1'020'000'000});
  p1.noise = {{"machine_busy", "", "other processes used 60 %", "stop them"}};
  p2.noise = {{"machine_busy", "", "other processes used 40 %", "stop them"}};
  auto pooled = compare(std::vector<RunRecord>{p1, p2}, {});
  ASSERT_TRUE(pooled) << pooled.error().message;
  const std::vector<std::string> both = noise_lines(*pooled);
  ASSERT_EQ(both.size(), 1u) << rigbench::join(both, "\n");
  EXPECT_EQ(both[0],
            "box-c, gamma F32 · pp512 (pg) t/s: 2 notes, the first: other processes used 60 % (-o json: each); "
            "stop them");
}

// A cell shows the 95 % interval of its pooled samples and carries the noise notes of the
// runs it pools that concern its test (pp rows: pp's and the run's; tg rows: tg's and the
// run's), each once, in md, csv and json.
TEST(ComparePrinters, CellsCarryTheirIntervalAndTheNoiseNotesOfTheRunsTheyPool) {
  RunRecord a1 = run("1", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000});
  RunRecord a2 = run("2", "box-a", "alpha", {1'000'000'000, 1'020'000'000}, {1'000'000'000, 1'020'000'000});
  a1.precision.ci_target_pct = 2;
  a2.precision.ci_target_pct = 5;
  const NoiseNote busy{"machine_busy", "", "machine busy: other processes used 60 % of the CPUs' time",
                       "stop other programs"};
  a1.noise = {busy, {"high_cv", "tg", "CV 9 %", "quiet the machine"}};
  a2.noise = {busy, {"outliers", "pp", "1 outlier", "re-run"}};
  const RunRecord b = run("3", "box-b", "alpha", {500'000'000, 505'000'000}, {500'000'000, 505'000'000});
  auto cmp = compare(std::vector<RunRecord>{a1, a2, b}, {});
  ASSERT_TRUE(cmp);
  const Row& tg = find_row(*cmp, "alpha F32", "tg128 (pg)");
  const Cell& cell = tg.cells[0];
  ASSERT_EQ(cell.noise.size(), 2u);  // the busy note once (both runs), tg's CV; not pp's outlier
  EXPECT_EQ(cell.noise[0].code, "machine_busy");
  EXPECT_EQ(cell.noise[1].code, "high_cv");
  EXPECT_DOUBLE_EQ(cell.ci_target_pct, 2);  // the strictest of the runs'
  EXPECT_TRUE(tg.cells[1].noise.empty());
  const Row& pp = find_row(*cmp, "alpha F32", "pp512 (pg)");
  ASSERT_EQ(pp.cells[0].noise.size(), 2u);
  EXPECT_EQ(pp.cells[0].noise[1].code, "outliers");
  // The interval of the pooled samples (4 of them), as mean_interval gives it.
  const auto ci = cell_interval(Metric::kTg, cell);
  ASSERT_TRUE(ci);
  EXPECT_DOUBLE_EQ(ci->half_width_pct, mean_interval(cell.summary)->half_width_pct);
  EXPECT_FALSE(cell_interval(Metric::kMemory, cell));

  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  char interval[32];
  std::snprintf(interval, sizeof interval, "(±%.1f %%)", ci->half_width_pct);
  EXPECT_NE(md.str().find(interval), std::string::npos) << md.str();
  EXPECT_NE(unpadded(rigbench::testing::unwrapped_rows(md.str())).find("[noise: high_cv, machine_busy]"),
            std::string::npos)
      << md.str();
  EXPECT_NE(unpadded(md.str()).find("[noise] alpha F32 · tg128 (pg) t/s, box-a: tg: CV 9 %; quiet the machine"),
            std::string::npos)
      << md.str();

  std::ostringstream csv;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kCsv, csv);
  EXPECT_NE(csv.str().find(",ci95_low,ci95_high,ci95_pct,ci_target_pct,ci_reached,ratio,"), std::string::npos)
      << csv.str();
  EXPECT_NE(csv.str().find(",high_cv;machine_busy,machine busy: other processes used 60 % of the CPUs' time; stop "
                           "other programs | tg: CV 9 %; quiet the machine\n"),
            std::string::npos)
      << csv.str();

  const auto row = json_row(*cmp, "tg128 (pg)");
  ASSERT_TRUE(row.is_object());
  const auto& c = row["cells"][0];
  EXPECT_NEAR(c["ci95_pct"].get<double>(), ci->half_width_pct, 1e-9);
  EXPECT_NEAR(c["ci95_low"].get<double>(), ci->low, 1e-9);
  EXPECT_EQ(c["ci_target_pct"], 2.0);
  EXPECT_EQ(c["ci_reached"], ci->half_width_pct <= 2);
  ASSERT_EQ(c["noise"].size(), 2u);
  EXPECT_EQ(c["noise"][1]["code"], "high_cv");
  EXPECT_EQ(c["noise"][1]["remedy"], "quiet the machine");
  EXPECT_TRUE(row["cells"][1]["ci_target_pct"].is_null());
  EXPECT_TRUE(row["cells"][1]["ci_reached"].is_null());
}

// tg of 105 tokens in 105, 35, 21 and 15 s: exactly 1, 3, 5 and 7 tokens/s.
RunRecord tg_run(const std::string& id, const std::string& commit, const std::string& time, std::vector<int64_t> ns) {
  RunRecord r = run(id, "box-a", "alpha", {1'000'000'000, 1'000'000'000}, {});
  r.build.llama_cpp_commit = commit;
  r.test_time = time;
  r.results.tg = make_throughput(105, std::move(ns));
  return r;
}

// #11: two files that share general.name ("LLaMA v2" for 7B and 13B conversions) are two models,
// labelled apart by their parameter counts (same_name/ cases).
TEST(ModelIdentity, SameNameDifferentParametersAreTwoModels) {
  auto records = three_machines();
  records.resize(2);
  for (RunRecord& r : records) r.model.name = "LLaMA v2";
  records[0].model.n_params = 292'800;
  records[0].model.fingerprint = "xxh64:1111111111111111";
  records[1].machine.hostname = "box-a";
  records[1].model.n_params = 984'192;
  records[1].model.fingerprint = "xxh64:2222222222222222";
  auto cmp = compare(records, {CompareBy::kModel, ""});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->columns,
            (std::vector<std::string>{"LLaMA v2 F32 (292.80 K params)", "LLaMA v2 F32 (984.19 K params)"}));
  EXPECT_EQ(find_row(*cmp, "box-a", "tg128 (pg)").cells[0].summary.n, 2u);  // never pooled
}

// #11: a header-only synthetic file (all-zero weights) and the real-valued file of the same
// preset share name, shape, recipe and seed; their fingerprints differ: two models.
TEST(ModelIdentity, HeaderOnlyAndRealValuedSyntheticFilesAreTwoModels) {
  auto records = three_machines();
  records.resize(1);
  records[0].model.synthetic = true, records[0].model.synthetic_values = 2, records[0].model.synthetic_seed = 42;
  records[0].model.fingerprint = "xxh64:aaaaaaaaaaaaaaaa";
  RunRecord zeros = records[0];
  zeros.record_id = "zeros";
  zeros.model.fingerprint = "xxh64:bbbbbbbbbbbbbbbb";
  zeros.results.tg = make_throughput(128, {100'000'000, 100'000'000});
  records.push_back(zeros);
  const ModelIdentities ids(records);
  EXPECT_NE(ids.of(records[0]).key, ids.of(records[1]).key);
  EXPECT_EQ(ids.of(records[0]).label, "alpha F32 (synthetic v2, seed 42) (xxh64:aaaaaaaa)");
  EXPECT_EQ(ids.of(records[1]).label, "alpha F32 (synthetic v2, seed 42) (xxh64:bbbbbbbb)");
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(find_row(*cmp, "alpha F32 (synthetic v2, seed 42) (xxh64:aaaaaaaa)", "tg128 (pg)").cells[0].summary.n, 2u);
}

// #11: the same file benched by rigbench ("llama", its general.name, fingerprinted) and
// imported from llama-bench ("stories260K", the file name, no fingerprint) is one model.
TEST(ModelIdentity, AnImportJoinsTheBenchedFileOfItsShape) {
  RunRecord benched = run("b", "box-a", "llama", {1'000'000'000}, {1'000'000'000});
  benched.model.path = "/work/shared/models/stories260K.gguf";
  RunRecord imported = run("i", "box-a", "stories260K", {900'000'000}, {900'000'000}, kCommitB);
  imported.model.fingerprint = "";
  imported.model.size_bytes = 1'171'200;  // llama-bench counts tensor bytes, not the file
  imported.model.path = "/elsewhere/stories260K.gguf";
  imported.tags = {"source:llama-bench"};
  const std::vector<RunRecord> records = {benched, imported};
  const ModelIdentities ids(records);
  EXPECT_EQ(ids.of(benched).key, ids.of(imported).key);
  EXPECT_EQ(ids.of(imported).label, "llama F32");  // the file's own name wins
  auto cmp = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->columns.size(), 2u);
  const Row& tg = find_row(*cmp, "llama F32", "tg128 (pg)");
  EXPECT_EQ(tg.cells[0].state, CellState::kMeasured);
  EXPECT_EQ(tg.cells[1].state, CellState::kMeasured);
  // Another parameter count is another model, whatever the name.
  imported.model.n_params += 1;
  const std::vector<RunRecord> two = {benched, imported};
  const ModelIdentities apart(two);
  EXPECT_NE(apart.of(benched).key, apart.of(imported).key);
  // Two llama-bench imports of different files of one shape (two fine-tunes) stay apart; of
  // one file on two machines, they are one.
  RunRecord a = imported, b = imported, c = imported;
  b.model.path = "/models/other-finetune.gguf";
  c.model.path = "/home/me/stories260K.gguf";
  const std::vector<RunRecord> imports = {a, b, c};
  const ModelIdentities by_file(imports);
  EXPECT_NE(by_file.of(a).key, by_file.of(b).key);
  EXPECT_EQ(by_file.of(a).key, by_file.of(c).key);
}

// #11: one named host whose records list GPUs differently (an older rigbench that missed the
// NVML GPUs, a CPU-only build) is one machine, not "host" and "host (2)".
TEST(MachineIdentity, ANamedHostIsOneMachineWhateverGpusItsRecordsList) {
  auto records = three_machines();
  records[1].machine.hostname = "box-a";
  records[1].machine.gpus.clear();
  EXPECT_EQ(machine_identity(records[0]).key, machine_identity(records[1]).key);
  RunRecord unnamed = records[0];
  unnamed.machine.hostname = "";
  EXPECT_EQ(machine_identity(unnamed).label, "Test CPU 9000 + NVIDIA GeForce RTX 3090");
  EXPECT_NE(machine_identity(unnamed).key, machine_identity(records[0]).key);
}

// #11 (ncmoe_sweep.jsonl): runs that differ in a knob bench does not set (llama-bench's
// n_cpu_moe) are two configurations, never pooled into "30.00 ± 21.91".
TEST(Compare, KnobsBenchDoesNotSetAreConfigurations) {
  const RunRecord gpu = moe_run("g", "rig3090", 50), moe = moe_run("m", "rig3090", 10, 30);
  const std::vector<RunRecord> records = {gpu, moe};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Cell& tg = find_row(*cmp, "qwen3moe F32", "tg128 (pg)").cells[0];
  EXPECT_EQ(tg.n_configs, 2u);
  EXPECT_EQ(tg.summary.n, 3u);
  EXPECT_NEAR(tg.summary.mean, 50.0, 0.01);
  EXPECT_EQ(tg.config.find("n_cpu_moe"), std::string::npos) << tg.config;  // at its default: not named
  EXPECT_NE(knobs_label(moe).find(" n_cpu_moe=30"), std::string::npos) << knobs_label(moe);
  // Every recorded knob keeps runs apart.
  for (const Knob& k : knobs()) {
    if (!k.compare_key) continue;
    RunRecord other = gpu;
    if (k.type == Knob::Type::kInt) other.params.*k.int_field += 1;
    else other.params.*k.text_field += "x";
    EXPECT_NE(knobs_label(other), knobs_label(gpu)) << k.key;
  }
}

// #11 (ncmoe_two_builds.jsonl): n_cpu_moe 0 on one build and 30 on another is no regression:
// each configuration is compared with itself.
TEST(Regressions, DifferentConfigurationsAcrossBuildsAreNotARegression) {
  const RunRecord old_build = moe_run("o", "rig3090", 50);
  const RunRecord new_build = moe_run("n", "rig3090", 10, 30, kCommitB, "2026-11-29T12:00:00Z");
  for (const Regression& r : find_regressions(std::vector<RunRecord>{old_build, new_build}, 0.05)) {
    EXPECT_NE(r.metric, Metric::kTg) << r.config << " " << r.change;
  }
}

// ncmoe_two_builds.jsonl by build: n_cpu_moe 0 (50 t/s) on one build and 30 (10 t/s) on the
// other are two rows of one result each, as the regressions see them: never "+400 %" of one
// build over the other, no winner, no ratio, no answer.
TEST(Compare, ByBuildRowsHoldOneConfigurationSoDifferentKnobsAreNotRanked) {
  const std::vector<RunRecord> records = {moe_run("o", "rig3090", 50),
                                          moe_run("n", "rig3090", 10, 30, kCommitB, "2026-11-29T12:00:00Z")};
  auto cmp = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(cmp) << cmp.error().message;
  ASSERT_EQ(cmp->columns.size(), 2u);
  EXPECT_TRUE(cmp->several_knobs);
  std::vector<const Row*> tg;
  for (const Row& r : cmp->rows) {
    if (r.metric == Metric::kTg) tg.push_back(&r);
  }
  ASSERT_EQ(tg.size(), 2u);
  for (const Row* r : tg) {
    const int measured = static_cast<int>(std::count_if(r->cells.begin(), r->cells.end(), [](const Cell& c) {
      return c.state == CellState::kMeasured;
    }));
    EXPECT_EQ(measured, 1) << r->knobs;
    EXPECT_EQ(r->winner, -1);
    EXPECT_EQ(r->verdict, "single result");
    for (const Cell& c : r->cells) EXPECT_TRUE(std::isnan(c.ratio) || c.ratio == 1.0) << c.ratio;
  }
  // The rows say which configuration each is: the knob that differs, at its default too.
  std::set<std::string> shown = {tg[0]->knobs_shown, tg[1]->knobs_shown};
  EXPECT_EQ(shown, (std::set<std::string>{"n_cpu_moe=0", "n_cpu_moe=30"}));
  for (Metric m : answer_metrics()) {
    const Answers a = find_answers(*cmp, m);
    EXPECT_TRUE(a.pairs.empty()) << (a.sentences.empty() ? "" : a.sentences.front());
    EXPECT_TRUE(a.sentences.empty()) << a.sentences.front();
  }
  std::ostringstream md;
  print_comparison(*cmp, find_regressions(records, 0.05), 0.05, OutputFormat::kMarkdown, md,
                   CompareExtras{{find_answers(*cmp, Metric::kTg)}});
  EXPECT_EQ(md.str().find("faster"), std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("×5.00"), std::string::npos) << md.str();
  EXPECT_NE(unpadded(md.str()).find("| qwen3moe F32 | rig3090 | n_cpu_moe=30 | tg128 (pg) t/s | - | 10.00 ± 0.08"),
            std::string::npos)
      << md.str();
  std::string flat = md.str();  // the preamble wraps at 120 columns
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  EXPECT_NE(flat.find("builds are compared only where they ran the same knobs"), std::string::npos) << md.str();
}

// By build, a configuration both builds ran is compared (the one only one build ran is a row
// of its own): 10 t/s against 12.5 t/s at n_cpu_moe 30, never 50 (n_cpu_moe 0) against 12.5.
TEST(Compare, ByBuildComparesTheConfigurationBothBuildsRan) {
  const std::vector<RunRecord> records = {moe_run("f", "rig3090", 50), moe_run("m", "rig3090", 10, 30),
                                          moe_run("n", "rig3090", 12.5, 30, kCommitB, "2026-11-29T12:00:00Z")};
  auto cmp = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Row* moe = nullptr;
  for (const Row& r : cmp->rows) {
    if (r.metric == Metric::kTg && r.knobs_shown == "n_cpu_moe=30") moe = &r;
  }
  ASSERT_NE(moe, nullptr);
  ASSERT_EQ(moe->cells.size(), 2u);
  EXPECT_NEAR(moe->cells[0].summary.mean, 10.0, 0.01);  // aaaaaaaa at n_cpu_moe 30
  EXPECT_NEAR(moe->cells[1].summary.mean, 12.5, 0.01);  // bbbbbbbb
  EXPECT_EQ(moe->cells[0].n_configs, 1u);
  EXPECT_EQ(moe->winner, 1);
  EXPECT_NEAR(moe->cells[1].ratio, 1.25, 1e-3);
  const Answers tg = find_answers(*cmp, Metric::kTg);
  ASSERT_EQ(tg.pairs.size(), 1u);
  ASSERT_EQ(tg.pairs[0].items.size(), 1u);
  EXPECT_EQ(tg.pairs[0].items[0].item, "qwen3moe F32 (n_cpu_moe=30)");
  EXPECT_NEAR(tg.pairs[0].items[0].change, 0.25, 1e-3);
}

// compare decides which knobs differ on the knobs themselves (knob_settings), not by reading the
// label back: a setting another llama-bench version recorded whose value has a space ("x y")
// was split into "main_device=x" and a knob "y", so the rows read "y z=-" and "y=- z".
TEST(Compare, ByBuildRowsNameTheSettingThatDiffersWhateverItsValueHolds) {
  RunRecord a = moe_run("a", "rig3090", 50), b = moe_run("b", "rig3090", 40);
  a.source_fields["main_device"] = "x y";
  b.source_fields["main_device"] = "x z";
  const std::vector<RunRecord> records = {a, b};
  auto cmp = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(cmp) << cmp.error().message;
  ASSERT_TRUE(cmp->several_knobs);
  std::set<std::string> shown;
  for (const Row& r : cmp->rows) {
    if (r.metric == Metric::kTg) shown.insert(r.knobs_shown);
  }
  EXPECT_EQ(shown, (std::set<std::string>{"main_device=x y", "main_device=x z"}));
  // A knob the label leaves out at its default is still one of every row's settings, at it.
  const KnobSettings settings = knob_settings(a);
  const auto moe = std::find_if(settings.begin(), settings.end(), [](const KnobSetting& k) { return k.name == "n_cpu_moe"; });
  ASSERT_NE(moe, settings.end());
  EXPECT_EQ(moe->value, "0");
  EXPECT_FALSE(moe->in_label);
  EXPECT_EQ(knobs_label(settings), knobs_label(a));
}

// By machine, each machine is compared at its best; a row whose best configurations ran
// different knobs says so (Row::knobs_differ, "(knobs differ)" by the winner), one whose
// cells ran the same knobs does not.
TEST(Compare, ByMachineSaysWhereTheBestConfigurationsRanDifferentKnobs) {
  const RunRecord a = moe_run("a", "box-a", 50);
  RunRecord b = moe_run("b", "box-b", 10, 30);
  const std::vector<RunRecord> records = {a, b};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  EXPECT_TRUE(find_row(*cmp, "qwen3moe F32", "tg128 (pg)").knobs_differ);
  EXPECT_NE(find_row(*cmp, "qwen3moe F32", "tg128 (pg)").cells[1].knobs.find("n_cpu_moe=30"), std::string::npos);
  const Table t = compare_table(*cmp);
  std::ostringstream md;
  render(t, OutputFormat::kMarkdown, md);
  EXPECT_NE(md.str().find("box-a (knobs differ)"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("(knobs differ): the cells show each machine at its best configuration"), std::string::npos)
      << md.str();
  // The answers say so too (the review found "box-a ... faster" with no word of it).
  const Answers tg = find_answers(*cmp, Metric::kTg);
  ASSERT_FALSE(tg.pairs.empty());
  ASSERT_FALSE(tg.pairs[0].items.empty());
  EXPECT_NE(tg.pairs[0].items[0].item.find("(knobs differ)"), std::string::npos) << tg.pairs[0].items[0].item;
  b.params.n_cpu_moe = 0;
  const std::vector<RunRecord> same = {a, b};
  auto alike = compare(same, {});
  ASSERT_TRUE(alike);
  for (const Row& r : alike->rows) EXPECT_FALSE(r.knobs_differ) << r.test;
}

TEST(Regressions, WelchAcrossBuildsHandComputed) {
  // Before: {5, 7} t/s; after: {1, 3} t/s. Welch: t = -2 sqrt(2), df = 2, one-sided
  // p = 1/2 - sqrt(0.2) = 0.0527864 (core/significance's hand-computed case).
  const std::vector<RunRecord> records = {
      tg_run("new", kCommitB, "2026-11-29T12:00:00Z", {105'000'000'000, 35'000'000'000}),
      tg_run("old", kCommitA, "2026-11-29T10:00:00Z", {21'000'000'000, 15'000'000'000}),
  };
  auto regs = find_regressions(records, 0.05);
  const Regression* tg = nullptr;
  for (const Regression& r : regs) {
    if (r.metric == Metric::kTg) tg = &r;
  }
  ASSERT_NE(tg, nullptr);
  EXPECT_EQ(tg->from_build, "rigbench 0.1.0 / llama.cpp aaaaaaaa");  // the earlier one
  EXPECT_EQ(tg->to_build, "rigbench 0.1.0 / llama.cpp bbbbbbbb");
  EXPECT_DOUBLE_EQ(tg->from.mean, 6);
  EXPECT_DOUBLE_EQ(tg->to.mean, 2);
  EXPECT_NEAR(tg->change, -2.0 / 3.0, 1e-12);
  EXPECT_NEAR(tg->p_slower, 0.5 - std::sqrt(0.2), 1e-12);
  EXPECT_EQ(tg->verdict, Change::kWithinNoise);  // 0.0528 is not below 0.05
  auto at_10 = find_regressions(records, 0.10);
  for (const Regression& r : at_10) {
    if (r.metric == Metric::kTg) {
      EXPECT_EQ(r.verdict, Change::kSlower);
    }
    if (r.metric == Metric::kPp) {
      EXPECT_EQ(r.verdict, Change::kWithinNoise);  // identical samples
    }
  }
  std::ostringstream md;
  print_comparison(*compare(records, {}), at_10, 0.10, OutputFormat::kMarkdown, md);
  EXPECT_NE(unpadded(rigbench::testing::unwrapped_rows(md.str())).find(
                "| box-a | alpha F32 | tg105 (pg) t/s | rigbench 0.1.0 / llama.cpp aaaaaaaa | rigbench 0.1.0 / "
                "llama.cpp bbbbbbbb | 6.00 | 2.00 | -66.7 % | 0.0528 | slower |"),
            std::string::npos)
      << md.str();
}

// llama-bench csv rows (summary-only: mean and sd, no samples) of issue 21282: host A
// 25231.96 ± 17262.95, host B 27147.01 ± 1477 t/s on pp512. They overlap: no winner.
RunRecord summary_run(const std::string& id, const std::string& host, double mean, double sd, std::size_t n,
                      const std::string& commit = kCommitA, const std::string& time = "2026-11-29T10:00:00Z") {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = host;
  r.model.name = "qwen35";
  r.build.llama_cpp_commit = commit;
  r.test_time = time;
  r.results.pp = make_summary_throughput(512, n, mean, sd);
  r.results.tg.reset();
  r.results.ttft.reset();
  r.memory.buffers.clear();
  r.energy = {};
  r.cost.reset();
  return r;
}

TEST(Compare, SummaryOnlyCellsKeepTheirSdAndOverlapHasNoWinner) {
  const std::vector<RunRecord> records = {summary_run("1", "A", 25231.96, 17262.95, 0),
                                          summary_run("2", "B", 27147.01, 1477.0, 0)};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Row& row = find_row(*cmp, "qwen35 F32", "pp512 (pg)");
  ASSERT_EQ(row.cells.size(), 2u);
  EXPECT_EQ(row.winner, -1);
  EXPECT_EQ(row.verdict, "untested");  // a summary of unknown n: Welch's test cannot take it
  EXPECT_EQ(row.cells[0].summary.stddev, 17262.95);
  EXPECT_EQ(row.cells[1].summary.stddev, 1477.0);
  EXPECT_TRUE(row.cells[0].summary_only);
  EXPECT_EQ(cell_text(Metric::kPp, row.cells[0]), "25231.96 ± 17262.95 (summary)");

  // Clearly apart (27147.01 ± 1477 against 5000 ± 100) over 5 repetitions each: B wins; over an
  // unknown number (a csv without -r N), untested, as the answers say.
  const std::vector<RunRecord> apart = {summary_run("1", "A", 5000, 100, 5),
                                        summary_run("2", "B", 27147.01, 1477.0, 5)};
  auto cmp2 = compare(apart, {});
  ASSERT_TRUE(cmp2);
  EXPECT_EQ(find_row(*cmp2, "qwen35 F32", "pp512 (pg)").winner, 1);
  EXPECT_LT(find_row(*cmp2, "qwen35 F32", "pp512 (pg)").p, 0.05);
  // The same overlap as mean ± sd over 5 each (25231.96 ± 17262.95 against 27147.01 ± 1477): Welch's p 0.82.
  const std::vector<RunRecord> overlap = {summary_run("1", "A", 25231.96, 17262.95, 5),
                                          summary_run("2", "B", 27147.01, 1477.0, 5)};
  auto cmp4 = compare(overlap, {});
  ASSERT_TRUE(cmp4);
  EXPECT_EQ(find_row(*cmp4, "qwen35 F32", "pp512 (pg)").verdict, "no clear winner");
  // A spread the file did not state: no winner can be named.
  const std::vector<RunRecord> no_sd = {summary_run("1", "A", 5000, std::nan(""), 0),
                                        summary_run("2", "B", 27147.01, 1477.0, 0)};
  auto cmp3 = compare(no_sd, {});
  ASSERT_TRUE(cmp3);
  EXPECT_EQ(find_row(*cmp3, "qwen35 F32", "pp512 (pg)").verdict, "untested");
}

TEST(Compare, SummaryOnlyPoolsWithSamplesOfTheSameConfiguration) {
  // Two runs of one configuration on one host: samples {1000, 3000} t/s and a summary
  // 2000 ± 1414.2 over n = 2 (the same two values): pooled as the four values {1000, 3000, 1000, 3000} would be.
  RunRecord with_samples = summary_run("1", "A", 0, 0, 0);
  with_samples.results.pp = make_throughput(512, {512'000'000, 170'666'667});
  const std::vector<RunRecord> records = {with_samples, summary_run("2", "A", 2000, std::sqrt(2e6), 2)};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Row& row = find_row(*cmp, "qwen35 F32", "pp512 (pg)");
  ASSERT_EQ(row.cells.size(), 1u);
  const Cell& c = row.cells[0];
  EXPECT_EQ(c.summary.n, 4u);
  EXPECT_NEAR(c.summary.mean, 2000, 1e-3);
  EXPECT_NEAR(c.summary.stddev, std::sqrt(4e6 / 3), 1e-2);
  EXPECT_TRUE(c.summary_only);
}

TEST(Regressions, SummaryOnlyBuildsAreTestedFromTheirStatistics) {
  // The same host across two builds, csv rows with the repetitions given (-r 5).
  std::vector<RunRecord> records = {summary_run("1", "A", 25231.96, 17262.95, 5, kCommitA, "2026-11-29T10:00:00Z"),
                                    summary_run("2", "A", 27147.01, 1477.0, 5, kCommitB, "2026-11-29T12:00:00Z")};
  auto regs = find_regressions(records, 0.05);
  ASSERT_EQ(regs.size(), 1u);
  EXPECT_EQ(regs[0].verdict, Change::kWithinNoise);
  EXPECT_EQ(regs[0].from.stddev, 17262.95);
  // Repetitions unknown: nothing to test with.
  records[0].results.pp->tps.n = 0;
  regs = find_regressions(records, 0.05);
  ASSERT_EQ(regs.size(), 1u);
  EXPECT_EQ(regs[0].verdict, Change::kTooFewSamples);
  // Far apart with n = 5 each: slower.
  records[0] = summary_run("1", "A", 30000, 100, 5, kCommitA, "2026-11-29T10:00:00Z");
  records[1] = summary_run("2", "A", 20000, 100, 5, kCommitB, "2026-11-29T12:00:00Z");
  regs = find_regressions(records, 0.05);
  ASSERT_EQ(regs.size(), 1u);
  EXPECT_EQ(regs[0].verdict, Change::kSlower);
}

TEST(Regressions, FasterTtftDirectionAndTooFewSamples) {
  std::vector<RunRecord> records = {
      tg_run("old", kCommitA, "2026-11-29T10:00:00Z", {21'000'000'000}),
      tg_run("new", kCommitB, "2026-11-29T12:00:00Z", {15'000'000'000}),
  };
  records[0].results.ttft = make_latency({100'000'000, 101'000'000, 99'000'000});
  records[1].results.ttft = make_latency({150'000'000, 151'000'000, 149'000'000});
  for (const Regression& r : find_regressions(records, 0.05)) {
    if (r.metric == Metric::kTg) {
      EXPECT_EQ(r.verdict, Change::kTooFewSamples);
    }
    if (r.metric == Metric::kTtft) {
      EXPECT_EQ(r.verdict, Change::kSlower);  // more ms is slower
      EXPECT_NEAR(r.change, 0.5, 1e-12);
    }
  }
  // Different machines are never compared across builds.
  records[1].machine.hostname = "box-b";
  EXPECT_TRUE(find_regressions(records, 0.05).empty());
}

// One machine and model under two builds: the tg and pp rows say which build each is (a
// build column in md, csv and json; the HTML report's tables too), where they read alike before.
TEST(ComparePrinters, TwoBuildsOfOneMachineAndModelAreRowsThatNameTheirBuild) {
  const std::vector<RunRecord> records = {
      run("1", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000}, kCommitA),
      run("2", "box-a", "alpha", {500'000'000, 505'000'000}, {500'000'000, 505'000'000}, kCommitB),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  EXPECT_TRUE(cmp->several_builds);
  std::set<std::string> tg_builds;
  for (const Row& r : cmp->rows) {
    if (r.test == "tg128 (pg)") tg_builds.insert(r.build);
  }
  EXPECT_EQ(tg_builds, (std::set<std::string>{"rigbench 0.1.0 / llama.cpp aaaaaaaa", "rigbench 0.1.0 / llama.cpp bbbbbbbb"}));
  std::ostringstream md, json;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  EXPECT_NE(md.str().find("| model     | build "), std::string::npos) << md.str();
  const std::string rows = unpadded(rigbench::testing::unwrapped_rows(md.str()));  // (a build may wrap after " / ")
  EXPECT_NE(rows.find("| alpha F32 | rigbench 0.1.0 / llama.cpp aaaaaaaa | tg128 (pg) t/s |"), std::string::npos)
      << md.str();
  EXPECT_NE(rows.find("| alpha F32 | rigbench 0.1.0 / llama.cpp bbbbbbbb | tg128 (pg) t/s |"), std::string::npos)
      << md.str();
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, json);
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["rows"][0]["build"], "rigbench 0.1.0 / llama.cpp aaaaaaaa");
  // One build: no build column, as before.
  auto one = compare(three_machines(), {});
  ASSERT_TRUE(one);
  EXPECT_FALSE(one->several_builds);
  std::ostringstream md1;
  print_comparison(*one, {}, 0.05, OutputFormat::kMarkdown, md1);
  EXPECT_EQ(md1.str().find("build"), md1.str().find("builds"));  // only in the regressions line
}

// Energy flags (EnergyInfo::flags) are shown with the J/token and cost cells they qualify,
// and said once below the table; json and csv carry them as energy_flags.
// rigbench's runs and llama-bench's imported rows of one machine, model and llama.cpp commit
// line up in one row, side by side, each column naming its tool; the row's build is the commit
// alone. Before, each tool had rows of its own ("llama-bench / llama.cpp aaaaaaaa" under one
// machine column), and the regressions called the tool change a build that got slower.
TEST(Compare, LlamaBenchImportsLineUpBesideRigbenchRunsOfTheSameCommit) {
  RunRecord lb = run("lb", "box-a", "alpha", {1'000'000'000, 1'010'000'000}, {1'000'000'000, 1'010'000'000});
  lb.tags = {"source:llama-bench"};
  lb.build.rigbench_version.clear();
  const RunRecord rb = run("rb", "box-a", "alpha", {500'000'000, 505'000'000}, {500'000'000, 505'000'000});
  const RunRecord other = run("ob", "box-b", "alpha", {500'000'000, 505'000'000}, {500'000'000, 505'000'000});
  const std::vector<RunRecord> records = {lb, rb, other};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const std::string rigbench = "rigbench " + rb.build.rigbench_version;
  EXPECT_EQ(cmp->columns, (std::vector<std::string>{"box-a \u00b7 llama-bench", "box-a \u00b7 " + rigbench,
                                                    "box-b \u00b7 " + rigbench}));
  const Row& pp = find_row(*cmp, "alpha F32", "pp512 (pg)");
  ASSERT_EQ(pp.cells.size(), 3u);
  EXPECT_EQ(pp.cells[0].state, CellState::kMeasured);
  EXPECT_EQ(pp.cells[1].state, CellState::kMeasured);
  EXPECT_NEAR(pp.cells[1].ratio, 2, 0.01);  // rigbench's run against llama-bench's, in one row
  EXPECT_EQ(pp.build, "llama.cpp aaaaaaaa");
  EXPECT_EQ(std::count_if(cmp->rows.begin(), cmp->rows.end(), [](const Row& r) { return r.test == "pp512 (pg)"; }), 1);
  EXPECT_FALSE(cmp->several_builds);  // one commit: no build column
  // By build the columns stay the tool and commit together.
  auto by_build = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(by_build);
  EXPECT_EQ(by_build->columns,
            (std::vector<std::string>{"llama-bench / llama.cpp aaaaaaaa", rigbench + " / llama.cpp aaaaaaaa"}));
  // Two tools of one commit are not a regression.
  EXPECT_TRUE(find_regressions(records, 0.05).empty());
  // One tool: the columns are the machines alone, as before.
  auto one_tool = compare(std::vector<RunRecord>{rb, other}, {});
  ASSERT_TRUE(one_tool);
  EXPECT_EQ(one_tool->columns, (std::vector<std::string>{"box-a", "box-b"}));
}

// The answers' ranking wraps between its entries, never inside a column's name.
TEST(ComparePrinters, RankingWrapsBetweenEntriesOnly) {
  Table t({{"item", "model"}, {"ranking", "ranking", Align::kLeft, false, false, true, " > "}});
  std::string ranking;
  for (int i = 0; i < 6; ++i) ranking += (i ? " > " : "") + std::string("machine-") + char('a' + i) + " \u00b7 rigbench 0.1.0 1234.56";
  t.add_row({TableCell::str("m"), TableCell::str(ranking)});
  const std::string md = markdown_table(t);
  std::istringstream lines(md);
  int continuation = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("|   ", 0) == 0) ++continuation;
    EXPECT_LE(display_width(line), kMarkdownWidth) << line;
    if (line.find("machine-") != std::string::npos)
      EXPECT_NE(line.find("rigbench 0.1.0 1234.56"), std::string::npos) << "an entry cut: " << line;
  }
  EXPECT_GT(continuation, 0) << md;
}

TEST(ComparePrinters, EnergyFlagsAreShownWithTheFiguresTheyQualify) {
  RunRecord a = run("1", "box-a", "alpha", {1'000'000'000, 1'000'000'000}, {1'000'000'000, 1'000'000'000});
  a.energy.method = "counter";
  a.energy.tg = PhaseEnergyInfo{1.0, 2.0, 2.0, 0.0156};
  a.energy.flags = {"sources_disagree", "below_update_period"};
  a.cost = CostInfo{};
  a.cost->currency = "EUR";
  a.cost->gross_per_mtok = 0.0013;
  RunRecord b = run("2", "box-b", "alpha", {1'000'000'000, 1'000'000'000}, {1'000'000'000, 1'000'000'000});
  b.energy.method = "counter";
  b.energy.tg = PhaseEnergyInfo{1.0, 2.0, 2.0, 0.0200};
  auto cmp = compare(std::vector<RunRecord>{a, b}, {});
  ASSERT_TRUE(cmp);
  for (const Row& r : cmp->rows) {
    if (r.metric == Metric::kTgEnergy || r.metric == Metric::kCost) {
      EXPECT_EQ(r.cells[0].energy_flags, (std::vector<std::string>{"below_update_period", "sources_disagree"}));
      if (r.metric == Metric::kTgEnergy) EXPECT_TRUE(r.cells[1].energy_flags.empty());
    } else {
      for (const Cell& c : r.cells) EXPECT_TRUE(c.energy_flags.empty()) << r.test;
    }
  }
  std::ostringstream md, json, csv;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  const std::string rows = unpadded(rigbench::testing::unwrapped_rows(md.str()));
  EXPECT_NE(rows.find("0.0156 [below_update_period, sources_disagree]"), std::string::npos) << md.str();
  EXPECT_NE(rows.find("0.0013 [below_update_period, sources_disagree]"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("below_update_period = a phase shorter than the meter's update period;"), std::string::npos)
      << md.str();
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, json);
  bool seen = false;
  const auto doc = nlohmann::json::parse(json.str());
  for (const auto& row : doc["rows"]) {
    if (row["metric"] != "tg_j_per_token") continue;
    EXPECT_EQ(row["cells"][0]["energy_flags"], nlohmann::json({"below_update_period", "sources_disagree"}));
    EXPECT_EQ(row["cells"][1]["energy_flags"], nlohmann::json::array());
    seen = true;
  }
  EXPECT_TRUE(seen) << json.str();
  print_comparison(*cmp, {}, 0.05, OutputFormat::kCsv, csv);
  EXPECT_NE(csv.str().find(",below_update_period;sources_disagree,,\n"), std::string::npos) << csv.str();
}

}  // namespace
}  // namespace rigbench::report

namespace rigbench::report {
namespace {

// A suite record on `host`: one prompt per TTFT value (ms), one run each, 11 tokens in
// `gen_ms` ms (10 after the first: 10000 / gen_ms t/s).
RunRecord suite_run(const std::string& id, const std::string& host, const std::string& hash,
                    std::vector<double> ttft_ms, double gen_ms) {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = host;
  r.model.name = "alpha";
  r.model.fingerprint = "xxh64:alpha";
  r.results = Results{};
  SuiteResult s;
  s.name = "builtin";
  s.hash = hash;
  s.runs = 1;
  for (std::size_t i = 0; i < ttft_ms.size(); ++i) {
    PromptResult p;
    p.id = "p" + std::to_string(i);
    p.category = i % 2 ? "chat" : "code";
    p.n_generated = {11};
    p.ttft_ns = {static_cast<int64_t>(ttft_ms[i] * 1e6)};
    p.gen_ns = {static_cast<int64_t>(gen_ms * 1e6)};
    s.prompts.push_back(p);
  }
  r.results.suite = s;
  return r;
}

TEST(Compare, SuiteMediansPerMachineRankedByTheSameRule) {
  const std::vector<RunRecord> records = {
      suite_run("1", "box-a", "xxh64:1111111122222222", {10, 11, 12, 13}, 100),  // 100 t/s
      suite_run("2", "box-b", "xxh64:1111111122222222", {20, 22, 24, 26}, 50),   // 200 t/s
      suite_run("3", "box-b", "xxh64:3333333344444444", {5, 5, 5, 5}, 10),       // another suite
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Row& ttft = find_row(*cmp, "alpha F32", "suite builtin [11111111] TTFT");
  EXPECT_EQ(ttft.metric, Metric::kSuiteTtft);
  EXPECT_DOUBLE_EQ(ttft.cells[0].summary.median, 11.5);
  EXPECT_DOUBLE_EQ(ttft.cells[1].summary.median, 23);
  EXPECT_EQ(ttft.cells[0].summary.n, 4u);
  EXPECT_EQ(ttft.winner, 0);  // {10..13} and {20..26}: mean ± sd apart
  const Row& gen = find_row(*cmp, "alpha F32", "suite builtin [11111111] gen");
  EXPECT_EQ(gen.winner, 1);  // 200 against 100 t/s: box-b generates faster, box-a answers sooner
  // The other suite is its own row, with one machine.
  const Row& other = find_row(*cmp, "alpha F32", "suite builtin [33333333] TTFT");
  EXPECT_EQ(other.verdict, "single result");
  EXPECT_EQ(cell_text(Metric::kSuiteTtft, ttft.cells[0]), "p50 11.50 · p95 12.85");
}

// An embedding record on `host`: single-query latencies (ms) at batch 1 over `n_queries` of
// the query set `set`.
RunRecord embed_run(const std::string& id, const std::string& host, const std::string& set, int n_queries,
                    const std::vector<double>& latency_ms) {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = host;
  r.model.name = "alpha";
  r.model.fingerprint = "xxh64:alpha";
  r.results = Results{};
  r.params.n_prompt = r.params.n_gen = 0;
  EmbeddingResult e;
  e.pooling = "cls";
  e.query_set = set;
  e.n_queries = n_queries;
  std::vector<int64_t> ns;
  for (double ms : latency_ms) ns.push_back(static_cast<int64_t>(ms * 1e6));
  e.latency = make_latency(ns);
  r.results.embedding = e;
  return r;
}

// A new user's itl row read "p50 0.21 · p99 540" against "p50 0.22 · p99 553" under "×0.33": the
// ratio and the winner are the mean's, which the cell now shows first.
TEST(Compare, AnItlCellShowsTheMeanItsRatioAndWinnerAreOf) {
  Cell c;
  c.state = CellState::kMeasured;
  c.summary.mean = 0.62, c.summary.median = 0.21, c.summary.p99 = 540;
  EXPECT_EQ(cell_text(Metric::kItl, c), "mean 0.62 · p50 0.21 · p99 540.00");
}

TEST(Compare, EmbeddingLatencyPerMachineWithPercentilesAndTheSameWinnerRule) {
  const std::vector<RunRecord> records = {
      embed_run("1", "box-a", "builtin", 4, {10, 11, 12, 13}),   // mean 11.5, sd 1.29
      embed_run("2", "box-b", "builtin", 4, {20, 22, 24, 26}),   // mean 23, sd 2.58: apart
      embed_run("3", "box-c", "builtin", 4, {11, 12, 13, 14}),   // mean 12.5: overlaps box-a
      embed_run("4", "box-a", "mine.txt", 2, {5, 6}),            // another query set: its own row
  };
  auto cmp = compare(std::span<const RunRecord>(records).first(2), {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Row& row = find_row(*cmp, "alpha F32", "embed latency b1 builtin (4 queries)");
  EXPECT_EQ(row.metric, Metric::kEmbedLatency);
  EXPECT_EQ(row.winner, 0);  // lower latency wins, mean ± sd apart
  EXPECT_DOUBLE_EQ(row.cells[0].summary.median, 11.5);
  EXPECT_EQ(cell_text(Metric::kEmbedLatency, row.cells[0]), "p50 11.50 · p95 12.85 · p99 12.97");
  EXPECT_NEAR(row.cells[1].ratio, 11.5 / 23, 1e-12);  // > 1 is better: box-b is half as fast

  auto all = compare(records, {});
  ASSERT_TRUE(all) << all.error().message;
  const Row& three = find_row(*all, "alpha F32", "embed latency b1 builtin (4 queries)");
  // box-a and box-c overlap as mean ± sd (11.5 ± 1.29 against 12.5 ± 1.29: Welch's p 0.31),
  // but box-a is 1 ms faster on every one of the four queries: paired by query, it wins.
  EXPECT_EQ(three.winner, 0);
  EXPECT_EQ(three.verdict, "");
  EXPECT_DOUBLE_EQ(three.p, 0);
  EXPECT_GT(welch_p(three.cells[0], three.cells[2]), 0.25);
  EXPECT_EQ(find_row(*all, "alpha F32", "embed latency b1 mine.txt (2 queries)").verdict, "single result");
  // md shows the percentiles, csv/json every statistic of the row.
  std::ostringstream md, csv;
  print_comparison(*all, {}, 0.05, OutputFormat::kMarkdown, md);
  // (the winner's cell wraps here: each of its pieces is bold)
  std::string shown = unpadded(rigbench::testing::unwrapped_rows(md.str()));
  std::erase(shown, '*');
  EXPECT_NE(shown.find("p50 11.50 · p95 12.85 · p99 12.97"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("embed latency rows"), std::string::npos) << md.str();
  print_comparison(*all, {}, 0.05, OutputFormat::kCsv, csv);
  EXPECT_NE(csv.str().find("embed_latency_ms,ms,embed latency b1 builtin (4 queries),"), std::string::npos)
      << csv.str();
}

// A new user saw "memory n_ctx 0" in compare over embed records: an embedding run creates no
// context of its own size, and a knob that does not apply (n_ctx, n_depth and the KV cache
// types for an embedding run; every knob for a served run) is not shown at its stored default.
TEST(Compare, AKnobThatDoesNotApplyIsNotShown) {
  RunRecord e = embed_run("1", "box-a", "builtin", 4, {10, 11, 12, 13});
  e.params.n_ctx = 0;  // as embed stores it; the record keeps its memory buffers
  const std::vector<RunRecord> records = {e, testing::sample_record("2")};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Row& mem = find_row(*cmp, "alpha F32", "");
  EXPECT_EQ(mem.metric, Metric::kMemory);
  EXPECT_EQ(find_row(*cmp, "Model, \"quoted\" | piped F32", "n_ctx 640").metric, Metric::kMemory);  // bench's
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  EXPECT_NE(unpadded(md.str()).find("| alpha F32 | memory | - | 1.55 MiB | |"), std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("n_ctx 0"), std::string::npos) << md.str();
  EXPECT_EQ(knobs_label(e), "ngl=-1 lm=auto n_batch=2048 n_ubatch=512 fa=auto poll=50 cpu_strict=0 threads=8");
  RunRecord served = testing::sample_record();
  served.server = ServerRun{};
  served.params.n_threads = 0;  // as serve-bench stores it: the server's threads are not known
  EXPECT_EQ(knobs_label(served), "");
  const auto memory = memory_by_device(records);
  ASSERT_EQ(memory.size(), 2u);
  for (const DeviceMemory& d : memory) EXPECT_EQ(d.n_ctx, d.model == "alpha F32" ? 0 : 640) << d.model;
}

// compare -o json and -o csv carry every percentile of the suite and embedding rows (md shows
// p50 · p95 [· p99] to stay within 120 columns): {10, 11, 12, 13} ms, interpolated as numpy.
TEST(Compare, JsonAndCsvCarryP50P90P95P99OfSuiteAndEmbeddingRows) {
  const std::vector<RunRecord> records = {
      suite_run("1", "box-a", "xxh64:1111111122222222", {10, 11, 12, 13}, 100),
      embed_run("2", "box-a", "builtin", 4, {10, 11, 12, 13}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const std::vector<double> want = {11.5, 12.7, 12.85, 12.97};
  std::ostringstream json;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, json);
  std::set<std::string> seen;
  const auto doc = nlohmann::json::parse(json.str());
  for (const auto& row : doc["rows"]) {
    if (row["metric"] != "suite_ttft_ms" && row["metric"] != "embed_latency_ms") continue;
    seen.insert(row["metric"].get<std::string>());
    const auto& c = row["cells"][0];
    const std::vector<double> got = {c["median"], c["p90"], c["p95"], c["p99"]};
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-9) << row["metric"] << " " << i;
  }
  EXPECT_EQ(seen, (std::set<std::string>{"suite_ttft_ms", "embed_latency_ms"}));

  std::ostringstream csv;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kCsv, csv);
  std::istringstream lines(csv.str());
  std::string line;
  auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::stringstream ss(l);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    return f;
  };
  std::getline(lines, line);
  const auto header = split(line);
  auto at = [&](const std::string& key) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), key) - header.begin());
  };
  int rows = 0;
  while (std::getline(lines, line)) {
    const auto f = split(line);
    if (f.size() <= at("p99") || (f[at("metric")] != "suite_ttft_ms" && f[at("metric")] != "embed_latency_ms"))
      continue;
    ++rows;
    const std::vector<std::string> keys = {"median", "p90", "p95", "p99"};
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(std::stod(f[at(keys[i])]), want[i], 1e-9) << line;
  }
  EXPECT_EQ(rows, 2);
}

TEST(Compare, TgPerTokenLatencyIsARowOfItsOwn) {
  auto records = three_machines();
  records[0].results.tg = make_throughput(128, {1'000'000'000}, std::vector<int64_t>(128, 7'812'500));
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Row& itl = find_row(*cmp, "alpha F32", "itl tg128 (pg)");
  EXPECT_EQ(itl.metric, Metric::kItl);
  EXPECT_DOUBLE_EQ(itl.cells[0].summary.p99, 7.8125);
  EXPECT_EQ(itl.verdict, "single result");
}

// A -pg test (pp and tg of the same repetitions, tg after the prompt is in the KV cache) is
// another measurement than the plain pp and tg tests of the same token counts and knobs: its
// rows are its own ("tg32 (pg)", as bench labels them), never pooled with the plain ones.
TEST(Compare, PgTestsAreRowsOfTheirOwnNeverPooledWithPlainTests) {
  auto plain_pp = run("1", "box-a", "alpha", {1'000'000'000, 1'000'000'000}, {});
  plain_pp.params.n_prompt = 512;
  plain_pp.params.n_gen = 0;
  plain_pp.results.tg.reset();
  auto plain_tg = run("2", "box-a", "alpha", {}, {250'000'000, 250'000'000, 250'000'000});
  plain_tg.params.n_prompt = 0;
  plain_tg.params.n_gen = 128;
  plain_tg.results.pp.reset();
  plain_tg.results.ttft.reset();
  plain_tg.results.tg = make_throughput(128, {250'000'000, 250'000'000, 250'000'000});  // 512 t/s
  // tg at 128 t/s
  auto pg = run("3", "box-a", "alpha", {500'000'000, 500'000'000}, {1'000'000'000, 1'000'000'000});
  const std::vector<RunRecord> records = {plain_pp, plain_tg, pg};
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Row& tg = find_row(*cmp, "alpha F32", "tg128");
  ASSERT_EQ(tg.cells.size(), 1u);
  EXPECT_EQ(tg.cells[0].summary.n, 3u);  // the plain tg run's 3 repetitions alone
  EXPECT_EQ(tg.cells[0].n_configs, 1);
  EXPECT_DOUBLE_EQ(tg.cells[0].summary.mean, 512);
  const Row& pg_tg = find_row(*cmp, "alpha F32", "tg128 (pg)");
  ASSERT_EQ(pg_tg.cells.size(), 1u);
  EXPECT_EQ(pg_tg.cells[0].summary.n, 2u);
  EXPECT_DOUBLE_EQ(pg_tg.cells[0].summary.mean, 128);
  EXPECT_EQ(find_row(*cmp, "alpha F32", "pp512").cells[0].summary.n, 2u);
  EXPECT_EQ(find_row(*cmp, "alpha F32", "pp512 (pg)").cells[0].summary.n, 2u);
  EXPECT_EQ(find_row(*cmp, "alpha F32", "ttft pp512 (pg)").metric, Metric::kTtft);
  // The regressions group by the same test names: a pg run is never the plain run's "from" or "to".
  auto later_pg = pg;
  later_pg.record_id = "4";
  later_pg.build.llama_cpp_commit = kCommitB;
  const std::vector<RunRecord> across = {plain_tg, later_pg};
  for (const Regression& r : find_regressions(across, 0.05)) ADD_FAILURE() << r.test << " compared across builds";
}

}  // namespace
}  // namespace rigbench::report
