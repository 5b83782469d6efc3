// End-to-end: `rigbench fit --device` shows the predicted tg and pp beside the roofline bound,
// with their basis, learned from the shipped published results; `fit --predict-accuracy` holds
// each device out in turn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::run_process;

TEST(SpeedPredictionE2E, FitDeviceShowsThePredictionBesideTheBound) {
  const auto r = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-8B", "--quant", "Q4_K_M", "--device",
                              "RTX 3060 12GB", "-c", "4096", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json d = json::parse(r.out)["devices"][0];
  const double bound = d["tg_bound_tps"].get<double>(), pred = d["tg_predicted_tps"].get<double>();
  EXPECT_GT(pred, 0);
  EXPECT_LT(pred, bound);  // an efficiency below 1 of the roofline
  EXPECT_LT(d["tg_predicted_low_tps"].get<double>(), pred);
  EXPECT_GT(d["tg_predicted_high_tps"].get<double>(), pred);
  const std::string basis = d["prediction_basis"];
  EXPECT_NE(basis.find("tg: "), std::string::npos) << basis;
  EXPECT_NE(basis.find("nearest: "), std::string::npos) << basis;
  EXPECT_NE(basis.find("pp: no basis (the device's compute is not in the catalog)"), std::string::npos) << basis;
}

