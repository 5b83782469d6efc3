// End-to-end: three databases as three machines would produce them (real runs of the
// shipped model and of a synthetic model written by `rigbench synth`, each database with
// its own machine identity), merged with `rigbench import`, then `rigbench compare`'s
// table and per-model winners; export and import round trips; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// A tiny llama (2 layers, 64 wide) for `rigbench synth --config`.
constexpr const char* kTinyConfig = R"({"model_type": "llama", "vocab_size": 512, "hidden_size": 64,
  "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
  "max_position_embeddings": 512, "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "tie_word_embeddings": true})";

std::vector<json> lines_of(const std::string& text) {
  std::vector<json> out;
  for (const std::string& line : split(trim(text), '\n')) out.push_back(json::parse(line));
  return out;
}

// The record as machine `name` would have stored it, `speedup` times as fast. The samples
// become the measured median and +-1 % around it: a tiny model's few-ms samples on a busy
// 2-core machine can spread by more than the speedups, and the winners here must not
// depend on the load of the machine running the tests.
json as_machine(json rec, const std::string& name, int speedup) {
  rec["machine"]["hostname"] = "rig-" + name;
  rec["machine"]["cpu"] = "CPU of rig-" + name;
  rec["record_id"] = rec["record_id"].get<std::string>().substr(0, 31) + name;  // a, b, c are hex digits
  for (const char* test : {"pp", "tg", "ttft"}) {
    std::vector<int64_t> ns = rec["results"][test]["samples_ns"];
    std::sort(ns.begin(), ns.end());
    const int64_t median = ns[ns.size() / 2] / speedup;
    rec["results"][test]["samples_ns"] = {median - median / 100, median, median + median / 100};
  }
  return rec;
}

const json& row_of(const json& cmp, const std::string& model, const std::string& test) {
  for (const json& row : cmp["rows"]) {
    if (row["model"] == model && row["test"] == test) return row;
  }
  ADD_FAILURE() << "no row " << model << " " << test << " in " << cmp.dump();
  static const json none;
  return none;
}

