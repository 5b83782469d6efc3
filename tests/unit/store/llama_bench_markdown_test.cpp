// llama-bench's markdown table as people paste it (store/llama_bench_markdown.h), read from
// tables published in issues (tests/data/markdown/README.md names each one's URL).
#include "store/llama_bench_markdown.h"

#include <gtest/gtest.h>

#include "store/llama_bench_record.h"
#include "support/temp_dir.h"

namespace rigbench::store {
namespace {

std::string paste(const std::string& name) {
  return testing::read_file(std::string(RIGBENCH_TEST_DATA) + "/markdown/" + name);
}

bool tagged(const RunRecord& r, const std::string& tag) {
  return std::find(r.tags.begin(), r.tags.end(), tag) != r.tags.end();
}

// https://github.com/geerlingguy/ai-benchmarks/issues/23: the table after a code block
// naming two Vulkan devices and the build, a pp+tg test, text after.
TEST(LlamaBenchMarkdown, TableWithinACommentNamesItsGpusBuildAndSource) {
  const std::string text = paste("geerlingguy_ai_benchmarks_23_rx7900xt.md");
  ASSERT_TRUE(holds_llama_bench_markdown(text));
  const std::string url = "https://github.com/geerlingguy/ai-benchmarks/issues/23";
  auto read = read_llama_bench_markdown(text, {"pi5-7900xt", "", url, 2});
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->records.size(), 3u);
  ASSERT_EQ(read->skipped.size(), 1u);  // pp4096+tg128
  EXPECT_NE(read->skipped[0].find("line 18: pp+tg"), std::string::npos) << read->skipped[0];

  const RunRecord& pp = read->records[0];
  EXPECT_EQ(pp.machine.hostname, "pi5-7900xt");
  ASSERT_EQ(pp.machine.gpus.size(), 2u);
  EXPECT_EQ(pp.machine.gpus[0].description, "AMD Radeon RX 7900 XT (RADV NAVI31) (radv)");
  EXPECT_EQ(pp.machine.gpus[1].description, "V3D 7.1.10.2 (V3DV Mesa)");
  EXPECT_EQ(pp.machine.backends, (std::vector<std::string>{"Vulkan"}));
  EXPECT_EQ(pp.build.llama_cpp_commit, "1d0125bc");  // the build line above the table (none below)
  EXPECT_EQ(pp.source_fields.at("build_number"), "6552");
  EXPECT_EQ(pp.source_fields.at("source_url"), url);
  EXPECT_EQ(pp.source_fields.at("source_line"),
            "| qwen2 14B Q4_K - Medium        |   8.37 GiB |    14.77 B | Vulkan     |  99 |           pp512 |  "
            "      335.63 ± 0.78 |");
  EXPECT_EQ(pp.model.name, "qwen2 14B Q4_K - Medium");
  EXPECT_EQ(pp.model.arch, "qwen2");
  EXPECT_EQ(pp.model.file_type, "Q4_K_M");
  EXPECT_EQ(pp.model.size_bytes, 8987219067u);  // 8.37 GiB, rounded as printed
  EXPECT_EQ(pp.model.n_params, 14770000000u);
  EXPECT_EQ(pp.params.n_gpu_layers, 99);
  EXPECT_EQ(pp.params.n_prompt, 512);
  ASSERT_TRUE(pp.results.pp);
  EXPECT_TRUE(pp.results.pp->summary_only);
  EXPECT_DOUBLE_EQ(pp.results.pp->tps.mean, 335.63);
  EXPECT_DOUBLE_EQ(pp.results.pp->tps.stddev, 0.78);
  EXPECT_EQ(pp.results.pp->tps.n, 2u);
  EXPECT_TRUE(tagged(pp, kMarkdownTag));
  EXPECT_TRUE(tagged(pp, kSummaryOnlyTag));
  EXPECT_TRUE(tagged(pp, kLlamaBenchTag));

  const RunRecord& tg = read->records[2];
  ASSERT_TRUE(tg.results.tg);
  EXPECT_EQ(tg.params.n_gen, 128);
  EXPECT_DOUBLE_EQ(tg.results.tg->tps.mean, 7.16);
}

// https://github.com/ggml-org/llama.cpp/pull/13324: an fa column, the header right under the
// device line, the build line after the table; --gpu overrides the device line.
TEST(LlamaBenchMarkdown, ColumnsByHeaderNameAndGpuFlag) {
  const std::string text = paste("llama_cpp_pr13324_rtx2070_vulkan.md");
  auto read = read_llama_bench_markdown(text, {"rtx2070-box", "", "", 0});
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->records.size(), 2u);
  const RunRecord& r = read->records[1];
  EXPECT_EQ(r.machine.gpus.at(0).description, "NVIDIA GeForce RTX 2070 (NVIDIA)");
  EXPECT_EQ(r.params.flash_attn, "on");
  EXPECT_EQ(r.build.llama_cpp_commit, "141a908a");
  EXPECT_DOUBLE_EQ(r.results.tg->tps.mean, 35.87);
  EXPECT_EQ(r.results.tg->tps.n, 0u);  // repetitions not said
  EXPECT_EQ(r.source_fields.count("source_url"), 0u);

  auto named = read_llama_bench_markdown(text, {"rtx2070-box", "RTX 2070", "", 0});
  ASSERT_TRUE(named);
  EXPECT_EQ(named->records[0].machine.gpus.at(0).description, "RTX 2070");
}

