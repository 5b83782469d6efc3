// End-to-end tests of the entry point (the real binary): bare `rigbench` and `help`, unknown
// subcommands and flags named with the nearest name, and `-o sql` loaded by the sqlite3 CLI.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "support/db_query.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

ProcessResult rigbench(std::vector<std::string> args) {
  args.insert(args.begin(), RIGBENCH_BIN);
  return run_process(args);
}

// Runs `script` with bash, pipefail on (a pipeline fails when any part fails).
ProcessResult shell(const std::string& script) {
  return run_process({"/bin/bash", "-c", "set -o pipefail; " + script});
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string query(const std::string& db_path, const std::string& sql) { return testing::query_text(db_path, sql); }

// A usage error: nothing on stdout, exactly `message` as the one line on stderr, exit 2.
void expect_usage_error(const ProcessResult& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "rigbench: error: " + message + "\n");
}

TEST(EntryE2E, BareRigbenchAndHelpPrintTheTopLevelHelp) {
  const ProcessResult bare = rigbench({});
  EXPECT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_EQ(bare.err, "");
  EXPECT_NE(bare.out.find("Usage: rigbench [OPTIONS] SUBCOMMAND"), std::string::npos) << bare.out;
  for (const char* sub : {"bench", "synth", "fit", "compare", "report"})
    EXPECT_NE(bare.out.find(sub), std::string::npos) << sub;
  EXPECT_NE(bare.out.find("rigbench help SUBCOMMAND"), std::string::npos) << bare.out;
  EXPECT_NE(bare.out.find("2 bad flag or value"), std::string::npos) << bare.out;
  for (const std::vector<std::string>& same :
       {std::vector<std::string>{"help"}, {"help", "help"}, {"help", "--help"}, {"--help"}}) {
    const ProcessResult r = rigbench(same);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, bare.out) << same.back();
  }
}