TEST(ImportCompareE2E, ThreeMachinesMergeAndEachModelHasItsWinner) {
  TempDir dir;
  testing::write_file(dir.file("tiny.json"), kTinyConfig);
  const ProcessResult synth = run_process({RIGBENCH_BIN, "synth", "--config", dir.file("tiny.json"), "--quant", "Q8_0",
                                           "--output-file", dir.file("tiny.gguf")});
  ASSERT_EQ(synth.exit_code, 0) << synth.err;

  // Real runs of both models on this machine (one pp+tg test each), exported as jsonl.
  const ProcessResult bench =
      run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, dir.file("tiny.gguf"), "-p", "0", "-n", "0", "-pg",
                   "64,32", "-r", "3", "-t", "1", "--db", dir.file("here.db")});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const ProcessResult exported = run_process({RIGBENCH_BIN, "export", "--db", dir.file("here.db")});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::vector<json> runs = lines_of(exported.out);
  ASSERT_EQ(runs.size(), 2u);
  const std::string shipped = runs[0]["model"]["name"], synthetic = runs[1]["model"]["name"];
  ASSERT_TRUE(runs[1]["model"]["synthetic"].get<bool>());

  // Three machines, three databases: rig-b runs the shipped model 4x as fast as rig-a,
  // rig-c runs the synthetic one 5x as fast: no machine wins every model.
  for (const std::string m : {"a", "b", "c"}) {
    std::string text;
    for (const json& rec : runs) {
      const bool faster =
          (m == "b" && rec["model"]["name"] == shipped) || (m == "c" && rec["model"]["name"] == synthetic);
      text += as_machine(rec, m, faster ? (m == "b" ? 4 : 5) : 1).dump() + "\n";
    }
    testing::write_file(dir.file(m + ".jsonl"), text);
    const ProcessResult imp =
        run_process({RIGBENCH_BIN, "import", "--db", dir.file(m + ".db"), dir.file(m + ".jsonl")});
    ASSERT_EQ(imp.exit_code, 0) << imp.err;
    EXPECT_NE(testing::unpadded(imp.out).find(" | rigbench jsonl | 2 | 2 | 0 | 0 | 0 |"), std::string::npos) << imp.out;
  }

  // Merged into one; importing again changes nothing.
  const std::vector<std::string> merge = {
      RIGBENCH_BIN,     "import", "--db", dir.file("all.db"), dir.file("a.db"), dir.file("b.db"),
      dir.file("c.db"), "-o",     "json"};
  const ProcessResult first = run_process(merge);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  for (const json& f : json::parse(first.out)) {
    EXPECT_EQ(f["format"], "rigbench database");
    EXPECT_EQ(f["added"], 2);
  }
  const ProcessResult second = run_process(merge);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  for (const json& f : json::parse(second.out)) EXPECT_EQ(f["already_stored"], 2);
  EXPECT_EQ(lines_of(run_process({RIGBENCH_BIN, "export", "--db", dir.file("all.db")}).out).size(), 6u);

  // export -o md|csv: a machine column first; md names the llama.cpp build once, not per record.
  const ProcessResult md_export = run_process({RIGBENCH_BIN, "export", "--db", dir.file("all.db"), "-o", "md"});
  ASSERT_EQ(md_export.exit_code, 0) << md_export.err;
  const std::string md_rows = testing::unpadded(md_export.out);
  // (past 120 columns a table per model, named above it: "model: stories260K F32, ...")
  EXPECT_TRUE(md_rows.starts_with("| machine | model |") || md_rows.starts_with("model: stories260K F32"))
      << md_export.out;
  EXPECT_NE(md_rows.find("| machine | "), std::string::npos) << md_export.out;
  for (const char* m : {"| rig-a | ", "| rig-b | ", "| rig-c | "}) EXPECT_NE(md_rows.find(m), std::string::npos) << m;
  std::size_t builds = 0;
  for (std::size_t at = md_export.out.find("llama.cpp build: "); at != std::string::npos;
       at = md_export.out.find("llama.cpp build: ", at + 1)) {
    ++builds;
  }
  EXPECT_EQ(builds, 1u) << md_export.out;
  const ProcessResult csv_export = run_process({RIGBENCH_BIN, "export", "--db", dir.file("all.db"), "-o", "csv"});
  ASSERT_EQ(csv_export.exit_code, 0) << csv_export.err;
  EXPECT_TRUE(csv_export.out.starts_with("machine,model_name,")) << csv_export.out;
  EXPECT_EQ(std::count(csv_export.out.begin(), csv_export.out.end(), '\n'), 7);

  // compare: one column per machine, the winner per model.
  const ProcessResult cmp_run = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("all.db"), "-o", "json"});
  ASSERT_EQ(cmp_run.exit_code, 0) << cmp_run.err;
  const json cmp = json::parse(cmp_run.out);
  EXPECT_EQ(cmp["columns"], json({"rig-a", "rig-b", "rig-c"}));
  EXPECT_EQ(cmp["baseline"], "rig-a");
  const std::string shipped_label = shipped + " F32", synthetic_label = synthetic + " Q8_0 (synthetic v2, seed 42)";
  for (const char* test : {"pp64 (pg)", "tg32 (pg)", "ttft pp64 (pg)"}) {  // a -pg test's rows
    const json& s = row_of(cmp, shipped_label, test);
    EXPECT_EQ(s["winner"], "rig-b") << test << ": " << s.dump();
    EXPECT_NEAR(s["cells"][1]["ratio"].get<double>(), 4.0, 1e-3) << test;
    EXPECT_NEAR(s["cells"][2]["ratio"].get<double>(), 1.0, 1e-12) << test;
    const json& t = row_of(cmp, synthetic_label, test);
    EXPECT_EQ(t["winner"], "rig-c") << test << ": " << t.dump();
    EXPECT_NEAR(t["cells"][2]["ratio"].get<double>(), 5.0, 1e-3) << test;
    EXPECT_EQ(t["cells"][0]["n"], 3);
  }
  EXPECT_TRUE(cmp["regressions"].empty());  // one build everywhere

  // The markdown table, against another baseline.
  const ProcessResult md = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("all.db"), "--baseline", "rig-b"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(testing::unpadded(md.out).find("| model | test | rig-a | rig-b (baseline) | rig-c | winner |"),
            std::string::npos)
      << md.out;
  EXPECT_NE(testing::unpadded(md.out).find("| " + shipped_label + " | tg32 (pg) t/s | "), std::string::npos) << md.out;
  // the ratio, then the cell's end or, on a busy machine, its runs' noise codes ("[noise: ...]")
  EXPECT_NE(testing::unpadded(md.out).find(" ×0.25 "), std::string::npos) << md.out;
  EXPECT_NE(testing::unpadded(md.out).find(" | rig-c |\n"), std::string::npos) << md.out;

  // Transposed: one column per model.
  const ProcessResult by_model =
      run_process({RIGBENCH_BIN, "compare", "--db", dir.file("all.db"), "--by", "model", "-o", "csv"});
  ASSERT_EQ(by_model.exit_code, 0) << by_model.err;
  EXPECT_TRUE(by_model.out.starts_with("machine,metric,unit,test,model,")) << by_model.out;
}

