#include "cli/bench_options.h"

#include <gtest/gtest.h>

#include "cli/args.h"
#include "cli/bench_command.h"
#include "cli/fit_command.h"
#include "core/knobs.h"
#include "engine/llama_engine.h"

namespace rigbench::cli {
namespace {

// Parses `args` (after "rigbench") the way main does: aliases, then CLI11.
BenchOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "rigbench");
  CLI::App app;
  BenchOptions opts;
  const CLI::App* bench = add_bench_command(app, opts);
  const auto expanded = expand_llama_bench_aliases(args, "bench", declared_flags(*bench));
  EXPECT_TRUE(expanded) << expanded.error().message;
  std::vector<char*> argv;
  for (const auto& a : *expanded) argv.push_back(const_cast<char*>(a.c_str()));
  app.parse(static_cast<int>(argv.size()), argv.data());
  return opts;
}

// The flags `command` declares (bench, fit).
std::vector<std::string> declared_by(const std::string& command) {
  CLI::App app;
  BenchOptions bench;
  FitOptions fit;
  return declared_flags(*(command == "bench" ? add_bench_command(app, bench) : add_fit_command(app, fit)));
}

TEST(ExpandAliases, RewritesLlamaBenchSpellingsOnly) {
  const auto out = expand_llama_bench_aliases(
      {"rigbench", "bench", "-ngl", "99",       "-fa", "1",     "-ctk", "q8_0", "-ctv=q8_0", "-ub",
       "256",      "-lm",   "none", "-lm=mmap", "-pg", "64,16", "-n",   "4",    "-nglx",     "-lmx"},
      "bench", declared_by("bench"));
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(*out, (std::vector<std::string>{"rigbench",
                                            "bench",
                                            "--n-gpu-layers",
                                            "99",
                                            "--flash-attn",
                                            "1",
                                            "--cache-type-k",
                                            "q8_0",
                                            "--cache-type-v=q8_0",
                                            "--ubatch-size",
                                            "256",
                                            "--load-mode",
                                            "none",
                                            "--load-mode=mmap",
                                            "--pg",
                                            "64,16",
                                            "-n",
                                            "4",
                                            "-nglx",
                                            "-lmx"}));
}

// -nkvo, -cmoe and -nopo are flags in llama-server (alone: on) and take 0|1 lists in
// llama-bench; both spellings mean what they mean there, and a following model file or flag is
// never taken for the value.
TEST(ExpandAliases, AFlagLlamaServerSpellsBareTakesItsValueOnlyWhenOneFollows) {
  const auto bench = declared_by("bench");
  const auto a = expand_llama_bench_aliases({"rigbench", "bench", "-nkvo", "m.gguf", "-cmoe", "-ngl", "99", "-nopo",
                                             "0,1", "--no-kv-offload", "1"},
                                            "bench", bench);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(*a, (std::vector<std::string>{"rigbench", "bench", "--no-kv-offload=1", "m.gguf", "--cpu-moe=1",
                                          "--n-gpu-layers", "99", "--no-op-offload=0,1", "--no-kv-offload=1"}));
  const auto last = expand_llama_bench_aliases({"rigbench", "bench", "m.gguf", "-ncmoe", "4", "-cmoe"}, "bench", bench);
  ASSERT_TRUE(last) << last.error().message;
  EXPECT_EQ(*last, (std::vector<std::string>{"rigbench", "bench", "m.gguf", "--n-cpu-moe", "4", "--cpu-moe=1"}));
  // -dev is --device: bench's ggml devices, and fit's device to plan for (this machine's or the catalog's).
  const auto dev = expand_llama_bench_aliases({"rigbench", "bench", "-dev", "Vulkan0/Vulkan1"}, "bench", bench);
  ASSERT_TRUE(dev) << dev.error().message;
  EXPECT_EQ(*dev, (std::vector<std::string>{"rigbench", "bench", "--device", "Vulkan0/Vulkan1"}));
  const auto fit_dev = expand_llama_bench_aliases({"rigbench", "fit", "m.gguf", "-dev", "none", "-sm", "none"}, "fit",
                                                  declared_by("fit"));
  ASSERT_TRUE(fit_dev) << fit_dev.error().message;
  EXPECT_EQ(*fit_dev,
            (std::vector<std::string>{"rigbench", "fit", "m.gguf", "--device", "none", "--split-mode", "none"}));
}

