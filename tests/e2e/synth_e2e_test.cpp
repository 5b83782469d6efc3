// End-to-end tests of `rigbench synth` and `rigbench presets`: real files, real llama.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

TEST(SynthE2E, PresetsListsEveryRequiredModelWithItsSource) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "presets", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& p : j) {
    names.push_back(p["name"]);
    EXPECT_EQ(p["source"].get<std::string>().rfind("https://huggingface.co/", 0), 0u) << p["name"];
  }
  for (const char* want : {"Llama-3.2-1B", "Llama-3.1-8B", "Llama-3.1-70B", "Phi-3-mini-4k", "Qwen2.5-7B", "Gemma-2-9B",
                           "Mistral-7B", "Mixtral-8x7B", "DeepSeek-V3", "bge-small-en-v1.5", "SmolLM2-135M"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
}

// A synthetic SmolLM2-135M and bge-small (BERT) are written, load and run (SmolLM2 pp and tg
// in bench; bge-small, an encoder, in embed: bench refuses it), and every result is labelled
// synthetic.
TEST(SynthE2E, WrittenModelsRunAndResultsAreLabelledSynthetic) {
  TempDir dir;
  for (const char* preset : {"SmolLM2-135M", "bge-small-en-v1.5"}) {
    SCOPED_TRACE(preset);
    const std::string path = dir.file(std::string(preset) + ".gguf");
    const ProcessResult w = run_process(
        {RIGBENCH_BIN, "synth", "--preset", preset, "--quant", "Q4_K_M", "--output-file", path, "-o", "json"});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    const auto summary = nlohmann::json::parse(w.out);
    EXPECT_EQ(summary["size_bytes"].get<uint64_t>(), std::filesystem::file_size(path));
    if (std::string(preset) == "bge-small-en-v1.5") {
      testing::write_file(dir.file("q.txt"), "one short query\nanother one\n");
      const ProcessResult e = run_process({RIGBENCH_BIN, "embed", path, "--queries", dir.file("q.txt"), "-b", "2", "-r",
                                           "1", "-t", "1", "--db", dir.file("r.db"), "-o", "json"});
      ASSERT_EQ(e.exit_code, 0) << e.err;
      const auto rec = nlohmann::json::parse(e.out)[0];
      EXPECT_TRUE(rec["model"]["synthetic"].get<bool>());
      EXPECT_GT(rec["results"]["embedding"]["latency"]["p50_ms"].get<double>(), 0);
      continue;
    }
    const ProcessResult b = run_process({RIGBENCH_BIN, "bench", path, "-p", "0", "-n", "0", "-pg", "32,4", "-r", "1",
                                         "-t", "1", "--db", dir.file("r.db"), "-o", "json"});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const auto rec = nlohmann::json::parse(b.out)[0];
    EXPECT_TRUE(rec["model"]["synthetic"].get<bool>());
    EXPECT_GT(rec["results"]["pp"]["avg_tps"].get<double>(), 0);
    EXPECT_GT(rec["results"]["tg"]["avg_tps"].get<double>(), 0);
  }
  const ProcessResult csv = run_process(
      {RIGBENCH_BIN, "bench", dir.file("SmolLM2-135M.gguf"), "-p", "16", "-n", "2", "-r", "1", "--no-db", "-o", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find(",true,"), std::string::npos);  // model_synthetic
}

TEST(SynthE2E, HeaderOnlyFileIsSparse) {
  TempDir dir;
  const std::string path = dir.file("70b.gguf");
  const ProcessResult r = run_process({RIGBENCH_BIN, "synth", "--preset", "Llama-3.1-70B", "--quant", "Q4_K_M",
                                       "--header-only", "--output-file", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("header-only"), std::string::npos);
  EXPECT_GT(std::filesystem::file_size(path), 42'000'000'000u);  // the published file is 42,520,398,400 bytes
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_LT(static_cast<uint64_t>(st.st_blocks) * 512, 64ull << 20);  // on disk: metadata only
}

TEST(SynthE2E, FullDiskLeavesNoPartialFile) {
  TempDir dir;
  const std::string path = dir.file("x.gguf");
  // The file-size limit stands in for a full disk: writes fail with EFBIG past 4 MiB.
  const ProcessResult r = run_process({"/bin/sh", "-c",
                                       std::string("trap '' XFSZ; ulimit -f 4096; exec ") + RIGBENCH_BIN +
                                           " synth --preset SmolLM2-135M --quant Q8_0 --output-file " + path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("write failed"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
}

struct BadSynth {
  std::string name;
  std::vector<std::string> args;
  int exit_code;
  std::string message;
};
void PrintTo(const BadSynth& b, std::ostream* os) { *os << b.name; }

class SynthBadInput : public ::testing::TestWithParam<BadSynth> {};

TEST_P(SynthBadInput, OneLineErrorAndNoFile) {
  TempDir dir;
  std::vector<std::string> args = {RIGBENCH_BIN, "synth"};
  for (auto a : GetParam().args) args.push_back(a.rfind("@", 0) == 0 ? dir.file(a.substr(1)) : a);
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

INSTANTIATE_TEST_SUITE_P(
    E2E, SynthBadInput,
    ::testing::Values(
        BadSynth{"UnknownPreset", {"--preset", "Llama-9", "--output-file", "@x.gguf"}, 2, "--preset 'Llama-9'"},
        BadSynth{"UnknownType",
                 {"--preset", "SmolLM2-135M", "--quant", "Q4_K_XL", "--output-file", "@x.gguf"},
                 2,
                 "--quant 'Q4_K_XL': unknown type"},
        BadSynth{"UnwritableOutput",
                 {"--preset", "SmolLM2-135M", "--output-file", "/dev/null/x.gguf"},
                 1,
                 "--output-file '/dev/null/x.gguf': not a directory: /dev/null"},
        BadSynth{"MissingConfig", {"--config", "@none.json", "--output-file", "@x.gguf"}, 1, "none.json"},
        BadSynth{"NoOutput", {"--preset", "SmolLM2-135M"}, 2, "--output-file is required"}),
    [](const ::testing::TestParamInfo<BadSynth>& info) { return info.param.name; });

}  // namespace
}  // namespace rigbench
