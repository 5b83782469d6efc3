// End-to-end (#11, identity): the same thing is one row and different things are two, through
// the real binary. Models: two files that share general.name are two models; the same file
// benched by rigbench and imported from llama-bench is one. Machines: --machine names the
// machine; llama-bench output needs --hostname, rigbench records refuse it. Knobs: llama-bench's
// n_cpu_moe keeps configurations apart (ncmoe_sweep.jsonl, ncmoe_two_builds.jsonl). n_ubatch is
// stored as llama.cpp ran it. Inputs from ../shared/cases/compare/, copied to tests/data/compare/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

const std::string kData = std::string(RIGBENCH_TEST_DATA) + "/compare/";

std::string llama_bench() {
  if (const char* env = std::getenv("RIGBENCH_LLAMA_BENCH"); env && *env) return env;
#ifdef RIGBENCH_LLAMA_BENCH
  return RIGBENCH_LLAMA_BENCH;
#else
  return "";
#endif
}

json compare_json(const std::string& db, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {RIGBENCH_BIN, "compare", "--db", db, "-o", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

// The rows of `metric` in a compare -o json document.
std::vector<json> rows_of(const json& cmp, const std::string& metric) {
  std::vector<json> out;
  for (const json& row : cmp.value("rows", json::array())) {
    if (row["metric"] == metric) out.push_back(row);
  }
  return out;
}

// ncmoe_sweep.jsonl: 50 t/s at n_cpu_moe 0 and 10 t/s at 30 are two configurations; the
// cell shows the better one (50.00 ± 0.20 over its 3 samples), never "30.00 ± 21.91".
TEST(IdentityE2E, NcmoeSweepIsTwoConfigurationsNeverPooled) {
  TempDir dir;
  const ProcessResult imp = run_process(
      {RIGBENCH_BIN, "import", "--db", dir.file("x.db"), "--hostname", "rig3090", kData + "ncmoe_sweep.jsonl"});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  const json cmp = compare_json(dir.file("x.db"));
  EXPECT_EQ(cmp["columns"], json({"rig3090"}));
  const auto tg = rows_of(cmp, "tg_tps");
  ASSERT_EQ(tg.size(), 1u) << cmp.dump();
  const json& cell = tg[0]["cells"][0];
  EXPECT_EQ(cell["n"], 3);
  EXPECT_EQ(cell["n_configs"], 2);
  EXPECT_NEAR(cell["mean"].get<double>(), 50.0, 0.01);
  EXPECT_LT(cell["stddev"].get<double>(), 0.5);
  const ProcessResult md = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("x.db")});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("21.91"), std::string::npos) << md.out;
  EXPECT_EQ(md.out.find("30.00"), std::string::npos) << md.out;
  // The stored records keep n_cpu_moe (export prints the records).
  const ProcessResult exp = run_process({RIGBENCH_BIN, "export", "--db", dir.file("x.db"), "-o", "jsonl"});
  ASSERT_EQ(exp.exit_code, 0) << exp.err;
  EXPECT_NE(exp.out.find("\"n_cpu_moe\":30"), std::string::npos) << exp.out;
}

