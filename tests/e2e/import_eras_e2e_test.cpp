// End-to-end: llama-bench output from every era imported and compared with the real binary.
// Inputs are the cases of ../shared/cases/compare (copied to tests/data/compare):
//   old2023_table_test.sql / .sqlite  llama-bench's SQL table before August 2025 was `test`
//   old2023.json + old2024_9312.csv   build 1026 ("LLaMA 7B mostly Q4_0", cuda: true, no
//                                     flash_attn) and build 3538 ("llama 7B Q4_0") of one model
//   sum_21282_A.csv / _B.csv          summary-only rows whose mean ± sd overlap
// and the ways a file is read: standard input, an empty file, a bad file among good ones,
// llama-bench's markdown table (imported), rigbench's own markdown (refused).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/strings.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

std::string data(const std::string& name) { return std::string(RIGBENCH_TEST_DATA) + "/compare/" + name; }

ProcessResult import(const std::string& db, const std::vector<std::string>& files,
                     const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {RIGBENCH_BIN, "import", "--db", db, "-o", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), files.begin(), files.end());
  return run_process(args);
}

std::vector<json> exported(const std::string& db) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "export", "--db", db, "-o", "jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> out;
  for (const std::string& line : split(trim(r.out), '\n')) {
    if (!trim(line).empty()) out.push_back(json::parse(line));
  }
  return out;
}

