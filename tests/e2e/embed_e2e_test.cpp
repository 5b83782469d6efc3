// End-to-end tests of `rigbench embed` with the real binary on a synthetic bge-small-en-v1.5
// (F16, BERT, CLS pooling), written once per test binary: latency percentiles and the batch
// sweep in every output, the record in the database and in compare; the refusals (bench on an
// encoder, generation flags on embed, embed on a generative model) and bad query files.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

class EmbedE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    model_ = dir_->file("bge-small-en-v1.5-f16.gguf");
    const ProcessResult w = run_process(
        {RIGBENCH_BIN, "synth", "--preset", "bge-small-en-v1.5", "--quant", "F16", "--output-file", model_});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    queries_ = dir_->file("q.txt");
    testing::write_file(queries_, "how to boil an egg\nwhat is a vector database\nwhy is the sky blue\n");
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static TempDir* dir_;
  static std::string model_;
  static std::string queries_;
};
TempDir* EmbedE2E::dir_ = nullptr;
std::string EmbedE2E::model_;
std::string EmbedE2E::queries_;

// Issue 37: embed's defaults ran a fixed count of passes (4 min on a busy machine) with no
// progress off a terminal. -r auto (the default) stops each phase on its interval, or on its
// budget from the second pass on (--max-time 0 here: two passes each); with --progress a line
// per pass; the record says how the passes were decided.
TEST_F(EmbedE2E, AutoRepetitionsByDefaultWithAProgressLinePerPass) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "embed", model_, "--queries", queries_, "-b", "2", "-t", "1",
                                       "--max-time", "0", "--progress", "--no-db", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rec = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(rec["results"]["embedding"]["latency"]["samples_ns"].size(), 6u);  // 3 queries x 2 passes
  EXPECT_EQ(rec["params"]["repetitions"], 2);
  EXPECT_EQ(rec["precision"]["repetitions_mode"], "auto");
  EXPECT_EQ(rec["precision"]["stopped_by"], "max_time");
  for (const char* line : {"rigbench: latency at batch 1: pass 1", "rigbench: latency at batch 1: pass 2",
                           "rigbench: throughput at batch 2: pass 2"}) {
    EXPECT_NE(r.err.find(line), std::string::npos) << line << "\n" << r.err;
  }
  EXPECT_EQ(r.err.find("latency at batch 1: pass 3"), std::string::npos) << r.err;
}