// ncmoe_two_builds.jsonl: n_cpu_moe 0 on one build, 30 on the next: each configuration is
// compared with itself, so there is no regression (not a false -80 %).
TEST(IdentityE2E, NcmoeTwoBuildsIsNoRegression) {
  TempDir dir;
  const ProcessResult imp = run_process(
      {RIGBENCH_BIN, "import", "--db", dir.file("x.db"), "--hostname", "rig3090", kData + "ncmoe_two_builds.jsonl"});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  const json cmp = compare_json(dir.file("x.db"));
  EXPECT_TRUE(cmp["regressions"].empty()) << cmp["regressions"].dump();
  const ProcessResult md = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("x.db"), "--by", "build"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("-80"), std::string::npos) << md.out;
  // By build the table and the answers compare like for like, as the regressions: two rows,
  // n_cpu_moe 0 (50 t/s) and 30 (10 t/s), each of one build; no "+400 %", winner nor answer.
  EXPECT_EQ(md.out.find("is faster than"), std::string::npos) << md.out;
  EXPECT_EQ(md.out.find("+400"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("n_cpu_moe=0"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("n_cpu_moe=30"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("none to test"), std::string::npos) << md.out;
  const json by_build = compare_json(dir.file("x.db"), {"--by", "build"});
  const auto tg = rows_of(by_build, "tg_tps");
  ASSERT_EQ(tg.size(), 2u) << by_build.dump();
  std::vector<double> means;
  for (const json& row : tg) {
    EXPECT_TRUE(row["winner"].is_null()) << row.dump();
    EXPECT_EQ(row["verdict"], "single result");
    int measured = 0;
    for (const json& cell : row["cells"]) {
      if (cell["state"] != "measured") continue;
      ++measured;
      means.push_back(cell["mean"].get<double>());
    }
    EXPECT_EQ(measured, 1) << row.dump();
  }
  std::sort(means.begin(), means.end());
  ASSERT_EQ(means.size(), 2u);
  EXPECT_NEAR(means[0], 10.0, 0.01);
  EXPECT_NEAR(means[1], 50.0, 0.01);
  for (const json& a : by_build.value("answers", json::array())) EXPECT_TRUE(a["pairs"].empty()) << a.dump();
}

// llama-bench output names no machine: import names it from the file's cpu_info and gpu_info,
// says so in one note, and --machine (or --hostname) renames it (issue 37: it failed asking
// for --hostname); rigbench records name theirs: --machine with them is refused, not ignored.
TEST(IdentityE2E, ImportNamesALlamaBenchMachineFromTheFileAndRefusesMachineForRigbench) {
  TempDir dir;
  const ProcessResult bare =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), kData + "ncmoe_sweep.jsonl"});
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  const std::string note = "rigbench: note: import '" + kData +
                           "ncmoe_sweep.jsonl': llama-bench output names no machine: named 'AMD EPYC + NVIDIA GeForce "
                           "RTX 3090' from its cpu_info and gpu_info (--machine NAME names it)\n";
  EXPECT_NE(bare.err.find(note), std::string::npos) << bare.err;
  EXPECT_EQ(bare.err.find("note", bare.err.find(note) + note.size()), std::string::npos) << "one note: " << bare.err;
  const ProcessResult dumped = run_process({RIGBENCH_BIN, "export", "--db", dir.file("x.db")});
  ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
  EXPECT_EQ(json::parse(dumped.out.substr(0, dumped.out.find('\n')))["machine"]["hostname"],
            "AMD EPYC + NVIDIA GeForce RTX 3090");
  for (const char* flag : {"--machine", "--hostname"}) {
    const std::string db = dir.file(std::string(flag + 2) + ".db");
    const ProcessResult renamed = run_process({RIGBENCH_BIN, "import", "--db", db, flag, "rig-z", kData + "ncmoe_sweep.jsonl"});
    ASSERT_EQ(renamed.exit_code, 0) << renamed.err;
    EXPECT_EQ(renamed.err.find("names no machine"), std::string::npos) << renamed.err;
    const ProcessResult out = run_process({RIGBENCH_BIN, "export", "--db", db});
    EXPECT_EQ(json::parse(out.out.substr(0, out.out.find('\n')))["machine"]["hostname"], "rig-z") << flag;
  }

  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--no-db", "-p", "8", "-n", "2",
                                           "-r", "1", "--energy", "off", "-o", "jsonl"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  std::ofstream(dir.file("runs.jsonl")) << bench.out;
  const ProcessResult named =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("y.db"), "--machine", "other", dir.file("runs.jsonl")});
  EXPECT_EQ(named.exit_code, 2);
  EXPECT_NE(named.err.find("--machine names the machine of llama-bench output"), std::string::npos) << named.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("y.db")));
}

