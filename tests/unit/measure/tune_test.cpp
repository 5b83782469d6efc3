// tune's pure parts (measure/tune.h): its own candidate lists for a machine, the objective's
// samples from a record, the objective's label.
#include "measure/tune.h"

#include <gtest/gtest.h>

namespace rigbench::measure {
namespace {

MachineInfo cpu_machine(int cores, int threads) {
  MachineInfo m;
  m.cores = cores;
  m.threads = threads;
  return m;
}

TEST(TuneKnobs, ThreadsAroundThePhysicalCoresAndTheCpuKnobs) {
  model::ModelShape shape;
  shape.n_layer = 16;
  const auto k = tune_knobs(cpu_machine(8, 16), shape, TuneObjective::kTg);
  EXPECT_EQ(k.at("n_threads"), (std::vector<std::string>{"8", "4", "16"}));
  EXPECT_EQ(k.at("flash_attn"), (std::vector<std::string>{"on", "off"}));
  EXPECT_EQ(k.at("type_k"), (std::vector<std::string>{"f16", "q8_0"}));
  EXPECT_EQ(k.at("poll"), (std::vector<std::string>{"0", "50"}));
  EXPECT_EQ(k.count("n_ubatch"), 0u);      // tg decodes one token at a time: the batch does not matter
  EXPECT_EQ(k.count("n_gpu_layers"), 0u);  // no GPU
}

TEST(TuneKnobs, TwoCoresWithoutSmtGiveTwoThreadCounts) {
  const auto k = tune_knobs(cpu_machine(2, 2), model::ModelShape{}, TuneObjective::kPp);
  EXPECT_EQ(k.at("n_threads"), (std::vector<std::string>{"2", "1"}));
  EXPECT_EQ(k.at("n_ubatch"), (std::vector<std::string>{"256", "512"}));
}

TEST(TuneKnobs, AGpuAddsLayersAndAMixtureOfExpertsAddsExpertOffload) {
  MachineInfo m = cpu_machine(8, 8);
  DeviceInfo gpu;
  gpu.name = "Vulkan0";  // a ggml device: offloadable (hw::gpu_source)
  gpu.type = "gpu";
  m.gpus.push_back(gpu);
  model::ModelShape shape;
  shape.n_layer = 48;
  shape.n_expert = 128;
  const auto k = tune_knobs(m, shape, TuneObjective::kTg);
  ASSERT_EQ(k.count("n_gpu_layers"), 1u);
  EXPECT_EQ(k.at("n_gpu_layers"), (std::vector<std::string>{"-1", "24", "0"}));
  EXPECT_EQ(k.at("n_cpu_moe"), (std::vector<std::string>{"0", "12", "24", "48"}));
}

RunRecord record_with(std::vector<int64_t> pp_ns, int pp_tokens, std::vector<int64_t> tg_ns, int tg_tokens) {
  RunRecord rec;
  ThroughputResult pp;
  pp.n_tokens = pp_tokens;
  pp.samples_ns = pp_ns;
  pp.samples_tps = tokens_per_second(pp_ns, pp_tokens);
  rec.results.pp = pp;
  ThroughputResult tg;
  tg.n_tokens = tg_tokens;
  tg.samples_ns = tg_ns;
  tg.samples_tps = tokens_per_second(tg_ns, tg_tokens);
  rec.results.tg = tg;
  LatencyResult ttft;
  for (int64_t ns : pp_ns) ttft.samples_ns.push_back(ns + 1'000'000);  // the first token 1 ms after the prompt
  rec.results.ttft = ttft;
  return rec;
}

TEST(TuneObjectiveSamples, EachObjectiveReadsItsFigure) {
  // pp: 512 tokens in 0.5 s and 0.25 s; tg: 128 tokens in 2 s and 4 s.
  const RunRecord rec = record_with({500'000'000, 250'000'000}, 512, {2'000'000'000, 4'000'000'000}, 128);
  EXPECT_EQ(objective_samples(TuneObjective::kPp, rec), (std::vector<double>{1024, 2048}));
  EXPECT_EQ(objective_samples(TuneObjective::kTg, rec), (std::vector<double>{64, 32}));
  EXPECT_EQ(objective_samples(TuneObjective::kTtft, rec), (std::vector<double>{501, 251}));
  // balanced: one request's 640 tokens over its pp + tg time: 640 / 2.5 s, 640 / 4.25 s.
  const auto b = objective_samples(TuneObjective::kBalanced, rec);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_DOUBLE_EQ(b[0], 640 / 2.5);
  EXPECT_DOUBLE_EQ(b[1], 640 / 4.25);
  EXPECT_TRUE(objective_samples(TuneObjective::kTg, RunRecord{}).empty());
}

TEST(TuneObjectiveLabel, NamesTheTestAndDepth) {
  TuneSpec spec;
  EXPECT_EQ(objective_label(spec), "tg128 t/s");
  spec.objective = TuneObjective::kTtft;
  spec.n_depth = 4096;
  EXPECT_EQ(objective_label(spec), "TTFT @ d4096 ms (pp512)");
  spec.objective = TuneObjective::kBalanced;
  spec.n_depth = 0;
  EXPECT_EQ(objective_label(spec), "pp512+tg128 t/s");
}

TEST(TuneObjectiveParse, KnownNamesAndAOneLineError) {
  EXPECT_EQ(*parse_tune_objective("ttft"), TuneObjective::kTtft);
  const auto bad = parse_tune_objective("speed");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  EXPECT_EQ(bad.error().message, "--objective 'speed': expected tg, pp, ttft, balanced or serve");
  EXPECT_EQ(*parse_tune_objective("serve"), TuneObjective::kServe);
}

RunRecord served_record(int completed, double goodput_rps, double output_tps) {
  RunRecord rec;
  ServerRun s;
  s.completed = completed;
  s.goodput_rps = goodput_rps;
  s.output_tps = output_tps;
  rec.server = s;
  return rec;
}

TEST(TuneObjectiveSamples, ServeIsTheLoadRunsGoodputWithAnSloElseItsOutputRate) {
  const RunRecord rec = served_record(16, 3.5, 420);
  EXPECT_EQ(objective_samples(TuneObjective::kServe, rec, /*slo_set=*/true), (std::vector<double>{3.5}));
  EXPECT_EQ(objective_samples(TuneObjective::kServe, rec, /*slo_set=*/false), (std::vector<double>{420}));
  // No request met the SLO: a goodput of 0 is a figure of the run (it ranks last), not a failure.
  EXPECT_EQ(objective_samples(TuneObjective::kServe, served_record(16, 0, 420), true), (std::vector<double>{0}));
  // No request completed: no figure; nor from a bench record (no server part).
  EXPECT_TRUE(objective_samples(TuneObjective::kServe, served_record(0, 0, 0), true).empty());
  EXPECT_TRUE(objective_samples(TuneObjective::kServe, RunRecord{}, false).empty());
}

TEST(TuneObjectiveLabel, ServeNamesTheLoadAndTheSloAndItsUnit) {
  TuneSpec spec;
  spec.objective = TuneObjective::kServe;
  spec.n_prompt = 64;
  spec.n_gen = 32;
  spec.serve.concurrency = 4;
  EXPECT_EQ(objective_label(spec), "out t/s (c=4, pp64+tg32)");
  EXPECT_EQ(objective_unit(spec), "t/s");
  spec.serve.slo = *parse_slo("ttft_ms=500");
  spec.serve.slo_text = "ttft_ms=500";
  EXPECT_EQ(objective_label(spec), "goodput req/s (c=4, pp64+tg32, SLO ttft_ms=500)");
  EXPECT_EQ(objective_unit(spec), "req/s");
  spec.objective = TuneObjective::kTtft;
  EXPECT_EQ(objective_unit(spec), "ms");
}

TEST(TuneServeRequests, FourPerRequestInFlightAtLeastEightUnlessGiven) {
  TuneServe serve;
  serve.concurrency = 1;
  EXPECT_EQ(serve_requests_per_run(serve), 8);
  serve.concurrency = 3;
  EXPECT_EQ(serve_requests_per_run(serve), 12);
  serve.num_requests = 5;
  EXPECT_EQ(serve_requests_per_run(serve), 5);
}

}  // namespace
}  // namespace rigbench::measure

