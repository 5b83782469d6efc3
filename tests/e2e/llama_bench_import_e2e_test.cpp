// End-to-end: llama-bench built from the same llama.cpp sources runs on the shipped model,
// `rigbench import` reads its output, and the imported numbers are the file's: raw samples
// (json, jsonl), mean and spread of tokens/s, the model, the build. Needs the llama-bench
// target (configure with -DRIGBENCH_BUILD_PEERS=ON) or $RIGBENCH_LLAMA_BENCH.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "support/golden.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

std::string llama_bench() {
  if (const char* env = std::getenv("RIGBENCH_LLAMA_BENCH"); env && *env) return env;
#ifdef RIGBENCH_LLAMA_BENCH
  return RIGBENCH_LLAMA_BENCH;
#else
  return "";
#endif
}

// llama-bench's output of a small run on the shipped model; `extra` flags appended.
std::string run_llama_bench(const std::string& format, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      llama_bench(), "-m", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "3", "-t", "1", "-o", format};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

std::vector<json> exported(const std::string& db) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "export", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> out;
  for (const std::string& line : split(trim(r.out), '\n')) out.push_back(json::parse(line));
  return out;
}

class LlamaBenchImportE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (llama_bench().empty() || !std::filesystem::exists(llama_bench())) {
      GTEST_SKIP() << "llama-bench is not built: configure with -DRIGBENCH_BUILD_PEERS=ON or set RIGBENCH_LLAMA_BENCH";
    }
  }
};

