// Every subcommand's md output fits a 120-column terminal (#37: compare over bench and
// serve-bench runs was 521 columns wide, fit --rank price 137, a preamble 371): the real binary
// on the shipped model, catalog devices and a fake OpenAI-protocol server on 127.0.0.1
// (tests/fakes/fake_llm_server.cpp), one database holding bench, tune and serve-bench runs of
// two machines. What may be wider, and why: --wide (asked for) and the command lines tune
// prints for copying (never wrapped). compare's tables name machines too long to fit by letter,
// with a legend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/strings.h"
#include "report/table.h"
#include "support/background.h"
#include "support/golden.h"
#include "support/serve_e2e.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::Background;
using testing::TempDir;

// The lines of `out` wider than 120 columns, less the copyable command lines tune prints.
std::vector<std::string> wide_lines(const std::string& out) {
  std::vector<std::string> wide;
  for (const std::string& line : split(out, '\n')) {
    const bool command = line.starts_with("  llama-") || line.starts_with("  Ollama Modelfile: ");
    if (!command && report::display_width(line) > 120) wide.push_back(line);
  }
  return wide;
}

ProcessResult rigbench(std::vector<std::string> args) {
  args.insert(args.begin(), RIGBENCH_BIN);
  return run_process(args);
}

TEST(TableWidthsE2EFakeServer, EveryMdOutputOfEverySubcommandFitsIn120Columns) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  const std::string model = RIGBENCH_TEST_MODEL;
  Background server(std::vector<std::string>{RIGBENCH_FAKE_LLM_SERVER, "--protocol", "openai", "--port", "0", "--ttft-ms", "2",
                     "--interval-ms", "1"});
  ASSERT_GT(server.port(), 0) << server.err();
  // Results of two machines, in-process and served, for compare; a tune's trials.
  for (const char* machine : {"rig-a", "rig-b"}) {
    const ProcessResult b = rigbench({"bench", model, "-p", "16", "-n", "4", "-r", "2", "-t", "1", "--machine", machine,
                                      "--db", db});
    ASSERT_EQ(b.exit_code, 0) << b.err;
  }
  const std::vector<std::vector<std::string>> runs = {
      {"bench", model, "-p", "16", "-n", "4", "-r", "2", "-t", "1", "-d", "0,16", "--no-db"},
      {"tune", model, "-c", "512", "-t", "1", "--machine", "rig-a", "--db", db},
      {"serve-bench", testing::url(server.port()), "--concurrency", "1,2", "--num-requests", "4", "-p", "16", "-n", "8",
       "--machine", "rig-a", "--db", db},
      // rig-b on the same server: its served rows have two cells, so answers, rankings and pairs name them
      {"serve-bench", testing::url(server.port()), "--concurrency", "1", "--num-requests", "4", "-p", "16", "-n", "8",
       "--machine", "rig-b", "--db", db},
      {"serve-bench", testing::url(server.port()), "--capacity", "concurrency", "--capacity-max", "4", "--slo",
       "ttft_p95_ms=2000,tpot_p95_ms=100", "--num-requests", "4", "-p", "16", "-n", "8", "--no-db"},
      {"synth", "--preset", "bge-small-en-v1.5", "--quant", "F16", "--output-file", dir.file("bge.gguf")},
      {"embed", dir.file("bge.gguf"), "-b", "8", "-r", "2", "--machine", "a-machine-with-a-long-hostname", "--no-db"},
      {"fit", model, "--db", db},  // never the user's database: its runs would add a prediction column
      {"fit", "--preset", "Llama-3.1-8B", "--device", "RTX 3060 12GB", "-c", "8192"},
      {"fit", "--preset", "Llama-3.1-8B", "--device", "all", "-c", "8192"},
      {"fit", "--preset", "Llama-3.1-70B", "-c", "8192", "--rank", "price"},
      {"fit", "--preset", "Llama-3.1-70B", "-c", "8192", "--vs", "RTX 5090,M3 Ultra 512GB (Mac Studio)"},
      {"hw"},
      {"devices"},
      {"presets"},
      {"cost", "--tps", "42", "--watts", "280", "--idle-watts", "60", "--price", "0.30", "--utilization", "0.25",
       "--hardware-price", "1499", "--lifetime-years", "3"},
      {"cost", "--per-model", "--db", db, "--machine", "rig-a", "--price", "0.30"},
      {"cost", "--run", "latest", "--db", db, "--watts", "65", "--price", "0.30"},  // its inputs line was 184
      {"export", "--db", db, "-o", "md"},  // bench, tune and served records: one table per model
  };
  for (const auto& args : runs) {
    const ProcessResult r = rigbench(args);
    const std::string cmd = join(args, " ");
    ASSERT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
    EXPECT_FALSE(r.out.empty()) << cmd;
    for (const std::string& line : wide_lines(r.out)) ADD_FAILURE() << cmd << ": " << line;
  }
  // compare: two machines' in-process and served rows, its preamble, legend, notes, regressions
  // and the served-overhead table; its machine columns wrap between the pieces of their cells.
  const ProcessResult cmp = rigbench({"compare", "--db", db});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("@ c2 · S1 t/s"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("| fake tg8 @ c1 · S1 "), std::string::npos) << cmp.out;  // a ranking row names its tag
  EXPECT_NE(cmp.out.find("| model "), std::string::npos) << cmp.out;
  for (const std::string& line : wide_lines(cmp.out)) ADD_FAILURE() << "compare: " << line;

  // Three machines with long names (145 columns with the names as headers, 141 in the pairs
  // tables): the tables name them by letter, the legend by name.
  const std::string three = dir.file("three.db");
  for (const char* machine : {"desktop-rx6600xt-vulkan", "linux-2080ti-cuda-workstation", "macbook-pro-m2-pro-32gb"}) {
    const ProcessResult b =
        rigbench({"bench", model, "-p", "16", "-n", "4", "-r", "2", "-t", "1", "--machine", machine, "--db", three});
    ASSERT_EQ(b.exit_code, 0) << b.err;
  }
  const ProcessResult lettered = rigbench({"compare", "--db", three});
  ASSERT_EQ(lettered.exit_code, 0) << lettered.err;
  EXPECT_NE(testing::unwrapped(lettered.out)
                .find("A = desktop-rx6600xt-vulkan (baseline), B = linux-2080ti-cuda-workstation, C = "
                      "macbook-pro-m2-pro-32gb."),
            std::string::npos)
      << lettered.out;
  EXPECT_NE(lettered.out.find(" A (baseline) |"), std::string::npos) << lettered.out;
  for (const std::string& line : wide_lines(lettered.out)) ADD_FAILURE() << "compare of three: " << line;
}

// --help of rigbench and of every subcommand within 120 columns: CLI11 wrote an option's
// description on one line (bench's -rpc 170 columns, import's description 131).
TEST(TableWidthsE2E, EveryHelpFitsIn120Columns) {
  for (const char* sub : {"", "bench", "embed", "serve-bench", "tune", "fit", "synth", "cost", "import", "export",
                          "compare", "report", "hw", "devices", "presets"}) {
    std::vector<std::string> args = {"--help"};
    if (*sub) args.insert(args.begin(), sub);
    const ProcessResult r = rigbench(args);
    ASSERT_EQ(r.exit_code, 0) << sub << "\n" << r.err;
    EXPECT_NE(r.out.find("Usage: rigbench"), std::string::npos) << sub;
    for (const std::string& line : split(r.out, '\n')) {
      if (report::display_width(line) > 120) ADD_FAILURE() << "rigbench " << sub << " --help: " << line;
    }
  }
  // A wrapped description continues under its start (column 30), not at the margin.
  const ProcessResult bench = rigbench({"bench", "--help"});
  EXPECT_NE(bench.out.find("list of\n                              f32|f16|bf16"), std::string::npos) << bench.out;
}

}  // namespace
}  // namespace rigbench