TEST(EntryE2E, HelpSubcommandPrintsThatSubcommandsHelp) {
  const ProcessResult help = rigbench({"help", "bench"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--n-prompt"), std::string::npos) << help.out;
  EXPECT_EQ(help.out, rigbench({"bench", "--help"}).out);
  // The top-level footer stays at the top: a subcommand's help has its own.
  EXPECT_EQ(help.out.find("rigbench help SUBCOMMAND"), std::string::npos) << help.out;
  expect_usage_error(rigbench({"help", "benhc"}), "help: unknown subcommand 'benhc'; did you mean 'bench'?");
}

TEST(EntryE2E, UnknownSubcommandSuggestsTheNearestOne) {
  expect_usage_error(rigbench({"benhc"}), "unknown subcommand 'benhc'; did you mean 'bench'?");
  expect_usage_error(rigbench({"reprot", "-o", "html"}), "unknown subcommand 'reprot'; did you mean 'report'?");
  const ProcessResult far = rigbench({"frobnicate"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(
      far.err.rfind("rigbench: error: unknown subcommand 'frobnicate'; the subcommands are bench, embed, serve-bench, tune, synth, ", 0),
      0u)
      << far.err;
  EXPECT_NE(far.err.find(", report (see rigbench --help)\n"), std::string::npos) << far.err;
  expect_usage_error(rigbench({"--frob", "bench"}),
                     "unknown flag '--frob' before the subcommand; flags follow it: rigbench SUBCOMMAND [FLAGS] (see "
                     "rigbench --help)");
}

// CLI11 listed the pieces backwards ("not expected: 4096 --num-ctx"): the unknown flag comes
// first, the rest in the order given, and where to look.
TEST(EntryE2E, UnexpectedArgumentsNameTheUnknownFlagFirstInTheOrderGiven) {
  expect_usage_error(rigbench({"export", "--num-ctx", "4096"}),
                     "export: unknown flag '--num-ctx'; not expected either: '4096' (see rigbench export --help)");
  expect_usage_error(rigbench({"export", "stray"}), "export: unexpected argument 'stray' (see rigbench export --help)");
  expect_usage_error(rigbench({"bench", RIGBENCH_TEST_MODEL, "--no-db", "--n-promt", "64"}),
                     "bench: unknown flag '--n-promt' (did you mean '--n-prompt'?) (see rigbench bench --help)");
  expect_usage_error(rigbench({"bench", "--num-ctx=4096", RIGBENCH_TEST_MODEL}),
                     "bench: unknown flag '--num-ctx' (see rigbench bench --help)");
}

// A new user typed llama-bench's spellings: -pg is its only spelling (rigbench also took --pg,
// which llama-bench does not), fit did not take -nkvo (llama.cpp's spelling of its
// --no-kv-offload), serve-bench had no --no-warmup, and a one-dash spelling a subcommand does
// not take was read as bundled letters ("fit -dev x": "--n-depth: 'ev' is not a number", before
// fit took -dev).
TEST(EntryE2E, LlamaBenchSpellingsAreTakenWhereTheFlagIsAndNamedAsTypedElsewhere) {
  expect_usage_error(rigbench({"fit", RIGBENCH_TEST_MODEL, "-nopo", "1"}),
                     "fit: unknown flag '-nopo' (see rigbench fit --help)");
  expect_usage_error(rigbench({"serve-bench", "http://127.0.0.1:9", "-ngl", "99"}),
                     "serve-bench: unknown flag '-ngl' (see rigbench serve-bench --help)");
  expect_usage_error(rigbench({"bench", RIGBENCH_TEST_MODEL, "--no-db", "--pg", "8,4"}),
                     "bench: unknown flag '--pg' (did you mean '-pg'?) (see rigbench bench --help)");
  const ProcessResult pg = rigbench({"bench", RIGBENCH_TEST_MODEL, "--no-db", "-r", "1", "-t", "1", "-p", "0", "-n",
                                     "0", "-pg", "8,4", "--energy", "off", "-o", "csv"});
  EXPECT_EQ(pg.exit_code, 0) << pg.err;
  const ProcessResult nkvo = rigbench({"fit", RIGBENCH_TEST_MODEL, "-c", "512", "-nkvo", "-o", "json"});
  EXPECT_EQ(nkvo.exit_code, 0) << nkvo.err;
  for (const auto& [sub, flag] : std::vector<std::pair<std::string, std::string>>{{"bench", "-pg PP,TG"},
                                                                                  {"bench", "-ngl,--n-gpu-layers"},
                                                                                  {"fit", "-nkvo,--no-kv-offload"},
                                                                                  {"fit", "-np,--parallel"},
                                                                                  {"embed", "-ngl,--n-gpu-layers"},
                                                                                  {"serve-bench", "--no-warmup"}}) {
    const ProcessResult help = rigbench({sub, "--help"});
    EXPECT_NE(help.out.find("  " + flag + " "), std::string::npos) << sub << " --help lacks " << flag << "\n"
                                                                   << help.out;
  }
}

bool have_sqlite3_cli() { return shell("command -v sqlite3 >/dev/null").exit_code == 0; }

// `rigbench bench -o sql | sqlite3 x.db` makes a table of the records (one per test: pp16
// with its TTFT, tg4), appending on each run.
TEST(EntryE2E, BenchSqlOutputLoadsIntoSqlite3) {
  if (!have_sqlite3_cli()) GTEST_SKIP() << "no sqlite3 command (scripts/setup installs Debian's sqlite3)";
  TempDir dir;
  const std::string db = dir.file("x.db");
  const std::string run = quoted(RIGBENCH_BIN) + " bench " + quoted(RIGBENCH_TEST_MODEL) +
                          " -p 16 -n 4 -r 1 --no-db -o sql | sqlite3 " + quoted(db);
  const ProcessResult first = shell(run);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "");  // sqlite3 prints nothing: every statement ran
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM rigbench"), "2");
  EXPECT_EQ(
      query(db,
            "SELECT n_gen || ' ' || typeof(pp_avg_tps) || ' ' || typeof(ttft_avg_ms) || ' ' || typeof(tg_avg_tps) "
            "FROM rigbench WHERE n_prompt = 16"),
      "0 real real null");
  EXPECT_EQ(
      query(db,
            "SELECT n_prompt || ' ' || typeof(pp_avg_tps) || ' ' || typeof(tg_avg_tps) FROM rigbench WHERE n_gen = 4"),
      "0 null real");
  EXPECT_EQ(query(db, "SELECT COUNT(*) FROM rigbench WHERE pp_avg_tps > 0 OR tg_avg_tps > 0"), "2");
  EXPECT_EQ(query(db,
                  "SELECT DISTINCT repetitions || ' ' || model_size_bytes || ' ' || model_file_type || ' ' || "
                  "model_synthetic || "
                  "' ' || interrupted || ' ' || length(record_id) FROM rigbench"),
            "1 1185376 F32 0 0 32");
  const ProcessResult second = shell(run);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(query(db, "SELECT COUNT(DISTINCT record_id) FROM rigbench"), "4");
}

// `rigbench export -o sql` writes the stored records; loading it twice keeps one copy.
TEST(EntryE2E, ExportSqlLoadsIntoSqlite3Once) {
  if (!have_sqlite3_cli()) GTEST_SKIP() << "no sqlite3 command (scripts/setup installs Debian's sqlite3)";
  TempDir dir;
  const ProcessResult bench =
      rigbench({"bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1", "--db", dir.file("r.db"), "-o", "csv"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const std::string stored =
      query(dir.file("r.db"), "SELECT group_concat(record_id) FROM (SELECT record_id FROM runs ORDER BY record_id)");
  ASSERT_EQ(stored.size(), 32u + 1 + 32u) << stored;
  const std::string load = quoted(RIGBENCH_BIN) + " export --db " + quoted(dir.file("r.db")) + " -o sql | sqlite3 " +
                           quoted(dir.file("x.db"));
  for (int i = 0; i < 2; ++i) {
    const ProcessResult r = shell(load);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(query(dir.file("x.db"),
                  "SELECT group_concat(record_id) FROM (SELECT record_id FROM rigbench ORDER BY record_id)"),
            stored);
}

// Issue 37: did-you-mean for an abbreviated long flag and for catalog names written another
// way, never the whole catalog on one line.
TEST(EntryE2E, DidYouMeanForAFlagAndACatalogName) {
  const ProcessResult reps = run_process({RIGBENCH_BIN, "bench", "--reps", "3"});
  EXPECT_EQ(reps.exit_code, 2);
  EXPECT_NE(reps.err.find("bench: unknown flag '--reps' (did you mean '--repetitions'?)"), std::string::npos) << reps.err;
  const ProcessResult rtx = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-8B", "--device", "RTX3090"});
  EXPECT_EQ(rtx.exit_code, 2);
  EXPECT_EQ(rtx.err, "rigbench: error: --device 'RTX3090': not in the catalog; did you mean 'RTX 3090'?\n");
  const ProcessResult m2 = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-8B", "--device", "M2 Pro"});
  EXPECT_EQ(m2.exit_code, 2);
  EXPECT_EQ(m2.err, "rigbench: error: --device 'M2 Pro': 2 catalog entries match ('M2 Pro 16GB', 'M2 Pro 32GB'); name one\n");
  const ProcessResult none = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-8B", "--device", "Radeon VII"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err.find("RTX 4090"), std::string::npos) << none.err;  // not the whole list
}


}  // namespace
}  // namespace rigbench