TEST(ImportCompareE2E, BadInputImportsNothingAndExitsWithTheRightCode) {
  TempDir dir;
  testing::write_file(dir.file("empty.jsonl"), "");
  testing::write_file(dir.file("bad.txt"), "what is this\n");
  // Each bad file is named on its own line; with no good one, nothing is written.
  const ProcessResult bad =
      run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), dir.file("empty.jsonl"), dir.file("bad.txt")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "rigbench: error: import '" + dir.file("empty.jsonl") +
                         "': empty file; nothing to import; skipped\n"
                         "rigbench: error: import '" +
                         dir.file("bad.txt") +
                         "': unknown format (expected rigbench jsonl, json or database; llama-bench json, jsonl, csv, "
                         "sql or its markdown table); skipped\n"
                         "rigbench: error: import: 2 of 2 files skipped (named above); nothing imported\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.db")));
  const ProcessResult missing = run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), dir.file("none.jsonl")});
  EXPECT_EQ(missing.exit_code, 1);
  const ProcessResult no_db = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("none.db")});
  EXPECT_EQ(no_db.exit_code, 1);
  EXPECT_NE(no_db.err.find("database '" + dir.file("none.db") + "': no such file"), std::string::npos) << no_db.err;
  EXPECT_EQ(run_process({RIGBENCH_BIN, "compare", "--by", "gpu", "--db", dir.file("none.db")}).exit_code, 2);
  EXPECT_EQ(run_process({RIGBENCH_BIN, "compare", "-o", "xml", "--db", dir.file("none.db")}).exit_code, 2);
  EXPECT_EQ(run_process({RIGBENCH_BIN, "import"}).exit_code, 2);
  EXPECT_EQ(run_process({RIGBENCH_BIN, "export", "-o", "xml"}).exit_code, 2);
}

// -r says how many repetitions llama-bench's csv and sql output averaged; rigbench records
// (and llama-bench json/jsonl) hold their samples: -r is refused there, never silently ignored.
TEST(ImportCompareE2E, RepetitionsAreRefusedForFilesThatHoldTheirSamples) {
  TempDir dir;
  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "0", "-r", "1",
                                           "-t", "1", "--no-db", "-o", "jsonl"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  testing::write_file(dir.file("rig-a.jsonl"), bench.out);
  const ProcessResult r =
      run_process({RIGBENCH_BIN, "import", "-r", "5", "--db", dir.file("x.db"), dir.file("rig-a.jsonl")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "rigbench: error: import '" + dir.file("rig-a.jsonl") +
                       "': -r gives the repetitions of llama-bench csv and sql output, which does not record them; "
                       "rigbench jsonl records hold their own samples; import this file without -r\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.db")));
  EXPECT_EQ(run_process({RIGBENCH_BIN, "import", "--db", dir.file("x.db"), dir.file("rig-a.jsonl")}).exit_code, 0);
}
}  // namespace
}  // namespace rigbench