TEST(SpeedPredictionE2E, RankCarriesThePredictionOfEachOptionAndNoneForAPartialOffload) {
  const std::vector<std::string> rank = {RIGBENCH_BIN, "fit",   "--preset", "Llama-3.1-70B", "--quant", "Q4_K_M",
                                         "--rank",     "price", "-c",       "8192"};
  auto with = [&](const std::vector<std::string>& extra) { return run_process(testing::argv_plus(rank, extra)); };
  const auto j = with({"-o", "json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json report = json::parse(j.out);
  int predicted = 0, partial = 0;
  for (const json& o : report["options"]) {
    const std::string basis = o["prediction_basis"];
    if (o["verdict"] == "partial") {
      ++partial;
      EXPECT_TRUE(o["tg_predicted_tps"].is_null());
      EXPECT_NE(basis.find("no basis (not all on the device"), std::string::npos) << basis;
      continue;
    }
    if (o["tg_predicted_tps"].is_null()) continue;
    ++predicted;
    EXPECT_LE(o["tg_predicted_tps"].get<double>(), o["tg_bound_tps"].get<double>()) << o["device"];
    EXPECT_NE(basis.find("nearest: "), std::string::npos) << basis;
  }
  EXPECT_GE(predicted, 5);  // the 70B on 2-4 GPUs of a kind and the large unified machines
  EXPECT_EQ(partial, 1);    // the cheapest GPU with partial offload (fit/ranking.h)
  const auto md = with({});
  const auto wide = with({"--wide"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("tg pred t/s"), std::string::npos);  // md keeps to 120 columns
  EXPECT_NE(wide.out.find("tg pred t/s"), std::string::npos) << wide.out;
}

TEST(SpeedPredictionE2E, VsSaysEachDevicesPredictedTgAndNoneWhereTheModelDoesNotFit) {
  const auto r = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "--quant", "Q4_K_M", "-c", "8192",
                              "--vs", "M3 Ultra 512GB (Mac Studio),RTX 5090", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json vs = json::parse(r.out)["vs"];
  // The Mac's own published 70B tg128 (14.41 t/s, geerlingguy/beowulf-ai-cluster#17) is its basis.
  EXPECT_NEAR(vs["a_tg_predicted_tps"].get<double>(), 14.41, 0.5);
  EXPECT_TRUE(vs["b_tg_predicted_tps"].is_null());  // 32 GiB: the 70B does not fit whole
  const std::string sentence = vs["sentence"];
  EXPECT_NE(sentence.find("Predicted tg (from published results, not a measurement): M3 Ultra 512GB (Mac Studio) "),
            std::string::npos)
      << sentence;
  EXPECT_NE(sentence.find("RTX 5090 none (not all on the device"), std::string::npos) << sentence;
}

TEST(SpeedPredictionE2E, PredictAccuracyHoldsEachDeviceOut) {
  const auto r = run_process({RIGBENCH_BIN, "fit", "--predict-accuracy", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rows = json::parse(r.out);
  ASSERT_GT(rows.size(), 10u);
  int predicted = 0;
  for (const json& row : rows) {
    EXPECT_TRUE(row["phase"] == "tg" || row["phase"] == "pp");
    EXPECT_GT(row["measured_tps"].get<double>(), 0);
    if (!row["error"].is_null()) ++predicted;
  }
  EXPECT_GE(predicted, 10);  // 17 of 27 (tg 12 of 17, pp 5 of 10) with the 28 shipped sources
}

TEST(SpeedPredictionE2E, ABadDatasetIsNamedAndNoneMeansNoPrediction) {
  testing::TempDir dir;
  for (const char* shipped : {"devices.json", "presets.json"})
    std::filesystem::copy_file(std::string(RIGBENCH_TEST_DATA) + "/../../data/" + shipped, dir.file(shipped));
  ::setenv("RIGBENCH_DATA_DIR", dir.path().c_str(), 1);
  const std::vector<std::string> fit = {RIGBENCH_BIN, "fit",      "--preset", "Llama-3.1-8B",
                                        "--device",   "RTX 4090", "-c",       "4096"};
  const auto none = run_process(fit);
  testing::write_file(dir.file("published_llama_bench.jsonl"), "not json\n");
  const auto bad = run_process(fit);
  ::unsetenv("RIGBENCH_DATA_DIR");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out.find("tg pred"), std::string::npos) << none.out;
  ASSERT_EQ(bad.exit_code, 0) << bad.err;
  EXPECT_NE(bad.out.find("no speed prediction: published results '"), std::string::npos) << bad.out;
  const auto acc = run_process({RIGBENCH_BIN, "fit", "--predict-accuracy"});
  EXPECT_EQ(acc.exit_code, 0);  // the variable is gone again: the shipped dataset
}

TEST(SpeedPredictionE2E, FitOnThisMachinePredictsFromItsOwnStoredRuns) {
  testing::TempDir dir;
  const std::string db = dir.file("runs.db");
  const std::vector<std::string> fit = {RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-c", "256", "--db", db,
                                        "-o",         "json"};
  const auto before = run_process(fit);  // no database yet: nothing to learn from, and none is made
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_FALSE(std::filesystem::exists(db));
  const json none = json::parse(before.out);
  EXPECT_FALSE(none["devices"][0].contains("tg_predicted_tps")) << before.out;  // no column without a basis
  EXPECT_NE(none["notes"].dump().find("no speed prediction for this machine yet: none of its runs is stored"),
            std::string::npos)
      << before.out;
  const auto bench = run_process(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "32", "-n", "8", "-r", "3", "--db", db, "-o", "json"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const json measured = json::parse(bench.out);
  // Each test is a run of its own (bench stores pp and tg apart), and a busy machine's run is
  // not this machine's speed: it is left out, and said.
  double pp = 0, tg = 0;
  bool pp_disturbed = false, tg_disturbed = false;
  for (const json& rec : measured) {
    bool disturbed = false;
    for (const json& n : rec["noise"]) {
      const std::string code = n["code"];
      disturbed = disturbed || code == "machine_busy" || code == "steal" || code == "governor" ||
                  code == "thermal_throttle" || code == "drift";
    }
    const json& res = rec["results"];
    if (res.contains("pp") && !res["pp"].is_null()) pp = res["pp"]["avg_tps"], pp_disturbed = disturbed;
    if (res.contains("tg") && !res["tg"].is_null()) tg = res["tg"]["avg_tps"], tg_disturbed = disturbed;
  }
  ASSERT_GT(pp, 0);
  ASSERT_GT(tg, 0);
  const auto after = run_process(fit);
  ASSERT_EQ(after.exit_code, 0) << after.err;
  const json out = json::parse(after.out);
  const json d = out["devices"][0];
  const int runs = (pp_disturbed ? 0 : 1) + (tg_disturbed ? 0 : 1);
  if (runs == 0) {  // a busy machine (as under ctest -j): nothing to learn from, and said
    EXPECT_FALSE(d.contains("tg_predicted_tps")) << after.out;
    EXPECT_NE(out["notes"].dump().find("2 disturbed (machine busy, steal, ...) left out"), std::string::npos)
        << after.out;
    return;
  }
  const std::string basis = d.value("prediction_basis", "");
  // The model measured, predicted from its own run: its measured rates (one run, one point a
  // phase), tg at most the roofline bound.
  if (pp_disturbed) {
    EXPECT_NE(basis.find("pp: no basis (no stored pp run of this machine/cpu that it learns from: undisturbed"), std::string::npos) << basis;
  } else {
    EXPECT_NEAR(d["pp512_predicted_tps"].get<double>(), pp, pp * 1e-9) << basis;
    EXPECT_NE(basis.find("pp: 1 point of this machine itself"), std::string::npos) << basis;
  }
  if (tg_disturbed) {
    EXPECT_NE(basis.find("tg: no basis (no stored tg run of this machine/cpu that it learns from: undisturbed"), std::string::npos) << basis;
  } else {
    EXPECT_NEAR(d["tg_predicted_tps"].get<double>(), std::min(tg, d["tg_bound_tps"].get<double>()), tg * 1e-9) << basis;
    EXPECT_NE(basis.find("tg: 1 point of this machine itself"), std::string::npos) << basis;
  }
  const std::string notes = out["notes"].dump();
  EXPECT_NE(notes.find("from " + std::to_string(runs) + " of this machine's stored bench runs (" + db + ", --db"),
            std::string::npos)
      << notes;
}

}  // namespace
}  // namespace rigbench