TEST_F(LlamaBenchImportE2E, JsonlNumbersMatchTheFile) {
  TempDir dir;
  const std::string text = run_llama_bench("jsonl");
  testing::write_file(dir.file("lb.jsonl"), text);
  std::vector<json> rows;
  for (const std::string& line : split(trim(text), '\n')) rows.push_back(json::parse(line));
  ASSERT_EQ(rows.size(), 2u);  // pp16, tg4

  const std::vector<std::string> import = {
      RIGBENCH_BIN, "import", "--db", dir.file("x.db"), "--hostname", "rig-lb", dir.file("lb.jsonl"), "-o", "json"};
  const ProcessResult first = run_process(import);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(json::parse(first.out)[0]["format"], "llama-bench jsonl");
  EXPECT_EQ(json::parse(first.out)[0]["added"], 2);
  const ProcessResult again = run_process(import);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(json::parse(again.out)[0]["already_stored"], 2);

  const std::vector<json> records = exported(dir.file("x.db"));
  ASSERT_EQ(records.size(), 2u);
  for (const json& row : rows) {
    const bool pp = row["n_prompt"].get<int>() > 0;
    const json* rec = nullptr;
    for (const json& r : records) {
      if (r["params"]["n_prompt"] == row["n_prompt"] && r["params"]["n_gen"] == row["n_gen"]) rec = &r;
    }
    ASSERT_NE(rec, nullptr) << row.dump();
    const json& result = (*rec)["results"][pp ? "pp" : "tg"];
    EXPECT_FALSE((*rec)["results"].contains(pp ? "tg" : "pp"));
    EXPECT_EQ(result["samples_ns"], row["samples_ns"]);
    EXPECT_EQ(result["n_tokens"], pp ? row["n_prompt"] : row["n_gen"]);
    // llama-bench prints avg_ts and stddev_ts with 6 decimals; per-sample t/s with 1.
    EXPECT_NEAR(result["avg_tps"].get<double>(), row["avg_ts"].get<double>(),
                1e-6 + 1e-9 * row["avg_ts"].get<double>());
    EXPECT_NEAR(result["stddev_tps"].get<double>(), row["stddev_ts"].get<double>(),
                1e-6 + 1e-9 * row["avg_ts"].get<double>());
    for (std::size_t i = 0; i < row["samples_ts"].size(); ++i) {
      EXPECT_NEAR(result["samples_tps"][i].get<double>(), row["samples_ts"][i].get<double>(), 0.051);
    }
    EXPECT_EQ((*rec)["test_time"], row["test_time"]);
    EXPECT_EQ((*rec)["build"]["llama_cpp_commit"], row["build_commit"]);
    EXPECT_EQ((*rec)["machine"]["hostname"], "rig-lb");
    EXPECT_EQ((*rec)["machine"]["cpu"], row["cpu_info"]);
    EXPECT_EQ((*rec)["model"]["path"], RIGBENCH_TEST_MODEL);
    EXPECT_EQ((*rec)["model"]["name"], "stories260K");
    EXPECT_EQ((*rec)["model"]["file_type"], "F32");
    EXPECT_EQ((*rec)["model"]["n_params"], row["model_n_params"]);
    EXPECT_EQ((*rec)["model"]["size_bytes"], row["model_size"]);
    EXPECT_EQ((*rec)["params"]["n_threads"], 1);
    EXPECT_EQ((*rec)["params"]["load_mode"], "auto");  // llama-bench's default, as its row says
    EXPECT_EQ((*rec)["params"]["load_mode"], row["load_mode"]);
    EXPECT_EQ((*rec)["params"]["repetitions"], 3);
    EXPECT_EQ((*rec)["tags"], json({"source:llama-bench"}));
  }

  // compare shows the import, labelled as llama-bench's build.
  const ProcessResult cmp =
      run_process({RIGBENCH_BIN, "compare", "--db", dir.file("x.db"), "--by", "build", "-o", "json"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_EQ(json::parse(cmp.out)["columns"], json({"llama-bench / llama.cpp 80fb11ac"}));
}

// The shipped model benched by rigbench and by llama-bench on this machine, of one llama.cpp
// commit: compare lines the two up side by side in one row per test, each column naming its
// tool (one commit: no build column); the tools are not a regression of one another. The
// md table shows llama-bench's backend. Before, each tool had rows of its own under one column.
TEST_F(LlamaBenchImportE2E, ImportLinesUpBesideRigbenchsRunsOfTheSameCommit) {
  TempDir dir;
  const std::string db = dir.file("x.db");
  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "3",
                                           "-t", "1", "--machine", "rig-lb", "--db", db, "--energy", "off"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  testing::write_file(dir.file("lb.json"), run_llama_bench("json"));
  const ProcessResult imp =
      run_process({RIGBENCH_BIN, "import", "--db", db, "--hostname", "rig-lb", dir.file("lb.json")});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;

  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const json j = json::parse(cmp.out);
  ASSERT_EQ(j["columns"].size(), 2u) << j["columns"].dump();
  EXPECT_EQ(j["columns"][0], "rig-lb \u00b7 llama-bench");
  EXPECT_EQ(j["columns"][1].get<std::string>().rfind("rig-lb \u00b7 rigbench ", 0), 0u) << j["columns"].dump();
  int pp_rows = 0, tg_rows = 0;
  for (const json& row : j["rows"]) {
    const std::string test = row["test"];
    if (test != "pp16" && test != "tg4") continue;
    if (row["metric"] != "pp_tps" && row["metric"] != "tg_tps") continue;
    (test == "pp16" ? pp_rows : tg_rows)++;
    EXPECT_FALSE(row.contains("build")) << row.dump();  // one commit: no build column, the tools in the columns
    for (const json& cell : row["cells"]) EXPECT_EQ(cell["state"], "measured") << row.dump();
  }
  EXPECT_EQ(pp_rows, 1) << cmp.out;
  EXPECT_EQ(tg_rows, 1) << cmp.out;
  EXPECT_TRUE(j["regressions"].empty()) << j["regressions"].dump();

  const ProcessResult md = run_process({RIGBENCH_BIN, "export", "--db", db, "-o", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  for (const std::string& line : split(testing::unpadded(md.out), '\n')) {
    if (line.find("pp16") == std::string::npos && line.find("tg4") == std::string::npos) continue;
    EXPECT_NE(line.find("| CPU |"), std::string::npos) << line;  // llama-bench's backend too, never "-"
  }
}

TEST_F(LlamaBenchImportE2E, LoadModeComesFromEachRow) {
  TempDir dir;
  testing::write_file(dir.file("lm.jsonl"), run_llama_bench("jsonl", {"-lm", "none,mmap", "-r", "1"}));
  const ProcessResult r =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), "--hostname", "rig-lb", dir.file("lm.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> modes;  // (pp, tg) per load mode, in llama-bench's order
  for (const json& rec : exported(dir.file("x.db"))) modes.push_back(rec["params"]["load_mode"].get<std::string>());
  EXPECT_EQ(modes, (std::vector<std::string>{"none", "none", "mmap", "mmap"}));
}

TEST_F(LlamaBenchImportE2E, CsvAndSqlKeepTheMeans) {
  TempDir dir;
  for (const std::string format : {"csv", "sql"}) {
    const std::string text = run_llama_bench(format);
    testing::write_file(dir.file("lb." + format), text);
    const ProcessResult r = run_process(
        {RIGBENCH_BIN, "import", "--db", dir.file(format + ".db"), "--hostname", "rig-lb", dir.file("lb." + format)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(testing::unpadded(r.out).find(" | llama-bench " + format + " | 2 | 2 | 0 | 0 | 0 |"), std::string::npos)
        << r.out;
    // The file's avg_ts, by the text between the last two commas (csv) or quotes (sql) of each row.
    std::vector<double> file_means;
    for (const std::string& line : split(trim(text), '\n')) {
      if (!(line.starts_with("\"") || line.starts_with("INSERT"))) continue;
      const std::vector<std::string> parts = split(line, ',');
      file_means.push_back(std::stod(trim(parts[parts.size() - 2]).substr(1)));
    }
    ASSERT_EQ(file_means.size(), 2u) << text;
    const std::vector<json> records = exported(dir.file(format + ".db"));
    ASSERT_EQ(records.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      const json& results = records[i]["results"];
      const json& t = results.contains("pp") ? results["pp"] : results["tg"];
      EXPECT_EQ(t["n_samples"], 0);  // no raw samples in csv or sql, nor the repetitions
      EXPECT_EQ(t["summary_only"], true);
      EXPECT_NEAR(t["avg_tps"].get<double>(), file_means[i], 1e-9 * file_means[i]) << format;  // the file's own figure
      EXPECT_EQ(records[i]["tags"], json({"source:llama-bench", "llama-bench:summary-only"}));
    }
  }
}

// Issue 37: `rigbench import lb.jsonl` failed asking for --hostname. llama-bench's own file
// imports with the machine named from its cpu_info and gpu_info, one note saying so; --machine
// renames it.
TEST_F(LlamaBenchImportE2E, ImportWithoutAMachineNamesItFromTheFile) {
  TempDir dir;
  const std::string text = run_llama_bench("jsonl");
  testing::write_file(dir.file("lb.jsonl"), text);
  const json row = json::parse(text.substr(0, text.find('\n')));
  std::string name = trim(row["cpu_info"].get<std::string>());
  if (const std::string gpu = trim(row["gpu_info"].get<std::string>()); !gpu.empty())
    name = name.empty() ? gpu : name + " + " + gpu;
  if (name.empty()) name = "unnamed";
  const ProcessResult r = run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), dir.file("lb.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("rigbench: note: import '" + dir.file("lb.jsonl") + "': llama-bench output names no machine: "
                       "named '" + name + "' from its cpu_info and gpu_info (--machine NAME names it)"),
            std::string::npos)
      << r.err;
  const std::vector<json> records = exported(dir.file("x.db"));
  ASSERT_EQ(records.size(), 2u);
  for (const json& rec : records) EXPECT_EQ(rec["machine"]["hostname"], name);
  // compare shows the machine by that name.
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("x.db")});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find(name), std::string::npos) << cmp.out;
  const ProcessResult renamed =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("y.db"), "--machine", "rig-lb", dir.file("lb.jsonl")});
  ASSERT_EQ(renamed.exit_code, 0) << renamed.err;
  EXPECT_EQ(renamed.err.find("names no machine"), std::string::npos) << renamed.err;
  for (const json& rec : exported(dir.file("y.db"))) EXPECT_EQ(rec["machine"]["hostname"], "rig-lb");
  // The same file again under another name: the stored runs keep theirs, and that is said (it was
  // "already stored" without a word of the name given).
  const ProcessResult again =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("y.db"), "--machine", "rig-other", dir.file("lb.jsonl")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("2 of its records are stored already, as machine 'rig-lb': kept under that name"),
            std::string::npos)
      << again.err;
  for (const json& rec : exported(dir.file("y.db"))) EXPECT_EQ(rec["machine"]["hostname"], "rig-lb");
}

