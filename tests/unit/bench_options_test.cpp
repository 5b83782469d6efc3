#include "cli/bench_options.h"

#include <gtest/gtest.h>

#include "cli/args.h"
#include "cli/bench_command.h"

namespace rigbench::cli {
namespace {

// Parses `args` (after "rigbench") the way main does: aliases, then CLI11.
BenchOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "rigbench");
  const auto expanded = expand_llama_bench_aliases(args);
  std::vector<char*> argv;
  for (const auto& a : expanded) argv.push_back(const_cast<char*>(a.c_str()));
  CLI::App app;
  BenchOptions opts;
  add_bench_command(app, opts);
  app.parse(static_cast<int>(argv.size()), argv.data());
  return opts;
}

TEST(ExpandAliases, RewritesLlamaBenchSpellingsOnly) {
  const auto out = expand_llama_bench_aliases({"rigbench", "-ngl", "99", "-fa", "1", "-ctk", "q8_0", "-ctv=q8_0",
                                               "-ub", "256", "-lm", "none", "-lm=mmap", "-n", "4", "-nglx", "-lmx"});
  EXPECT_EQ(out, (std::vector<std::string>{"rigbench", "--n-gpu-layers", "99", "--flash-attn", "1", "--cache-type-k",
                                           "q8_0", "--cache-type-v=q8_0", "--ubatch-size", "256", "--load-mode", "none",
                                           "--load-mode=mmap", "-n", "4", "-nglx", "-lmx"}));
}

TEST(BenchOptions, DefaultsAreLlamaBenchs) {
  BenchOptions o = parse({"bench"});
  EXPECT_EQ(o.plan.n_prompt, (std::vector<int>{512}));
  EXPECT_EQ(o.plan.n_gen, (std::vector<int>{128}));
  EXPECT_EQ(o.plan.n_depth, (std::vector<int>{0}));
  EXPECT_EQ(o.plan.repetitions, 5);
  EXPECT_EQ(o.plan.warmup, 1);
  EXPECT_EQ(o.plan.n_batch, (std::vector<int>{2048}));
  EXPECT_EQ(o.plan.n_ubatch, (std::vector<int>{512}));
  EXPECT_EQ(o.plan.load_mode, (std::vector<std::string>{"auto"}));
  EXPECT_EQ(o.output, "md");
  ASSERT_TRUE(validate(o, 6));
  EXPECT_EQ(o.plan.n_threads, (std::vector<int>{6}));
  EXPECT_TRUE(o.plan.models.empty());  // the command picks the default model
}

TEST(BenchOptions, ListsAndAliasesParse) {
  BenchOptions o = parse({"bench", "-p", "64,128", "-n", "16", "-p", "256", "-ngl", "0", "-fa", "1,0", "-ctk", "Q8_0",
                          "-t", "3", "-r", "2", "-d", "0,512", "--delay", "0.5", "-o", "json", "--tag", "x", "m.gguf"});
  EXPECT_EQ(o.plan.n_prompt, (std::vector<int>{64, 128, 256}));
  EXPECT_EQ(o.plan.n_gen, (std::vector<int>{16}));
  EXPECT_EQ(o.plan.n_gpu_layers, (std::vector<int>{0}));
  EXPECT_EQ(o.plan.n_depth, (std::vector<int>{0, 512}));
  EXPECT_EQ(o.plan.repetitions, 2);
  EXPECT_DOUBLE_EQ(o.plan.delay_s, 0.5);
  EXPECT_EQ(o.output, "json");
  EXPECT_EQ(o.tags, (std::vector<std::string>{"x"}));
  EXPECT_EQ(o.plan.models, (std::vector<std::string>{"m.gguf"}));
  ASSERT_TRUE(validate(o, 2));
  EXPECT_EQ(o.plan.flash_attn, (std::vector<std::string>{"on", "off"}));
  EXPECT_EQ(o.plan.type_k, (std::vector<std::string>{"q8_0"}));
  EXPECT_EQ(o.plan.n_threads, (std::vector<int>{3}));
}

TEST(BenchOptions, LoadModeIsAListOfLlamaCppNames) {
  BenchOptions o = parse({"bench", "-lm", "none,mmap", "--load-mode", "MLOCK", "-lm", "mmap+mlock,dio,auto"});
  ASSERT_TRUE(validate(o, 1));
  EXPECT_EQ(o.plan.load_mode, (std::vector<std::string>{"none", "mmap", "mlock", "mmap+mlock", "dio", "auto"}));
}

TEST(BenchOptions, OutOfRangeValuesAreParseErrors) {
  EXPECT_THROW(parse({"bench", "-r", "0"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "-p", "-5"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "-p", "abc"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "-t", "0"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "--nope"}), CLI::ParseError);
}

TEST(BenchOptions, ValidationNamesTheFlag) {
  BenchOptions o = parse({"bench", "-ctk", "bogus"});
  auto s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  EXPECT_NE(s.error().message.find("-ctk"), std::string::npos);
  EXPECT_NE(s.error().message.find("bogus"), std::string::npos);

  o = parse({"bench", "-fa", "maybe"});
  s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("-fa"), std::string::npos);

  o = parse({"bench", "-lm", "none,bogus"});
  s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  EXPECT_EQ(s.error().message, "-lm/--load-mode 'bogus': expected one of auto, none, mmap, mlock, mmap+mlock, dio");

  o = parse({"bench", "-o", "xml"});
  s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("xml"), std::string::npos);

  o = parse({"bench", "--db", "x.db", "--no-db"});
  EXPECT_FALSE(validate(o, 1));

  o = parse({"bench", "-p", "0", "-n", "0"});
  EXPECT_FALSE(validate(o, 1));
}

}  // namespace
}  // namespace rigbench::cli