namespace rigbench::measure {
namespace {

// A new user's tune of stories260K (n_ctx_train 2048) ran at the default 4096, past the model's
// context: without -c the context is the model's where that is smaller and still holds a trial.
TEST(TuneContext, WithoutCTheDefaultIsLoweredToTheModelsContextWhereItHoldsATrial) {
  TuneSpec spec;  // tg128 at 4096
  EXPECT_EQ(lower_default_ctx(spec, 2048), "n_ctx 2048, the model's n_ctx_train (below the default 4096; -c N sets it)");
  EXPECT_EQ(spec.n_ctx, 2048);
  TuneSpec big;
  EXPECT_EQ(lower_default_ctx(big, 131072), "");  // larger: the default stays
  EXPECT_EQ(big.n_ctx, 4096);
  TuneSpec unknown;
  EXPECT_EQ(lower_default_ctx(unknown, 0), "");
  EXPECT_EQ(unknown.n_ctx, 4096);
  TuneSpec deep;
  deep.n_depth = 2000;  // 2000 + 128 tokens do not fit 2048: the default stays, and -c's check says the rest
  EXPECT_EQ(lower_default_ctx(deep, 2048), "");
  EXPECT_EQ(deep.n_ctx, 4096);
  TuneSpec serve;
  serve.objective = TuneObjective::kServe;
  serve.n_parallel = 8;  // 2048 / 8 = 256 cells a slot, fewer than 512 + 128
  EXPECT_EQ(lower_default_ctx(serve, 2048), "");
}

}  // namespace
}  // namespace rigbench::measure