TEST_F(EmbedE2E, LlamaCppLoadsTheSyntheticBgeSmallAsAnEmbeddingModelWithClsPooling) {
  TempDir work;
  const ProcessResult r = run_process({RIGBENCH_BIN, "embed", model_, "--queries", queries_, "-b", "1,2", "-r", "2",
                                       "-t", "1", "--db", work.file("r.db"), "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto recs = nlohmann::json::parse(r.out);
  ASSERT_EQ(recs.size(), 1u);
  const auto& rec = recs[0];
  EXPECT_EQ(rec["status"], "ok");
  EXPECT_TRUE(rec["model"]["synthetic"].get<bool>());
  EXPECT_EQ(rec["model"]["arch"], "bert");
  EXPECT_EQ(rec["params"]["embeddings"], 1);
  const auto& res = rec["results"];
  EXPECT_FALSE(res.contains("pp"));
  EXPECT_FALSE(res.contains("tg"));
  EXPECT_FALSE(res.contains("ttft"));
  EXPECT_EQ(rec["roofline"]["tg_bound_tps"], 0);  // an encoder never gets a tg bound
  const auto& e = res["embedding"];
  EXPECT_EQ(e["pooling"], "cls");
  EXPECT_EQ(e["n_queries"], 3);
  EXPECT_GE(e["n_query_tokens"].get<int>(), 3 * 4);  // [CLS] + words + [SEP]
  EXPECT_EQ(e["latency"]["samples_ns"].size(), 6u);  // 3 queries x 2 repetitions
  const double p50 = e["latency"]["p50_ms"], p95 = e["latency"]["p95_ms"], p99 = e["latency"]["p99_ms"];
  EXPECT_GT(p50, 0);
  EXPECT_LE(p50, p95);
  EXPECT_LE(p95, p99);
  ASSERT_EQ(e["throughput"].size(), 2u);
  EXPECT_EQ(e["throughput"][0]["batch_size"], 1);
  EXPECT_EQ(e["throughput"][1]["batch_size"], 2);
  for (const auto& t : e["throughput"]) {
    EXPECT_EQ(t["samples_ns"].size(), 2u);
    EXPECT_GT(t["avg_texts_per_s"].get<double>(), 0);
    EXPECT_GT(t["avg_tps"].get<double>(), t["avg_texts_per_s"].get<double>());
  }

  // The database holds it; compare and the HTML report show the embedding section per machine.
  const ProcessResult c = run_process({RIGBENCH_BIN, "compare", "--db", work.file("r.db")});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("latency b1"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("batch 2"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("embed latency b1"), std::string::npos) << c.out;  // a compare row, ranked as the others
  EXPECT_NE(c.out.find("| memory "), std::string::npos) << c.out;  // no context to name: not "memory n_ctx 0"
  EXPECT_EQ(c.out.find("n_ctx 0"), std::string::npos) << c.out;
  const ProcessResult h =
      run_process({RIGBENCH_BIN, "report", "--db", work.file("r.db"), "--output-file", work.file("r.html")});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const std::string html = testing::read_file(work.file("r.html"));
  EXPECT_NE(html.find("<section id=\"embeddings\"><h2>Embeddings</h2>"), std::string::npos);
  EXPECT_NE(html.find("<th>p99 ms</th>"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"embed-latency\">"), std::string::npos);  // the latency chart per machine
  const ProcessResult x = run_process({RIGBENCH_BIN, "export", "--db", work.file("r.db"), "-o", "jsonl"});
  ASSERT_EQ(x.exit_code, 0) << x.err;
  const auto back = nlohmann::json::parse(x.out.substr(0, x.out.find('\n')));
  EXPECT_EQ(back["results"]["embedding"]["latency"]["samples_ns"], e["latency"]["samples_ns"]);
}

TEST_F(EmbedE2E, MarkdownAndCsvShowPercentilesAndTheSweep) {
  const ProcessResult md =
      run_process({RIGBENCH_BIN, "embed", model_, "--queries", queries_, "-b", "2", "-r", "1", "-t", "1", "--no-db"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  for (const char* want : {"p50 ms", "p95 ms", "p99 ms", "texts/s", "latency b1", "batch 2", "cls"})
    EXPECT_NE(md.out.find(want), std::string::npos) << want << "\n" << md.out;
  // One machine: named above the table, not a column (csv keeps it); tokens/s with --wide.
  EXPECT_TRUE(md.out.starts_with("on ")) << md.out;
  EXPECT_EQ(md.out.find("| machine"), std::string::npos) << md.out;
  // The model whole on each of its rows, as bench's and compare's tables show it: it was cut
  // into "bge-small-en-v", "1.5 F16", "(synthetic)" on continuation rows with empty cells.
  int rows = 0;
  std::istringstream lines(md.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| ", 0) != 0 || line.find("| ---") != std::string::npos || line.find("| model") == 0) continue;
    EXPECT_TRUE(line.starts_with("| bge-small-en-v1.5 F16 (synthetic) | cls ")) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 2) << md.out;  // latency b1 and batch 2, one row each
  const ProcessResult csv = run_process(
      {RIGBENCH_BIN, "embed", model_, "--queries", queries_, "-b", "2", "-r", "1", "-t", "1", "--no-db", "-o", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("machine,model,pooling,n_threads,test,batch_size,n_samples,latency_p50_ms", 0), 0u)
      << csv.out;
}

TEST_F(EmbedE2E, BenchOnAnEncoderRefusesWithAPointerToEmbed) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", model_, "-p", "16", "-n", "4", "-r", "1", "--no-db"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("an encoder"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("use `rigbench embed " + model_ + "`"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // one line
}

TEST_F(EmbedE2E, GenerationFlagsAreRefusedUpFront) {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"-n", "128"}, {"-p", "512"}, {"-pg", "512,128"}, {"-d", "64"}, {"-ctk", "q8_0"}}) {
    std::vector<std::string> argv = {RIGBENCH_BIN, "embed", model_, "--no-db"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const ProcessResult r = run_process(argv);
    EXPECT_EQ(r.exit_code, 2) << flags[0] << ": " << r.err;
    EXPECT_NE(r.err.find("a generation setting"), std::string::npos) << r.err;
  }
}

TEST_F(EmbedE2E, GenerativeModelIsRefusedWithAPointerToBench) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "embed", RIGBENCH_TEST_MODEL, "--no-db"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not an embedding model"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rigbench bench"), std::string::npos) << r.err;
}

TEST_F(EmbedE2E, BadQueryFileNamesFileAndLineAndExitsOne) {
  TempDir work;
  const std::string bad = work.file("bad.jsonl");
  testing::write_file(bad, "{\"text\": \"fine\"}\n{\"id\": 2}\n");
  const ProcessResult r = run_process({RIGBENCH_BIN, "embed", model_, "--queries", bad, "--no-db"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rigbench: error: queries '" + bad + "' line 2: no \"text\" string\n");
  // Plain lines and JSONL lines mixed: refused, never read as plain text (the JSON lines as queries).
  const std::string mixed = work.file("mixed.txt");
  testing::write_file(mixed, "how to boil an egg\n{\"text\": \"what is a vector database\"}\n");
  const ProcessResult m = run_process({RIGBENCH_BIN, "embed", model_, "--queries", mixed, "--no-db"});
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_EQ(m.err, "rigbench: error: queries '" + mixed +
                       "' line 2: a JSON object among plain lines (line 1 is not JSON): give one query per line, or "
                       "JSONL on every line\n");
  const ProcessResult missing =
      run_process({RIGBENCH_BIN, "embed", model_, "--queries", work.file("none.txt"), "--no-db"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("none.txt': cannot open the file"), std::string::npos) << missing.err;
}

TEST_F(EmbedE2E, BadOutputFormatIsAUsageError) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "embed", model_, "-o", "sql", "--no-db"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace rigbench