json compare_json(const std::string& db, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {RIGBENCH_BIN, "compare", "--db", db, "-o", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

TEST(ImportErasE2E, SqlTableNamedTestBeforeAugust2025ImportsTwoRecords) {
  for (const char* file : {"old2023_table_test.sql", "old2023_table_test.sqlite"}) {
    TempDir dir;
    const ProcessResult r = import(dir.file("x.db"), {data(file)}, {"--hostname", "rig3090"});
    ASSERT_EQ(r.exit_code, 0) << file << ": " << r.err;
    const std::vector<json> records = exported(dir.file("x.db"));
    ASSERT_EQ(records.size(), 2u) << file;
    EXPECT_TRUE(records[0]["results"].contains("pp"));
    EXPECT_DOUBLE_EQ(records[0]["results"]["pp"]["avg_tps"].get<double>(), 2242.06);
    EXPECT_DOUBLE_EQ(records[1]["results"]["tg"]["avg_tps"].get<double>(), 43.09);
    EXPECT_EQ(records[0]["model"]["file_type"], "Q4_0") << file;
  }
}

TEST(ImportErasE2E, Build2023And2024AreOneModelQ4_0InTwoBuilds) {
  TempDir dir;
  const std::string db = dir.file("x.db");
  ASSERT_EQ(import(db, {data("old2023.json"), data("old2024_9312.csv")}, {"--hostname", "rig3090"}).exit_code, 0);
  const json cmp = compare_json(db, {"--by", "build"});
  ASSERT_EQ(cmp["columns"].size(), 2u) << cmp.dump();
  std::set<std::string> models;
  for (const json& row : cmp["rows"]) models.insert(row["model"].get<std::string>());
  ASSERT_EQ(models.size(), 1u) << cmp.dump();
  EXPECT_TRUE(models.begin()->ends_with(" Q4_0")) << *models.begin();
  // Both builds' pp512 and tg128 side by side in one row each.
  for (const json& row : cmp["rows"]) {
    for (const json& cell : row["cells"]) EXPECT_EQ(cell["state"], "measured") << row.dump();
  }

  for (const json& rec : exported(db)) {
    EXPECT_EQ(rec["model"]["file_type"], "Q4_0");
    EXPECT_EQ(rec["model"]["arch"], "llama");
    EXPECT_EQ(rec["machine"]["backends"], json({"CUDA", "BLAS"})) << rec["build"].dump();
    EXPECT_EQ(rec["params"]["flash_attn"], "off");  // 2023: no flash attention; 2024: flash_attn 0
  }
}

TEST(ImportErasE2E, SummaryRowsKeepSdAndOverlappingIntervalsHaveNoWinner) {
  TempDir dir;
  const std::string db = dir.file("x.db");
  ASSERT_EQ(import(db, {data("sum_21282_A.csv")}, {"--hostname", "A"}).exit_code, 0);
  ASSERT_EQ(import(db, {data("sum_21282_B.csv")}, {"--hostname", "B", "-r", "5"}).exit_code, 0);
  const std::vector<json> records = exported(db);
  ASSERT_EQ(records.size(), 2u);
  const json& a = records[0]["results"]["pp"];
  const json& b = records[1]["results"]["pp"];
  EXPECT_EQ(a["summary_only"], true);
  EXPECT_DOUBLE_EQ(a["avg_tps"].get<double>(), 25231.96);
  EXPECT_DOUBLE_EQ(a["stddev_tps"].get<double>(), 17262.95);
  EXPECT_EQ(a["n_samples"], 0);  // the csv does not say how many repetitions; none given
  EXPECT_DOUBLE_EQ(b["avg_tps"].get<double>(), 27147.01);
  EXPECT_DOUBLE_EQ(b["stddev_tps"].get<double>(), 1477.0);
  EXPECT_EQ(b["n_samples"], 5);  // -r 5
  EXPECT_EQ(records[0]["tags"], json({"source:llama-bench", "llama-bench:summary-only"}));

  const json cmp = compare_json(db);
  ASSERT_EQ(cmp["rows"].size(), 1u) << cmp.dump();
  const json& row = cmp["rows"][0];
  EXPECT_EQ(row["winner"], nullptr);
  // A csv states no repetition count: Welch's test cannot take it, so the row is untested (one
  // rule with the answers, which said "untested" beside the table's "no clear winner").
  EXPECT_EQ(row["verdict"], "untested");
  EXPECT_DOUBLE_EQ(row["cells"][0]["stddev"].get<double>(), 17262.95);
  EXPECT_DOUBLE_EQ(row["cells"][1]["stddev"].get<double>(), 1477.0);
  EXPECT_EQ(row["cells"][0]["summary_only"], true);

  const ProcessResult md = run_process({RIGBENCH_BIN, "compare", "--db", db});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("25231.96 ± 17262.95 (summary)"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("untested"), std::string::npos) << md.out;
  EXPECT_EQ(md.out.find("± 0.00"), std::string::npos) << md.out;
}

TEST(ImportErasE2E, StandardInputIsADash) {
  TempDir dir;
  const ProcessResult r =
      run_process({"/bin/sh", "-c", std::string("\"$0\" import --db \"$1\" -o json --hostname A - < \"$2\""),
                   RIGBENCH_BIN, dir.file("x.db"), data("sum_21282_A.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(exported(dir.file("x.db")).size(), 1u);
}

TEST(ImportErasE2E, EmptyFileIsAnError) {
  TempDir dir;
  testing::write_file(dir.file("empty.jsonl"), "");
  const ProcessResult r = import(dir.file("x.db"), {dir.file("empty.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rigbench: error: import '" + dir.file("empty.jsonl") + "': empty file; nothing to import\n");
}

TEST(ImportErasE2E, BadFileAmongGoodOnesIsNamedAndTheOthersImport) {
  TempDir dir;
  testing::write_file(dir.file("bad.csv"), "not,a,llama-bench,file\n1,2,3,4\n");
  const ProcessResult r = import(
      dir.file("x.db"), {data("sum_21282_A.csv"), dir.file("bad.csv"), data("sum_21282_B.csv")}, {"--hostname", "A"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rigbench: error: import '" + dir.file("bad.csv") + "': unknown format"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; skipped\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rigbench: error: import: 1 of 3 files skipped"), std::string::npos) << r.err;
  EXPECT_EQ(exported(dir.file("x.db")).size(), 2u);
}

// llama-bench's markdown table, refused before: imported as a rounded summary of the machine named.
TEST(ImportErasE2E, MarkdownTableImportsAsARoundedSummary) {
  TempDir dir;
  testing::write_file(
      dir.file("lb.md"),
      "| model                          |       size |     params | backend    | ngl |            test |"
      "                  t/s |\n| ------------------------------ | ---------: | ---------: | ---------- | --: |"
      " --------------: | -------------------: |\n| llama 7B Q4_0                  |   3.56 GiB |     6.74 B |"
      " CUDA       |  99 |           pp512 |      5174.69 ± 15.70 |\n\nbuild: 506122d (3538)\n");
  const ProcessResult r = import(dir.file("x.db"), {dir.file("lb.md")}, {"--machine", "rig-4090"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<json> runs = exported(dir.file("x.db"));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["results"]["pp"]["avg_tps"], 5174.69);
  EXPECT_EQ(runs[0]["build"]["llama_cpp_commit"], "506122d");
  EXPECT_EQ(runs[0]["machine"]["hostname"], "rig-4090");
}

// rigbench's own markdown (bench's table, compare's output) is refused with what to do with a
// rigbench table (its runs are in the database of the machine that ran them: export them),
// not llama-bench's advice; nothing is stored.
TEST(ImportErasE2E, RigbenchMarkdownIsRefusedSayingToExportTheRuns) {
  TempDir dir;
  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "8", "-n", "4", "-r", "1",
                                           "--energy", "off", "--db", dir.file("runs.db")});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  testing::write_file(dir.file("bench.md"), bench.out);
  const ProcessResult compared = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("runs.db")});
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  testing::write_file(dir.file("compare.md"), compared.out);
  for (const char* file : {"bench.md", "compare.md"}) {
    const ProcessResult r = import(dir.file("x.db"), {dir.file(file)});
    EXPECT_EQ(r.exit_code, 1) << file;
    EXPECT_NE(r.err.find("rigbench's markdown output"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rigbench export -o jsonl"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("llama-bench"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.db")) && exported(dir.file("x.db")).size() > 0);
  // What it says to do imports the runs.
  const ProcessResult exp = run_process({RIGBENCH_BIN, "export", "--db", dir.file("runs.db"), "-o", "jsonl"});
  ASSERT_EQ(exp.exit_code, 0) << exp.err;
  testing::write_file(dir.file("runs.jsonl"), exp.out);
  EXPECT_EQ(import(dir.file("x.db"), {dir.file("runs.jsonl")}).exit_code, 0);
  EXPECT_EQ(exported(dir.file("x.db")).size(), exported(dir.file("runs.db")).size());
}

}  // namespace
}  // namespace rigbench
