// End-to-end tests of the real `rigbench` binary on the shipped model: real llama.cpp, a
// real SQLite file in a temp dir, real signals.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/csv.h"
#include "core/strings.h"
#include "report/table.h"
#include "support/db_query.h"
#include "support/gguf_fixtures.h"
#include "support/golden.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;
using testing::unpadded;

// Small, fast runs on the shipped model (real weights, tiny).
std::vector<std::string> bench_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "32", "-n", "8", "-r", "2",
                                   "-t",         "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

using testing::query_int;
using testing::query_text;

void expect_record_fields(const nlohmann::json& r, const nlohmann::json& tg) {
  for (const char* key : {"schema_version", "record_id", "test_time", "machine", "build", "model", "params", "results",
                          "memory", "devices_used", "tags"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_EQ(r["model"]["arch"], "llama");
  EXPECT_EQ(r["model"]["size_bytes"], 1185376);
  EXPECT_EQ(r["params"]["n_prompt"], 32);
  EXPECT_EQ(r["params"]["n_gen"], 0);
  EXPECT_EQ(r["params"]["n_threads"], 1);
  EXPECT_EQ(r["params"]["poll"], 50);
  EXPECT_EQ(r["status"], "ok");
  EXPECT_EQ(r["results"]["pp"]["samples_ns"].size(), 2u);
  EXPECT_FALSE(r["results"].contains("tg"));
  EXPECT_GT(r["results"]["pp"]["avg_tps"].get<double>(), 0);
  EXPECT_GT(r["results"]["ttft"]["avg_ms"].get<double>(), 0);
  EXPECT_EQ(tg["params"]["n_prompt"], 0);
  EXPECT_EQ(tg["params"]["n_gen"], 8);
  EXPECT_EQ(tg["results"]["tg"]["samples_ns"].size(), 2u);
  EXPECT_GT(tg["results"]["tg"]["avg_tps"].get<double>(), 0);
  EXPECT_FALSE(tg["results"].contains("pp"));
  EXPECT_GT(r["memory"]["peak_rss_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["build"]["llama_cpp_commit"], "80fb11ac73e66d89eae2c6a91d8a77428fa733ed");
  EXPECT_FALSE(r["machine"]["cpu"].get<std::string>().empty());
  EXPECT_EQ(r["test_time"].get<std::string>().size(), 20u);
}

// The default model is a synthetic Llama-3.2-1B Q4_K_M, written to the cache on first use;
// the file of an older values recipe (the unversioned name) is replaced, a newer one kept.
TEST(BenchE2E, DefaultRunWritesTheSyntheticDefaultOnceAndLabelsIt) {
  TempDir cache;
  const std::filesystem::path models = std::filesystem::path(cache.path()) / "rigbench" / "models";
  std::filesystem::create_directories(models);
  testing::write_file((models / "Llama-3.2-1B-Q4_K_M.synthetic.gguf").string(), "an older recipe's file");
  testing::write_file((models / "Llama-3.2-1B-Q4_K_M.synthetic-v9.gguf").string(), "a newer build's file");
  setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
  const ProcessResult first =
      run_process({RIGBENCH_BIN, "bench", "--no-db", "-r", "1", "-p", "32", "-n", "4", "-o", "json"});
  const ProcessResult second = run_process({RIGBENCH_BIN, "bench", "--no-db", "-r", "1", "-p", "32", "-n", "4"});
  unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find("writing the default model"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("an older recipe's default model"), std::string::npos) << first.err;
  EXPECT_FALSE(std::filesystem::exists(models / "Llama-3.2-1B-Q4_K_M.synthetic.gguf"));
  EXPECT_TRUE(std::filesystem::exists(models / "Llama-3.2-1B-Q4_K_M.synthetic-v2.gguf"));
  EXPECT_TRUE(std::filesystem::exists(models / "Llama-3.2-1B-Q4_K_M.synthetic-v9.gguf"));
  const auto j = nlohmann::json::parse(first.out)[0];
  EXPECT_EQ(j["model"]["name"], "Llama-3.2-1B");
  EXPECT_EQ(j["model"]["file_type"], "Q4_K_M");
  EXPECT_TRUE(j["model"]["synthetic"].get<bool>());
  // The published Llama-3.2-1B shape (1,235,814,400 with tied embeddings) and rope_freqs' 32 factors.
  EXPECT_EQ(j["model"]["n_params"], 1235814432);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err.find("writing the default model"), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("is synthetic"), std::string::npos);
  EXPECT_NE(unpadded(second.out).find("| Llama-3.2-1B Q4_K_M (synthetic) |"), std::string::npos) << second.out;
  EXPECT_NE(unpadded(second.out).find("| pp32 |"), std::string::npos) << second.out;
  EXPECT_NE(unpadded(second.out).find("| tg4 |"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("note: (synthetic): random weights"), std::string::npos);
  for (const auto& line : split(second.out, '\n')) EXPECT_LE(report::display_width(line), 120u) << line;
}

// A newcomer's `bench -p 512 -n 128 -d 0,4096` table lost its alignment at the depth's rows
// ("pp512 @ d4096" after "pp512"; a tg's "1093.03 ± 508.44" after "582.14 ± 4.39"): streamed
// rows are as wide as the longest test the run plans, and t/s as 20 at least (llama-bench's).
TEST(BenchE2E, RowsOfADepthStayAlignedWithTheFirst) {
  const ProcessResult r = run_process(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-d", "0,256", "-r", "2", "-t", "1", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::size_t> bars;  // the columns of the header's '|'
  std::size_t rows = 0;
  for (const std::string& line : split(r.out, '\n')) {
    if (!line.starts_with("|")) continue;
    std::vector<std::size_t> at;
    std::size_t col = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) at.push_back(col);
      ++col;
    }
    if (bars.empty()) bars = at;
    EXPECT_EQ(at, bars) << line << "\n" << r.out;
    ++rows;
  }
  EXPECT_EQ(rows, 6u) << r.out;  // header, rule, pp16, tg4, pp16 @ d256, tg4 @ d256
  EXPECT_NE(r.out.find("t/s: mean ± standard deviation of the repetitions"), std::string::npos) << r.out;
}

TEST(BenchE2E, TableShowsKnobsThatAreSetAndTheFileWhenSeveralModelsRun) {
  TempDir dir;
  testing::write_file(dir.file("copy.gguf"), testing::read_file(RIGBENCH_TEST_MODEL));
  const ProcessResult r = run_process(bench_args({"--no-db", "-r", "1", "-fa", "1,0", dir.file("copy.gguf")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(unpadded(r.out).find("| file |"), std::string::npos) << r.out;
  EXPECT_NE(unpadded(r.out).find("| fa |"), std::string::npos) << r.out;
  EXPECT_NE(unpadded(r.out).find("| copy.gguf |"), std::string::npos) << r.out;
  EXPECT_NE(unpadded(r.out).find("| stories260K.gguf |"), std::string::npos) << r.out;
  const auto lines = split(r.out, '\n');
  // header and rule, then 2 models x 2 fa x (pp32, tg8)
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("|", 0) == 0; }), 2 + 8)
      << r.out;
  const ProcessResult plain = run_process(bench_args({"--no-db", "-r", "1"}));
  EXPECT_EQ(unpadded(plain.out).find("| fa |"), std::string::npos);
  EXPECT_EQ(unpadded(plain.out).find("| params |"), std::string::npos);
  // --wide: the columns kept to csv/json by default (the newcomer found it did nothing).
  const ProcessResult wide = run_process(bench_args({"--no-db", "-r", "1", "--wide"}));
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_NE(unpadded(wide.out).find("| params | backend |"), std::string::npos) << wide.out;
  EXPECT_NE(unpadded(wide.out).find("| peak RSS MiB |"), std::string::npos) << wide.out;
  // A -pg test's rows say so; every line of the default view within 120 columns, notes too.
  const ProcessResult pg = run_process(bench_args({"--no-db", "-r", "1", "-p", "0", "-n", "0", "-pg", "32,8"}));
  ASSERT_EQ(pg.exit_code, 0) << pg.err;
  EXPECT_NE(unpadded(pg.out).find("| pp32 (pg) |"), std::string::npos) << pg.out;
  EXPECT_NE(unpadded(pg.out).find("| tg8 (pg) |"), std::string::npos) << pg.out;
  for (const auto& line : split(plain.out + pg.out, '\n')) EXPECT_LE(report::display_width(line), 120u) << line;
  EXPECT_EQ(unpadded(plain.out).find("| file |"), std::string::npos);
}

// Model bytes llama.cpp placed in buffers of type `buffer_type` ("CPU_Mapped": the mmapped file).
uint64_t model_bytes_in(const nlohmann::json& record, const std::string& buffer_type) {
  uint64_t total = 0;
  for (const auto& b : record["memory"]["buffers"]) {
    if (b["buffer_type"] == buffer_type) total += b["model_bytes"].get<uint64_t>();
  }
  return total;
}

TEST(BenchE2E, LoadModeNoneReadsTheWeightsIntoMemoryAndIsReported) {
  const ProcessResult none = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1",
                                          "-lm", "none", "--no-db", "-o", "json"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  const auto j = nlohmann::json::parse(none.out);
  ASSERT_EQ(j.size(), 2u);  // pp16, tg4
  EXPECT_EQ(j[0]["params"]["load_mode"], "none");
  EXPECT_EQ(j[0]["params"]["n_prompt"], 16);
  EXPECT_EQ(j[1]["params"]["n_gen"], 4);
  EXPECT_EQ(j[1]["results"]["tg"]["samples_ns"].size(), 1u);
  EXPECT_GT(j[1]["results"]["tg"]["avg_tps"].get<double>(), 0);
  // llama.cpp really loaded without mmap: no weights in a CPU_Mapped buffer (with mmap, all of them).
  EXPECT_EQ(model_bytes_in(j[0], "CPU_Mapped"), 0u) << j[0]["memory"].dump();
  const ProcessResult mmap = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1",
                                          "-t", "1", "-lm", "mmap", "--no-db", "-o", "json"});
  ASSERT_EQ(mmap.exit_code, 0) << mmap.err;
  const auto m = nlohmann::json::parse(mmap.out)[0];
  EXPECT_EQ(m["params"]["load_mode"], "mmap");
  EXPECT_GT(model_bytes_in(m, "CPU_Mapped"), 0u) << m["memory"].dump();
}

TEST(BenchE2E, TableShowsTheLoadModeColumnWhenSet) {
  const ProcessResult r = run_process(bench_args({"--no-db", "-r", "1", "-lm", "none,mmap"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(unpadded(r.out).find("| lm | threads |"), std::string::npos) << r.out;
  EXPECT_NE(unpadded(r.out).find("| none | 1 |"), std::string::npos) << r.out;
  EXPECT_NE(unpadded(r.out).find("| mmap | 1 |"), std::string::npos) << r.out;
  const ProcessResult plain = run_process(bench_args({"--no-db", "-r", "1"}));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(unpadded(plain.out).find("| lm |"), std::string::npos) << plain.out;
}

TEST(BenchE2E, WarnsAboutAContextBeyondTraining) {
  const ProcessResult w = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--no-db", "-r", "1", "-p", "0",
                                       "-n", "0", "-pg", "2048,8", "-t", "1", "--warmup", "0"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(w.err.find("warning: n_ctx 2056 (depth + prompt + generation) exceeds the 2048 tokens"), std::string::npos)
      << w.err;
}

// A run that fails is a result: its row says so, the note why, the other runs still run, and
// the exit code (1) is set at the end.
TEST(BenchE2E, AFailedRunIsARowAndTheOthersStillRun) {
  TempDir dir;
  // The shipped model's 8-dim heads cannot hold a q8_0 cache (blocks of 32); f16 can. Without
  // --force fit's check refuses it before anything runs (next test); with it, llama.cpp fails.
  const ProcessResult r =
      run_process(bench_args({"--db", dir.file("r.db"), "-fa", "1", "-ctk", "q8_0,f16", "-ctv", "f16", "--force"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto lines = split(unpadded(trim(r.out)), '\n');
  ASSERT_GE(lines.size(), 6u) << r.out;
  EXPECT_NE(lines[2].find("| q8_0 | on | 1 | pp32 | failed |"), std::string::npos) << r.out;
  EXPECT_NE(lines[3].find("| q8_0 | on | 1 | tg8 | failed |"), std::string::npos) << r.out;
  EXPECT_NE(lines[4].find("| f16 | on | 1 | pp32 | "), std::string::npos) << r.out;
  EXPECT_EQ(lines[4].find("failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: row 1: failed: model '"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cannot create a context"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("rigbench: error: 2 of 4 tests did not run (0 refused, 2 failed; stored): model '"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs WHERE status = 'failed'"), 2);
  EXPECT_EQ(query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs WHERE status = 'ok'"), 2);
  EXPECT_NE(
      query_text(dir.file("r.db"), "SELECT failed FROM runs WHERE status = 'failed'").find("cannot create a context"),
      std::string::npos);
}

// A KV cache llama.cpp cannot create (q8_0's blocks of 32 do not divide the shipped model's
// 8-dim heads under flash attention) is refused before anything runs, with llama.cpp's reason,
// as fit refuses it; nothing is stored. With --force it runs and fails, and the failed
// records say what was asked (-r auto: mode auto, its target; no repetition ran).
TEST(BenchE2E, AKvCacheLlamaCppCannotCreateIsRefusedUpFront) {
  TempDir dir;
  const ProcessResult r = run_process(
      bench_args({"--db", dir.file("r.db"), "-ngl", "99", "-fa", "1", "-ctk", "q8_0", "-ctv", "q8_0", "-r", "auto"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("-ctk q8_0: llama.cpp refuses it with flash attention: K cache type q8_0 with block size 32 "
                       "does not divide n_embd_head_k=8"),
            std::string::npos)
      << r.err;
  const std::string error = r.err.substr(r.err.find("rigbench: error: "));
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << r.err;  // one line
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.db")) &&
               query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs") > 0);
  // The V cache alone: its own head size (n_embd_head_v).
  const ProcessResult v = run_process(bench_args({"--no-db", "-fa", "1", "-ctv", "q8_0"}));
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_NE(v.err.find("does not divide n_embd_head_v=8"), std::string::npos) << v.err;

  const ProcessResult forced = run_process(bench_args({"--no-db", "-fa", "1", "-ctk", "q8_0", "-ctv", "q8_0", "-r",
                                                       "auto", "--ci-target", "3", "--force", "-o", "json"}));
  EXPECT_EQ(forced.exit_code, 1) << forced.err;
  const auto records = nlohmann::json::parse(forced.out);
  ASSERT_EQ(records.size(), 2u) << forced.out;
  for (const auto& rec : records) {
    EXPECT_EQ(rec["status"], "failed");
    EXPECT_EQ(rec["precision"]["repetitions_mode"], "auto") << rec["precision"].dump();
    EXPECT_DOUBLE_EQ(rec["precision"]["ci_target_pct"].get<double>(), 3.0);
    EXPECT_EQ(rec["params"]["repetitions"], 0);  // -r auto counts the repetitions run: none
  }
}

TEST(BenchE2E, JsonParsesAndCarriesTheFields) {
  const ProcessResult r = run_process(bench_args({"--no-db", "-o", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);  // pp32 (with TTFT), tg8
  expect_record_fields(j[0], j[1]);
}

TEST(BenchE2E, JsonlHasOneRecordPerRunOfTheCartesianProduct) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-n", "8", "-r", "1", "-t", "1",
                                       "--no-db", "-o", "jsonl", "-p", "16,32", "-d", "0,64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split(trim(r.out), '\n');
  ASSERT_EQ(lines.size(), 6u);  // per depth: pp16, pp32, tg8
  const auto pp = nlohmann::json::parse(lines[4]);
  EXPECT_EQ(pp["params"]["n_depth"], 64);
  EXPECT_EQ(pp["params"]["n_prompt"], 32);
  EXPECT_EQ(pp["params"]["n_gen"], 0);
  EXPECT_EQ(pp["params"]["n_ctx"], 64 + 32);
  const auto tg = nlohmann::json::parse(lines[5]);
  EXPECT_EQ(tg["params"]["n_prompt"], 0);
  EXPECT_EQ(tg["params"]["n_ctx"], 64 + 8);
}

TEST(BenchE2E, CsvHasHeaderAndRow) {
  const ProcessResult r = run_process(bench_args({"--no-db", "-o", "csv"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // RFC 4180 through the one CSV reader: a noise note on a busy machine holds commas (quoted).
  const auto rows = parse_csv(r.out);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 3u);  // header, pp32, tg8
  const auto& header = (*rows)[0].fields;
  const auto& pp = (*rows)[1].fields;
  const auto& tg = (*rows)[2].fields;
  ASSERT_EQ(header.size(), pp.size());
  ASSERT_EQ(header.size(), tg.size());
  auto at = [&](const std::vector<std::string>& row, const std::string& key) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == key) return row[i];
    return std::string("<missing " + key + ">");
  };
  EXPECT_EQ(at(pp, "n_prompt"), "32");
  EXPECT_EQ(at(pp, "model_size_bytes"), "1185376");
  EXPECT_GT(std::stod(at(pp, "pp_avg_tps")), 0);
  EXPECT_GT(std::stod(at(pp, "ttft_avg_ms")), 0);
  EXPECT_EQ(at(pp, "tg_avg_tps"), "");
  EXPECT_GT(std::stod(at(tg, "tg_avg_tps")), 0);
  EXPECT_EQ(at(tg, "status"), "ok");
}

TEST(BenchE2E, DatabaseHoldsTheRecordAndItsSamples) {
  TempDir dir;
  const std::string db = dir.file("results.db");
  const ProcessResult r = run_process(bench_args({"--db", db, "-o", "json", "--tag", "e2e"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto printed = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(query_int(db, "PRAGMA user_version"), 4);
  EXPECT_EQ(
      query_int(db, "SELECT COUNT(*) FROM runs WHERE record_id = '" + printed["record_id"].get<std::string>() + "'"),
      1);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs"), 2);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM samples"), 6);  // pp 2 + TTFT 2, tg 2
  EXPECT_EQ(query_int(db, "SELECT n_prompt FROM runs"), 32);
  EXPECT_EQ(query_text(db, "SELECT load_mode FROM runs"), "auto");
  // compare and report read the record in parts (docs/record.md): every run has them.
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs WHERE setup_part IS NULL OR figures_part IS NULL"), 0);
}

TEST(BenchE2E, DefaultDatabaseIsUnderXdgDataHome) {
  TempDir dir;
  setenv("XDG_DATA_HOME", dir.path().c_str(), 1);
  const ProcessResult r = run_process(bench_args({"-o", "json"}));
  unsetenv("XDG_DATA_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(query_int(dir.file("rigbench/results.db"), "SELECT COUNT(*) FROM runs"), 2);
  EXPECT_NE(r.err.find("rigbench: 2 records stored in " + dir.file("rigbench/results.db")), std::string::npos) << r.err;
}

struct BadInput {
  std::string name;
  std::vector<std::string> args;  // after "bench"
  int exit_code;
  std::string message;  // expected within the one stderr line
};

void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }

class BenchBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(BenchBadInput, OneLineErrorExitCodeAndNothingStored) {
  TempDir dir;
  testing::write_file(dir.file("text.gguf"), "not a model\n");
  testing::write_truncated(RIGBENCH_TEST_MODEL, dir.file("cut.gguf"), 600000);
  testing::write_gguf_with_key(RIGBENCH_TEST_MODEL, dir.file("arch.gguf"), "general.architecture", "nonesuch");
  testing::write_file(dir.file("empty.gguf"), "");
  std::filesystem::create_directories(dir.file("dir.gguf"));
  std::vector<std::string> args = {RIGBENCH_BIN, "bench", "--db", dir.file("r.db")};
  for (auto a : GetParam().args) {
    if (a.rfind("@", 0) == 0) a = dir.file(a.substr(1));
    args.push_back(a);
  }
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("rigbench: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
  // Nothing written: no runs in the database (it may not even exist).
  const int64_t runs = query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs");
  EXPECT_TRUE(runs == -1 || runs == 0) << runs;
}

INSTANTIATE_TEST_SUITE_P(
    E2E, BenchBadInput,
    ::testing::Values(
        BadInput{"MissingFile", {"@missing.gguf"}, 1, "missing.gguf': no such file"},
        BadInput{"NotGguf", {"@text.gguf"}, 1, "text.gguf': not a GGUF file"},
        BadInput{"Truncated", {"@cut.gguf"}, 1, "cut.gguf': truncated GGUF"},
        BadInput{"UnknownArchitecture", {"@arch.gguf"}, 1, "unknown model architecture: 'nonesuch'"},
        // The same validation as fit's (model::check_model_file), the same words.
        BadInput{"Directory", {"@dir.gguf"}, 1, "dir.gguf': is a directory, not a GGUF file"},
        BadInput{"Empty", {"@empty.gguf"}, 1, "empty.gguf': empty file (0 bytes)"},
        BadInput{"GoodThenBadModel", {RIGBENCH_TEST_MODEL, "@text.gguf"}, 1, "not a GGUF file"},
        BadInput{"ZeroRepetitions", {"-r", "0"}, 2, "--repetitions: '0' is out of range"},
        BadInput{"NegativePrompt", {"-p", "64,-1"}, 2, "--n-prompt: '-1' is out of range"},
        BadInput{"NotANumber", {"-n", "lots"}, 2, "--n-gen: 'lots' is not an integer"},
        BadInput{"UnknownCacheType", {"-ctk", "q9_9"}, 2, "-ctk/--cache-type-k: 'q9_9' is not one of f32, f16"},
        BadInput{"BadFlashAttn", {"-fa", "sometimes"}, 2, "-fa/--flash-attn: 'sometimes' is not one of"},
        BadInput{"BadLoadMode", {"-lm", "bogus"}, 2, "-lm/--load-mode: 'bogus' is not one of auto, none, mmap"},
        BadInput{"UnknownFormat", {"-o", "xml"}, 2, "-o/--output 'xml'"},
        BadInput{"UnknownFlag", {"--frobnicate"}, 2, "--frobnicate"},
        BadInput{"LlamaBenchDirectIo",
                 {"-dio", "1"},
                 2,
                 "bench: llama-bench's -dio/--direct-io is not taken here; use -lm dio"},
        BadInput{"LlamaBenchListDevices", {"--list-devices"}, 2, "--list-devices is not taken here; use `rigbench hw`"},
        BadInput{"QuantizedVWithoutFlashAttn",
                 {"-ctv", "q8_0", "-fa", "on,off"},
                 2,
                 "-ctv q8_0 with -fa off: llama.cpp needs flash attention for a quantized V cache"},
        BadInput{"ContextTooSmall", {"-c", "16"}, 2, "-c/--ctx-size 16: smaller than a test needs"},
        BadInput{"BadPg", {"-pg", "64"}, 2, "-pg '64': expected PP,TG"},
        BadInput{"PollOutOfRange", {"--poll", "200"}, 2, "--poll: '200' is out of range [0, 100]"},
        // A placement this build cannot run: one line naming the build that can (issue 31).
        BadInput{"DeviceTheBuildLacks",
                 {RIGBENCH_TEST_MODEL, "-dev", "Vulkan0"},
                 2,
                 "-dev/--device 'Vulkan0': this build has no device Vulkan0 (it has none but the CPU); Vulkan0 needs "
                 "the Vulkan build"},
        BadInput{"BufferTypeTheBuildLacks", {RIGBENCH_TEST_MODEL, "-ot", "exps=CUDA0"}, 2, "this build has no buffer type CUDA0"},
        BadInput{"RowSplitWithoutAGpu", {RIGBENCH_TEST_MODEL, "-sm", "none,row"}, 2, "-sm/--split-mode row: a split over GPUs"},
        BadInput{"MainGpuTheRunLacks", {RIGBENCH_TEST_MODEL, "-sm", "none", "-mg", "3"}, 2,
                 "-mg/--main-gpu 3: this run has 0 GPUs"},
        BadInput{"CpuNamedAsADevice", {RIGBENCH_TEST_MODEL, "-dev", "CPU"}, 2, "CPU is the CPU, which llama.cpp always uses"},
        BadInput{"MalformedOverride", {RIGBENCH_TEST_MODEL, "-ot", "exps"}, 2, "-ot/--override-tensor 'exps': expected PATTERN=BUFFER_TYPE"},
        BadInput{"BadSplitMode", {RIGBENCH_TEST_MODEL, "-sm", "rows"}, 2, "-sm/--split-mode: 'rows' is not one of none, layer, row, tensor"},
        BadInput{"FitWithOverrides",
                 {RIGBENCH_TEST_MODEL, "-fitt", "512", "-ncmoe", "2"},
                 2,
                 "-fitt/-fitc with -ot, -cmoe, -ncmoe or -ts: llama.cpp's fitting chooses"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

TEST(BenchE2E, SigintKeepsFinishedRepetitionsAndExits130) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  // Far more repetitions than can finish before the signal.
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "64", "-n", "16", "-r",
                                       "1000000", "-t", "1", "--db", db, "-o", "json"},
                                      /*signal_after_s=*/3.0, SIGINT);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // the array is closed
  ASSERT_EQ(j.size(), 1u);
  EXPECT_TRUE(j[0]["interrupted"].get<bool>());
  const auto n_pp = j[0]["results"]["pp"]["samples_ns"].size();
  EXPECT_GT(n_pp, 0u);
  EXPECT_LT(n_pp, 1000000u);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs WHERE interrupted = 1"), 1);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM samples WHERE test = 'pp'"), static_cast<int64_t>(n_pp));
  EXPECT_EQ(query_text(db, "PRAGMA integrity_check"), "ok");
}

TEST(BenchE2E, SigtermKeepsFinishedRepetitionsAndExits143) {
  TempDir dir;
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "64", "-n", "16", "-r",
                                       "1000000", "-t", "1", "--db", dir.file("r.db"), "-o", "jsonl"},
                                      /*signal_after_s=*/2.0, SIGTERM);
  EXPECT_EQ(r.exit_code, 143) << r.err;
  const auto j = nlohmann::json::parse(trim(r.out));
  EXPECT_TRUE(j["interrupted"].get<bool>());
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_GT(j["results"]["pp"]["samples_ns"].size(), 0u);  // the first test, pp64, was running
  EXPECT_EQ(query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs WHERE interrupted = 1"), 1);
}

TEST(BenchE2E, HelpAndVersionExitZero) {
  const ProcessResult help = run_process({RIGBENCH_BIN, "bench", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--n-prompt"), std::string::npos);
  const ProcessResult version = run_process({RIGBENCH_BIN, "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("0.1.0"), std::string::npos);
  const ProcessResult none = run_process({RIGBENCH_BIN});  // prints the top-level help
  EXPECT_EQ(none.exit_code, 0);
}

// -ngl 99 on a build whose ggml lists no device but the CPU (the default CPU build; a GPU
// build with no device visible too): one note on stderr that the layers stay on the CPU, and
// the record says backend CPU, not a silent CPU run labelled as offloaded. Skipped on a build
// that has a device (there the layers do go to it: tests/e2e/vulkan_e2e_test.cpp).
// llama-bench's placement flags are knobs: lists with its spellings, one run per value, the
// record keeping each (so compare never pools two), the md table a column where one varies;
// -nkvo/-cmoe alone mean 1 (llama-server's spelling); -fitt's record keeps what fitting chose.
TEST(BenchE2E, PlacementFlagsAreKnobsRecordedPerRun) {
  const ProcessResult r = run_process(bench_args({"-r", "1", "-ncmoe", "0,2", "-nkvo", "-ot",
                                                  "blk\\.0\\.attn_.*=cpu", "--no-db", "-o", "jsonl"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = split(trim(r.out), '\n');
  ASSERT_EQ(lines.size(), 4u) << r.out;  // pp32 and tg8 for each -ncmoe value
  std::vector<int> ncmoe;
  for (const auto& line : lines) {
    const auto rec = nlohmann::json::parse(line);
    ncmoe.push_back(rec["params"]["n_cpu_moe"].get<int>());
    EXPECT_EQ(rec["params"]["no_kv_offload"], 1);
    EXPECT_EQ(rec["params"]["cpu_moe"], 0);
    EXPECT_EQ(rec["params"]["tensor_buft_overrides"], "blk\\.0\\.attn_.*=CPU");  // as llama-bench writes it
    EXPECT_EQ(rec["status"], "ok");
  }
  EXPECT_EQ(ncmoe, (std::vector<int>{0, 0, 2, 2}));
  const ProcessResult md = run_process(bench_args({"-r", "1", "-ncmoe", "0,2", "-cmoe", "--no-db"}));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(unpadded(md.out).find("| n_cpu_moe |"), std::string::npos) << md.out;  // it varies
  EXPECT_NE(unpadded(md.out).find("| cmoe |"), std::string::npos) << md.out;       // off its default
  const ProcessResult fitted = run_process(bench_args({"-r", "1", "-fitt", "512", "--no-db", "-o", "json"}));
  ASSERT_EQ(fitted.exit_code, 0) << fitted.err;
  const auto f = nlohmann::json::parse(fitted.out)[0]["params"];
  EXPECT_EQ(f["fit_target"], 512);
  EXPECT_EQ(f["n_gpu_layers"], -1);  // no GPU here: llama.cpp's fitting leaves its default
}

TEST(BenchE2E, NglOnABuildWithoutAGpuDeviceSaysLayersStayOnTheCpu) {
  const ProcessResult hw = run_process({RIGBENCH_BIN, "hw", "-o", "json"});
  ASSERT_EQ(hw.exit_code, 0) << hw.err;
  const auto machine = nlohmann::json::parse(hw.out);  // kept: a range over a temporary's member would dangle
  for (const auto& g : machine["gpus"]) {
    if (g["source"] == "ggml") GTEST_SKIP() << "this build offloads to " << g["name"];
  }
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1",
                                       "-t", "1", "-ngl", "99", "--no-db", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string note = "rigbench: note: -ngl 99: this build's ggml backends (";
  const auto at = r.err.find(note);
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(note, at + 1), std::string::npos) << "said once:\n" << r.err;
  EXPECT_NE(r.err.find("every layer stays on the CPU", at), std::string::npos) << r.err;
  for (const auto& rec : nlohmann::json::parse(r.out)) {
    EXPECT_EQ(rec["params"]["n_gpu_layers"], 99);
    EXPECT_EQ(rec["devices_used"], nlohmann::json::array({"CPU"})) << rec["devices_used"].dump();
  }
  // Without -ngl (the default, -1 = all) nothing is said.
  const ProcessResult quiet = run_process(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "0", "-r", "1", "-t", "1", "--no-db"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("rigbench: note: -ngl"), std::string::npos) << quiet.err;
}

}  // namespace
}  // namespace rigbench