// Every subcommand takes llama-bench's spelling of a flag it has (fit -nkvo, as llama.cpp spells
// it); one it does not have is named as typed, never read as bundled letters ("fit -dev x" was
// "--n-depth: 'ev' is not a number", before fit took -dev); -pg is llama-bench's only spelling: "--pg" is no flag.
TEST(ExpandAliases, EverySubcommandTakesLlamaBenchsSpellingOfItsFlagsAndNamesOthersAsTyped) {
  const auto fit = expand_llama_bench_aliases({"rigbench", "fit", "m.gguf", "-nkvo", "-ngl", "auto", "-np", "2"}, "fit",
                                              declared_by("fit"));
  ASSERT_TRUE(fit) << fit.error().message;
  EXPECT_EQ(*fit, (std::vector<std::string>{"rigbench", "fit", "m.gguf", "--no-kv-offload=1", "--n-gpu-layers", "auto",
                                            "--parallel", "2"}));
  for (const char* flag : {"-nopo", "-pg", "-lm", "-mmp"}) {
    const auto bad = expand_llama_bench_aliases({"rigbench", "fit", "m.gguf", flag, "x"}, "fit", declared_by("fit"));
    ASSERT_FALSE(bad) << flag;
    EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
    // Named as typed; a near flag fit has may be suggested ("-pg": did you mean '-mg'?).
    EXPECT_EQ(bad.error().message.rfind(std::string("fit: unknown flag '") + flag + "' ", 0), 0u)
        << bad.error().message;
    EXPECT_NE(bad.error().message.find("(see rigbench fit --help)"), std::string::npos) << bad.error().message;
  }
  const auto pg = expand_llama_bench_aliases({"rigbench", "bench", "--pg", "64,16"}, "bench", declared_by("bench"));
  ASSERT_FALSE(pg);
  EXPECT_EQ(pg.error().message, "bench: unknown flag '--pg' (did you mean '-pg'?) (see rigbench bench --help)");
}

// --help names each option as it is typed, llama-bench's spelling first.
TEST(ExpandAliases, HelpNamesTheLlamaBenchSpelling) {
  CLI::App app;
  app.formatter(std::make_shared<LlamaSpellingFormatter>());
  BenchOptions opts;
  const std::string help = add_bench_command(app, opts)->help();
  EXPECT_NE(help.find("  -ngl,--n-gpu-layers "), std::string::npos) << help;
  EXPECT_NE(help.find("  -pg PP,TG ..."), std::string::npos) << help;
  EXPECT_EQ(help.find("--pg"), std::string::npos) << help;
  EXPECT_NE(help.find("  -mmp,--mmap "), std::string::npos) << help;
}

// llama-bench's defaults but for the repetitions: -r auto (until ±2 %, at least 3, 20 s per test).
TEST(BenchOptions, DefaultsAreLlamaBenchsButRepetitionsAreAuto) {
  BenchOptions o = parse({"bench"});
  EXPECT_EQ(o.plan.n_prompt, (std::vector<int>{512}));
  EXPECT_EQ(o.plan.n_gen, (std::vector<int>{128}));
  EXPECT_EQ(o.plan.values("n_depth"), (std::vector<std::string>{"0"}));
  EXPECT_EQ(o.repetitions, "auto");
  EXPECT_EQ(o.plan.warmup, 1);
  EXPECT_EQ(o.plan.values("n_batch"), (std::vector<std::string>{"2048"}));
  EXPECT_EQ(o.plan.values("n_ubatch"), (std::vector<std::string>{"512"}));
  EXPECT_EQ(o.plan.values("load_mode"), (std::vector<std::string>{"auto"}));
  EXPECT_EQ(o.plan.values("poll"), (std::vector<std::string>{"50"}));
  EXPECT_EQ(o.output, "md");
  ASSERT_TRUE(validate(o, 6));
  EXPECT_EQ(o.plan.values("n_threads"), (std::vector<std::string>{"6"}));
  EXPECT_TRUE(o.plan.models.empty());  // the command picks the default model
  EXPECT_TRUE(o.plan.auto_repetitions);
  EXPECT_EQ(o.plan.repetitions, 3);
  EXPECT_DOUBLE_EQ(o.plan.ci_target_pct, 2);
  EXPECT_DOUBLE_EQ(o.plan.max_time_s, 20);
}

TEST(BenchOptions, RepetitionsAreAutoOrANumber) {
  BenchOptions fixed = parse({"bench", "-r", "5"});
  ASSERT_TRUE(validate(fixed, 2));
  EXPECT_FALSE(fixed.plan.auto_repetitions);
  EXPECT_EQ(fixed.plan.repetitions, 5);
  BenchOptions automatic = parse({"bench", "-r", "auto", "--ci-target", "1", "--max-time", "60", "m.gguf"});
  ASSERT_TRUE(validate(automatic, 2));
  EXPECT_TRUE(automatic.plan.auto_repetitions);
  EXPECT_DOUBLE_EQ(automatic.plan.ci_target_pct, 1);
  EXPECT_DOUBLE_EQ(automatic.plan.max_time_s, 60);
  const auto plan = measure::expand(automatic.plan);
  ASSERT_FALSE(plan.empty());
  EXPECT_TRUE(plan[0].rule.automatic);
  EXPECT_EQ(plan[0].rule.repetitions, 3);
  EXPECT_THROW(parse({"bench", "-r", "often"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "--ci-target", "0"}), CLI::ParseError);
  BenchOptions both = parse({"bench", "--progress", "--no-progress"});
  EXPECT_FALSE(validate(both, 2));
}