// bench --machine NAME names the machine in the records; -b 32 -ub 512 records n_ubatch 32,
// as llama.cpp ran it (it clamps n_ubatch to n_batch).
TEST(IdentityE2E, BenchNamesTheMachineAndStoresTheUbatchThatRan) {
  TempDir dir;
  const ProcessResult r = run_process({RIGBENCH_BIN,
                                       "bench",
                                       RIGBENCH_TEST_MODEL,
                                       "--db",
                                       dir.file("x.db"),
                                       "--machine",
                                       "lab-1",
                                       "-b",
                                       "32",
                                       "-ub",
                                       "512",
                                       "-p",
                                       "16",
                                       "-n",
                                       "2",
                                       "-r",
                                       "1",
                                       "--energy",
                                       "off",
                                       "-o",
                                       "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json records = json::parse(r.out);
  ASSERT_FALSE(records.empty());
  for (const json& rec : records) {
    EXPECT_EQ(rec["machine"]["hostname"], "lab-1");
    EXPECT_EQ(rec["params"]["n_batch"], 32);
    EXPECT_EQ(rec["params"]["n_ubatch"], 32);
  }
  EXPECT_EQ(compare_json(dir.file("x.db"))["columns"], json({"lab-1"}));
}

// same_name/: llama-2-7b.F32.gguf and llama-2-13b.F32.gguf both say general.name "LLaMA v2";
// benched into one database they are two models, each shown by its file's name.
TEST(IdentityE2E, TwoFilesThatShareANameAreTwoModels) {
  TempDir dir;
  for (const char* file : {"llama-2-7b.F32.gguf", "llama-2-13b.F32.gguf"}) {
    const ProcessResult r = run_process({RIGBENCH_BIN, "bench", kData + "same_name/" + file, "--db", dir.file("x.db"),
                                         "--machine", "box", "-p", "8", "-n", "2", "-r", "2", "--energy", "off"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const json by_model = compare_json(dir.file("x.db"), {"--by", "model"});
  EXPECT_EQ(by_model["columns"], json({"llama-2-13b.F32 F32", "llama-2-7b.F32 F32"}))
      << by_model.dump();
  for (const json& row : rows_of(by_model, "tg_tps")) {
    EXPECT_EQ(row["cells"][0]["n"], 2);  // two samples each, never four pooled
    EXPECT_EQ(row["cells"][1]["n"], 2);
  }
}

// The shipped model benched by rigbench (GGUF general.name "llama") and the same file's
// llama-bench output imported with the same machine name (which names only the file) are one
// model: compare --by build puts them side by side in one row. Each is shown by the file's name,
// alone as together: a new user saw "llama F32" for the bench and "stories260K F32" for the import.
TEST(IdentityE2E, TheSameFileBenchedAndImportedIsOneModel) {
  if (llama_bench().empty() || !std::filesystem::exists(llama_bench())) {
    GTEST_SKIP() << "llama-bench is not built: configure with -DRIGBENCH_BUILD_PEERS=ON or set RIGBENCH_LLAMA_BENCH";
  }
  TempDir dir;
  const ProcessResult bench =
      run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--db", dir.file("x.db"), "--machine", "host-x", "-p",
                   "16", "-n", "4", "-r", "2", "-t", "1", "--energy", "off"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_EQ(rows_of(compare_json(dir.file("x.db")), "tg_tps").at(0)["model"], "stories260K F32");
  const ProcessResult lb = run_process(
      {llama_bench(), "-m", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "2", "-t", "1", "-o", "jsonl"});
  ASSERT_EQ(lb.exit_code, 0) << lb.err;
  std::ofstream(dir.file("lb.jsonl")) << lb.out;
  const ProcessResult imp =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), "--hostname", "host-x", dir.file("lb.jsonl")});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  const ProcessResult alone = run_process(
      {RIGBENCH_BIN, "import", "--db", dir.file("import.db"), "--hostname", "host-x", dir.file("lb.jsonl")});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(rows_of(compare_json(dir.file("import.db")), "tg_tps").at(0)["model"], "stories260K F32");
  const ProcessResult md = run_process({RIGBENCH_BIN, "export", "--db", dir.file("x.db"), "-o", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("| llama F32 |"), std::string::npos) << md.out;  // every row: stories260K F32
  const json cmp = compare_json(dir.file("x.db"), {"--by", "build"});
  ASSERT_EQ(cmp["columns"].size(), 2u) << cmp["columns"].dump();
  for (const char* metric : {"pp_tps", "tg_tps"}) {
    const auto rows = rows_of(cmp, metric);
    ASSERT_EQ(rows.size(), 1u) << metric << ": " << cmp.dump();
    EXPECT_EQ(rows[0]["model"], "stories260K F32");
    EXPECT_EQ(rows[0]["machine"], "host-x");
    EXPECT_EQ(rows[0]["cells"][0]["state"], "measured") << rows[0].dump();
    EXPECT_EQ(rows[0]["cells"][1]["state"], "measured") << rows[0].dump();
  }
}

}  // namespace
}  // namespace rigbench