// https://github.com/ggml-org/llama.cpp/pull/5301: 2024's "pp 512", CPU rows among GPU ones.
TEST(LlamaBenchMarkdown, OldTestNamesAndBackendsPerRow) {
  auto read = read_llama_bench_markdown(paste("llama_cpp_pr5301_i7_1165g7.md"), {"i7-1165g7", "", "", 0});
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->records.size(), 8u);
  EXPECT_EQ(read->records[0].params.n_prompt, 512);
  EXPECT_EQ(read->records[5].params.n_gen, 128);
  EXPECT_EQ(read->records[5].machine.backends, (std::vector<std::string>{"CPU AVX2"}));
  EXPECT_EQ(read->records[5].params.n_gpu_layers, 4);
  EXPECT_DOUBLE_EQ(read->records[5].results.tg->tps.mean, 6.53);
  EXPECT_TRUE(read->records[5].build.llama_cpp_commit.empty());  // no build line
  EXPECT_TRUE(read->records[5].machine.gpus.empty());
}

// This repository's llama-bench (v0.4.0) -o md on the shipped model: a CPU table (threads, no ngl).
TEST(LlamaBenchMarkdown, TodaysLlamaBenchOutput) {
  auto read = read_llama_bench_markdown(paste("llama_bench_v040_cpu.md"), {"here", "", "", 3});
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->records.size(), 2u);
  const RunRecord& tg = read->records[1];
  EXPECT_EQ(tg.model.file_type, "F32");
  EXPECT_EQ(tg.model.size_bytes, 1174405u);  // 1.12 MiB
  EXPECT_EQ(tg.params.n_threads, 1);
  EXPECT_EQ(tg.params.n_gen, 4);
  EXPECT_EQ(tg.build.llama_cpp_commit, "80fb11ac73e66d89eae2c6a91d8a77428fa733ed");
  EXPECT_EQ(tg.machine.backends, (std::vector<std::string>{"CPU"}));
  ASSERT_TRUE(tg.results.tg);
  EXPECT_EQ(tg.results.tg->tps.n, 3u);
}

TEST(LlamaBenchMarkdown, DepthTestsSubsetsAndMeansWithoutSd) {
  const std::string text =
      "| test | t/s | model | threads |\n"
      "|---|---|---|---|\n"
      "| pp512 @ d4096 | 1000.5 | llama 8B Q4_0 | 8 |\n"
      "| tg128@d4096 | 50.25 ± 0.5 | llama 8B Q4_0 | 8 |\n";
  auto read = read_llama_bench_markdown(text, {"m", "", "", 0});
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->records.size(), 2u);
  EXPECT_EQ(read->records[0].params.n_depth, 4096);
  EXPECT_EQ(read->records[0].params.n_threads, 8);
  EXPECT_DOUBLE_EQ(read->records[0].results.pp->tps.mean, 1000.5);
  EXPECT_EQ(read->records[1].params.n_depth, 4096);
  EXPECT_DOUBLE_EQ(read->records[1].results.tg->tps.stddev, 0.5);
  EXPECT_EQ(read->records[0].model.size_bytes, 0u);  // no size column: unknown
}

TEST(LlamaBenchMarkdown, IdentityHoldsTheMachineAndTheLine) {
  const std::string text = paste("llama_cpp_pr13324_rtx2070_vulkan.md");
  auto a = read_llama_bench_markdown(text, {"a", "", "", 0});
  auto a2 = read_llama_bench_markdown(text, {"a", "", "", 0});
  auto b = read_llama_bench_markdown(text, {"b", "", "", 0});
  ASSERT_TRUE(a && a2 && b);
  EXPECT_EQ(a->records[0].record_id, a2->records[0].record_id);  // the same paste again: the same runs
  EXPECT_NE(a->records[0].record_id, b->records[0].record_id);   // another machine's equal line
  EXPECT_NE(a->records[0].record_id, a->records[1].record_id);
}

TEST(LlamaBenchMarkdown, BadCellsNameTheLine) {
  const std::string head = "text\n| model | size | test | t/s |\n| --- | --- | --- | --- |\n";
  struct Case {
    std::string row, message;
  };
  for (const Case& c : std::vector<Case>{
           {"| llama 7B Q4_0 | 3.56 GiB | pp512 | fast |", "line 4: t/s 'fast' is not a positive mean"},
           {"| llama 7B Q4_0 | 3.56 GB | pp512 | 1 ± 0 |", "line 4: size '3.56 GB' is not N GiB or N MiB"},
           {"| llama 7B Q4_0 | 3.56 GiB | xx512 | 1 ± 0 |", "line 4: test 'xx512' is not ppN"},
           {"| llama 7B Q4_0 | 3.56 GiB | pp512 |", "line 4: 3 cells under a header of 4"},
       }) {
    auto read = read_llama_bench_markdown(head + c.row + "\n", {"m", "", "", 0});
    ASSERT_FALSE(read) << c.row;
    EXPECT_EQ(read.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(read.error().message.find(c.message), std::string::npos) << read.error().message;
  }
}

TEST(LlamaBenchMarkdown, OtherTablesAreNotLlamaBenchs) {
  // compare-llama-bench.py's table and rigbench's own bench table.
  EXPECT_FALSE(holds_llama_bench_markdown("| GPU | Model | Test | t/s master | t/s PR |\n|---|---|---|---|---|\n"));
  EXPECT_FALSE(holds_llama_bench_markdown("| model | test | t/s | TTFT ms |\n|---|---|---|---|\n"));
  auto none = read_llama_bench_markdown("just text\n", {"m", "", "", 0});
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no llama-bench markdown table"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::store