TEST(BenchOptions, ListsAndAliasesParse) {
  BenchOptions o =
      parse({"bench", "-p", "64,128", "-n", "16", "-p",    "256",     "-ngl", "0",  "-fa",  "1,0",   "-ctk", "Q8_0",
             "-t",    "3",  "-r",     "2",  "-d", "0,512", "--delay", "0.5",  "-o", "json", "--tag", "x",    "m.gguf"});
  EXPECT_EQ(o.plan.n_prompt, (std::vector<int>{64, 128, 256}));
  EXPECT_EQ(o.plan.n_gen, (std::vector<int>{16}));
  EXPECT_EQ(o.plan.values("n_gpu_layers"), (std::vector<std::string>{"0"}));
  EXPECT_EQ(o.plan.values("n_depth"), (std::vector<std::string>{"0", "512"}));
  EXPECT_EQ(o.repetitions, "2");
  EXPECT_DOUBLE_EQ(o.plan.delay_s, 0.5);
  EXPECT_EQ(o.output, "json");
  EXPECT_EQ(o.tags, (std::vector<std::string>{"x"}));
  EXPECT_EQ(o.plan.models, (std::vector<std::string>{"m.gguf"}));
  ASSERT_TRUE(validate(o, 2));
  EXPECT_EQ(o.plan.values("flash_attn"), (std::vector<std::string>{"on", "off"}));
  EXPECT_EQ(o.plan.values("type_k"), (std::vector<std::string>{"q8_0"}));
  EXPECT_EQ(o.plan.values("n_threads"), (std::vector<std::string>{"3"}));
  EXPECT_EQ(o.plan.repetitions, 2);
  EXPECT_FALSE(o.plan.auto_repetitions);
}

TEST(BenchOptions, LoadModeIsAListOfLlamaCppNames) {
  BenchOptions o = parse({"bench", "-lm", "none,mmap", "--load-mode", "MLOCK", "-lm", "mmap+mlock,dio,auto"});
  ASSERT_TRUE(validate(o, 1));
  EXPECT_EQ(o.plan.values("load_mode"),
            (std::vector<std::string>{"none", "mmap", "mlock", "mmap+mlock", "dio", "auto"}));
}

TEST(BenchOptions, LoadModeNamesAreLlamaCpps) { EXPECT_EQ(engine::load_modes(), load_mode_names()); }

TEST(BenchOptions, LlamaBenchSpellingsAreAccepted) {
  BenchOptions o = parse({"bench", "-m", "a.gguf", "-m", "b.gguf", "-pg", "64,16", "-pg", "128,32", "-mmp", "0",
                          "--poll", "0,100", "--no-warmup", "--progress", "-v", "-o", "json"});
  ASSERT_TRUE(validate(o, 1));
  EXPECT_EQ(o.plan.models, (std::vector<std::string>{"a.gguf", "b.gguf"}));
  EXPECT_EQ(o.plan.n_pg, (std::vector<std::pair<int, int>>{{64, 16}, {128, 32}}));
  EXPECT_EQ(o.plan.values("load_mode"), (std::vector<std::string>{"none"}));
  EXPECT_EQ(o.plan.values("poll"), (std::vector<std::string>{"0", "100"}));
  EXPECT_EQ(o.plan.warmup, 0);
  EXPECT_TRUE(o.progress);
  EXPECT_TRUE(o.verbose);
}

TEST(BenchOptions, CombinationsLlamaCppRefusesAreRefusedUpFront) {
  BenchOptions o = parse({"bench", "-ctv", "q8_0", "-fa", "on,off"});
  auto s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  EXPECT_EQ(s.error().message,
            "-ctv q8_0 with -fa off: llama.cpp needs flash attention for a quantized V cache "
            "(use -fa on or auto, or -ctv f16)");
  o = parse({"bench", "-p", "512", "-n", "128", "-d", "1024", "-c", "1024"});
  s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "-c/--ctx-size 1024: smaller than a test needs (n_depth 1024 + 512 tokens); give at least 1536 or 0");
  o = parse({"bench", "-pg", "64"});
  EXPECT_FALSE(validate(o, 1));
  o = parse({"bench", "-mmp", "2"});
  EXPECT_FALSE(validate(o, 1));
  o = parse({"bench", "--poll", "101"});
  s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "--poll: '101' is out of range [0, 100]");
}

TEST(BenchOptions, OutOfRangeValuesAreParseErrors) {
  EXPECT_THROW(parse({"bench", "-r", "0"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "-p", "-5"}), CLI::ParseError);
  EXPECT_THROW(parse({"bench", "-p", "abc"}), CLI::ParseError);
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
  EXPECT_EQ(s.error().message, "-lm/--load-mode: 'bogus' is not one of auto, none, mmap, mlock, mmap+mlock, dio");

  o = parse({"bench", "-t", "0"});
  s = validate(o, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "-t/--threads: '0' is out of range [1, 1024]");

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