// Issue 37 (llama.cpp #15554): a backend's log printed on standard output before llama-bench's
// JSON made the file "unknown format". The Vulkan backend's two lines (this machine has no
// Vulkan GPU: the lines are written before real llama-bench output) are skipped and counted,
// in json and jsonl, and the runs import as without them.
TEST_F(LlamaBenchImportE2E, VulkanLogLinesBeforeTheJsonAreSkippedAndCounted) {
  const std::string log =
      "ggml_vulkan: Found 1 Vulkan devices:\n"
      "ggml_vulkan: 0 = AMD Radeon RX 6600 XT (RADV NAVI23) (radv) | uma: 0 | fp16: 1 | bf16: 0 | warp size: 32 | "
      "shared memory: 65536 | int dot: 1 | matrix cores: none\n";
  for (const std::string format : {"json", "jsonl"}) {
    TempDir dir;
    testing::write_file(dir.file("lb." + format), log + run_llama_bench(format));
    const ProcessResult r = run_process(
        {RIGBENCH_BIN, "import", "--db", dir.file("x.db"), "--machine", "rig", dir.file("lb." + format), "-o", "json"});
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_EQ(json::parse(r.out)[0]["format"], "llama-bench " + format);
    EXPECT_EQ(json::parse(r.out)[0]["added"], 2);
    EXPECT_NE(r.err.find("skipped 2 lines before the JSON, a log printed on standard output (the first: "
                         "'ggml_vulkan: Found 1 Vulkan devices:')"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(exported(dir.file("x.db")).size(), 2u);
  }
}

}  // namespace
}  // namespace rigbench
