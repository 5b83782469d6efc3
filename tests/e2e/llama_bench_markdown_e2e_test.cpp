// End-to-end: `rigbench import` of llama-bench's markdown table, as llama-bench prints it (one
// run written both as jsonl and as md, -oe) and as people paste it into issues
// (tests/data/markdown/, each file's URL in its README): the machine, GPU and source named by
// flags, rounded summaries kept without samples, the same paste imported twice stored once.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

std::string paste(const std::string& name) { return std::string(RIGBENCH_TEST_DATA) + "/markdown/" + name; }

ProcessResult import(const std::string& db, std::vector<std::string> args) {
  args.insert(args.begin(), {RIGBENCH_BIN, "import", "--db", db, "-o", "json"});
  return run_process(args);
}

std::vector<json> exported(const std::string& db) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "export", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> out;
  for (const std::string& line : split(trim(r.out), '\n')) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

TEST(LlamaBenchMarkdownE2E, PastedTableImportsWithMachineGpuAndSource) {
  TempDir dir;
  const std::string db = dir.file("x.db");
  const std::string url = "https://github.com/geerlingguy/ai-benchmarks/issues/23";
  const ProcessResult r = import(db, {"--machine", "pi5", "--source", url, "-r", "2",
                                      paste("geerlingguy_ai_benchmarks_23_rx7900xt.md")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json summary = json::parse(r.out);
  EXPECT_EQ(summary[0]["format"], "llama-bench markdown");
  EXPECT_EQ(summary[0]["added"], 3);
  EXPECT_EQ(summary[0]["skipped"], 1);
  EXPECT_NE(r.err.find("pp+tg test (-pg)"), std::string::npos) << r.err;
  const std::vector<json> runs = exported(db);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0]["machine"]["hostname"], "pi5");
  EXPECT_EQ(runs[0]["source_fields"]["source_url"], url);
  EXPECT_EQ(runs[0]["machine"]["gpus"][0]["description"], "AMD Radeon RX 7900 XT (RADV NAVI31) (radv)");

  // The same paste again: nothing new.
  const ProcessResult again = import(db, {"--machine", "pi5", "--source", url, paste("geerlingguy_ai_benchmarks_23_rx7900xt.md")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(json::parse(again.out)[0]["already_stored"], 3);
  EXPECT_EQ(exported(db).size(), 3u);
}

TEST(LlamaBenchMarkdownE2E, FlagsAreCheckedAgainstTheFormat) {
  TempDir dir;
  const std::string db = dir.file("x.db");
  // A table names no machine: it is named from its GPU, else "unnamed", said in a note.
  const std::string unnamed_db = dir.file("unnamed.db");
  const ProcessResult unnamed = import(unnamed_db, {paste("llama_cpp_pr5301_i7_1165g7.md")});
  EXPECT_EQ(unnamed.exit_code, 0) << unnamed.err;
  EXPECT_NE(unnamed.err.find("llama-bench output names no machine: named 'unnamed' from the GPU it names (--gpu), else "
                             "nothing (--machine NAME names it)"),
            std::string::npos)
      << unnamed.err;
  EXPECT_EQ(exported(unnamed_db).at(0)["machine"]["hostname"], "unnamed");
  testing::write_file(dir.file("lb.csv"), "build_commit,n_prompt,n_gen,avg_ts,model_filename\n\"x\",\"0\",\"4\",\"1.5\",\"m.gguf\"\n");
  const ProcessResult gpu = import(db, {"--machine", "m", "--gpu", "RTX 4090", dir.file("lb.csv")});
  EXPECT_EQ(gpu.exit_code, 2);
  EXPECT_NE(gpu.err.find("--gpu describes a llama-bench markdown table"), std::string::npos) << gpu.err;
  testing::write_file(dir.file("bad.md"), "| model | test | t/s |\n|--|--|--|\n| llama 7B Q4_0 | pp512 | n/a |\n");
  const ProcessResult bad = import(db, {"--machine", "m", dir.file("bad.md")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("import '" + dir.file("bad.md") + "': line 3: t/s 'n/a' is not a positive mean"),
            std::string::npos)
      << bad.err;
  EXPECT_TRUE(!std::filesystem::exists(db) || exported(db).empty());  // nothing saved
}

// One llama-bench run printed twice (-o jsonl on stdout, -oe md on stderr, with its log): the
// markdown's rounded figures are the jsonl's to 0.01 t/s.
TEST(LlamaBenchMarkdownE2E, RealLlamaBenchTableMatchesItsJsonl) {
  const char* env = std::getenv("RIGBENCH_LLAMA_BENCH");
#ifdef RIGBENCH_LLAMA_BENCH
  const std::string bin = env && *env ? env : RIGBENCH_LLAMA_BENCH;
#else
  const std::string bin = env ? env : "";
#endif
  if (bin.empty() || !std::filesystem::exists(bin)) GTEST_SKIP() << "llama-bench is not built (RIGBENCH_BUILD_PEERS=ON)";
  TempDir dir;
  const ProcessResult run = run_process(
      {bin, "-m", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "3", "-t", "1", "-o", "jsonl", "-oe", "md"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  testing::write_file(dir.file("run.jsonl"), run.out);
  testing::write_file(dir.file("run.md"), run.err);
  ASSERT_EQ(import(dir.file("j.db"), {"--machine", "here", dir.file("run.jsonl")}).exit_code, 0);
  const ProcessResult md = import(dir.file("m.db"), {"--machine", "here", "-r", "3", dir.file("run.md")});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  const std::vector<json> from_jsonl = exported(dir.file("j.db"));
  const std::vector<json> from_md = exported(dir.file("m.db"));
  ASSERT_EQ(from_md.size(), 2u);
  ASSERT_EQ(from_jsonl.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const char* phase = i == 0 ? "pp" : "tg";
    const json& exact = from_jsonl[i]["results"][phase];
    const json& rounded = from_md[i]["results"][phase];
    ASSERT_TRUE(rounded["summary_only"].get<bool>()) << phase;
    EXPECT_NEAR(rounded["avg_tps"].get<double>(), exact["avg_tps"].get<double>(), 0.0051) << phase;
    EXPECT_NEAR(rounded["stddev_tps"].get<double>(), exact["stddev_tps"].get<double>(), 0.0051) << phase;
    EXPECT_EQ(from_md[i]["model"]["file_type"], from_jsonl[i]["model"]["file_type"]);
    EXPECT_EQ(from_md[i]["build"]["llama_cpp_commit"], from_jsonl[i]["build"]["llama_cpp_commit"]);
    EXPECT_EQ(from_md[i]["params"]["n_threads"], 1);
  }
}

}  // namespace
}  // namespace rigbench
