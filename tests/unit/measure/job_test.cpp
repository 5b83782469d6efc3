// The bench use case (bench/job.h) driven through a fake engine (no llama.cpp): every run
// becomes a record, whatever its status, and the job goes on after a failure.
#include "measure/job.h"

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "measure/runner.h"

namespace rigbench::measure {
namespace {

// An engine that takes no time and no memory: loads fail for paths in `broken`; decode
// calls count; every context's settings are kept.
class FakeEngine final : public engine::Engine {
 public:
  std::set<std::string> broken;
  std::vector<BenchParams> contexts;
  int loads = 0;
  std::function<void()> on_prompt;  // called at each prompt() (a timed pp or a warmup)

  Status load(const std::string& path, const BenchParams&) override {
    ++loads;
    if (broken.count(path))
      return fail(ErrorCode::kInvalidInput, "model '" + path + "': llama.cpp cannot load it: fake");
    return {};
  }
  Status open_context(const BenchParams& p) override {
    contexts.push_back(p);
    return {};
  }
  void clear() override {}
  Status prompt(int) override {
    if (on_prompt) on_prompt();
    return {};
  }
  Status generate(int) override { return {}; }
  Status sample() override { return {}; }
  Status save_state() override { return {}; }
  Status restore_state() override { return {}; }
  std::vector<BufferMemory> memory() const override { return {}; }
  void settings_used(BenchParams& p) const override { p.n_ubatch = std::min(p.n_ubatch, p.n_batch); }
  std::vector<std::string> devices_used() const override { return {"CPU"}; }
};

struct Collected {
  std::vector<RunRecord> records;
  RecordSink sink() {
    return [this](const RunRecord& r) -> Status {
      records.push_back(r);
      return {};
    };
  }
};

std::vector<TestCase> plan_for(std::vector<std::string> models,
                               std::map<std::string, std::vector<std::string>> knobs = {}) {
  PlanSpec spec;
  spec.models = std::move(models);
  spec.n_prompt = {16};
  spec.n_gen = {4};
  spec.repetitions = 2;
  spec.warmup = 0;
  spec.knobs = std::move(knobs);
  spec.knobs["n_threads"] = {"1"};
  return expand(spec);
}

std::map<std::string, ModelInfo> infos(const std::vector<std::string>& paths) {
  std::map<std::string, ModelInfo> out;
  for (const auto& p : paths) out[p].name = p;
  return out;
}

TEST(RunPlanWithFakeEngine, AFailedRunIsARecordAndTheOthersStillRun) {
  FakeEngine engine;
  engine.broken = {"bad.gguf"};
  std::atomic<bool> cancel{false};
  Runner runner(engine, cancel);
  const auto plan = plan_for({"bad.gguf", "good.gguf"});
  ASSERT_EQ(plan.size(), 4u);  // pp16 and tg4 for each model
  Collected got;
  auto summary = run_plan(plan, infos({"bad.gguf", "good.gguf"}), JobContext{}, runner, got.sink());
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->total, 4);
  EXPECT_EQ(summary->failed, 2);
  EXPECT_EQ(summary->ok, 2);
  EXPECT_EQ(summary->refused, 0);
  EXPECT_FALSE(summary->interrupted);
  EXPECT_EQ(summary->first_problem, "model 'bad.gguf': llama.cpp cannot load it: fake");
  ASSERT_EQ(got.records.size(), 4u);
  EXPECT_STREQ(run_status(got.records[0]), "failed");
  EXPECT_EQ(got.records[0].failed, "model 'bad.gguf': llama.cpp cannot load it: fake");
  EXPECT_FALSE(got.records[0].results.pp);
  EXPECT_STREQ(run_status(got.records[2]), "ok");
  ASSERT_TRUE(got.records[2].results.pp);
  EXPECT_EQ(got.records[2].results.pp->samples_ns.size(), 2u);
  EXPECT_FALSE(got.records[2].results.tg);  // a pp test measures pp (and TTFT) only
  ASSERT_TRUE(got.records[3].results.tg);
  EXPECT_FALSE(got.records[3].results.pp);
}

TEST(RunPlanWithFakeEngine, RefusedRunsAreRecordsAndAreNotAttempted) {
  FakeEngine engine;
  std::atomic<bool> cancel{false};
  Runner runner(engine, cancel);
  const auto plan = plan_for({"m.gguf"});
  Collected got;
  Roofline bound;
  bound.tg_bound_tps = 12.5;
  auto summary = run_plan(plan, infos({"m.gguf"}), JobContext{}, runner, got.sink(), {bound, bound},
                          {"model 'm.gguf' at n_ctx 20 will not fit this machine", ""});
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->refused, 1);
  EXPECT_EQ(summary->ok, 1);
  ASSERT_EQ(got.records.size(), 2u);
  EXPECT_STREQ(run_status(got.records[0]), "refused");
  EXPECT_DOUBLE_EQ(got.records[0].roofline.tg_bound_tps, 12.5);
  EXPECT_EQ(engine.contexts.size(), 1u);  // only the second run opened a context
}

TEST(RunPlanWithFakeEngine, EveryKnobReachesTheEngine) {
  FakeEngine engine;
  std::atomic<bool> cancel{false};
  Runner runner(engine, cancel);
  const auto plan =
      plan_for({"m.gguf"}, {{"poll", {"0", "100"}}, {"n_ubatch", {"64"}}, {"n_ctx", {"4096"}}, {"cpu_strict", {"1"}}});
  Collected got;
  ASSERT_TRUE(run_plan(plan, infos({"m.gguf"}), JobContext{}, runner, got.sink()));
  ASSERT_EQ(engine.contexts.size(), 4u);
  EXPECT_EQ(engine.contexts[0].poll, 0);
  EXPECT_EQ(engine.contexts[3].poll, 100);
  EXPECT_EQ(engine.contexts[0].n_ubatch, 64);
  EXPECT_EQ(engine.contexts[0].n_ctx, 4096);
  EXPECT_EQ(engine.contexts[0].cpu_strict, 1);
  EXPECT_EQ(got.records[3].params.poll, 100);
}

// #11: n_ubatch was stored as asked (512) when llama.cpp ran 32; the record holds what ran.
TEST(RunPlanWithFakeEngine, TheRecordHoldsTheSettingsThatRan) {
  FakeEngine engine;
  std::atomic<bool> cancel{false};
  Runner runner(engine, cancel);
  const auto plan = plan_for({"m.gguf"}, {{"n_batch", {"32"}}, {"n_ubatch", {"512"}}});
  Collected got;
  ASSERT_TRUE(run_plan(plan, infos({"m.gguf"}), JobContext{}, runner, got.sink()));
  ASSERT_EQ(got.records.size(), 2u);
  EXPECT_EQ(engine.contexts[0].n_ubatch, 512);    // asked
  EXPECT_EQ(got.records[0].params.n_ubatch, 32);  // ran
  EXPECT_EQ(got.records[0].params.n_batch, 32);
}

TEST(RunPlanWithFakeEngine, ASinkErrorStopsTheJob) {
  FakeEngine engine;
  std::atomic<bool> cancel{false};
  Runner runner(engine, cancel);
  const auto plan = plan_for({"m.gguf"});
  int calls = 0;
  auto summary = run_plan(plan, infos({"m.gguf"}), JobContext{}, runner, [&](const RunRecord&) -> Status {
    ++calls;
    return fail(ErrorCode::kRuntime, "database 'x': disk full");
  });
  ASSERT_FALSE(summary);
  EXPECT_EQ(summary.error().message, "database 'x': disk full");
  EXPECT_EQ(calls, 1);
}

TEST(RunPlanWithFakeEngine, AnInterruptionKeepsNothingWithoutSamplesAndStops) {
  FakeEngine engine;
  std::atomic<bool> cancel{true};
  Runner runner(engine, cancel);
  const auto plan = plan_for({"m.gguf"});
  Collected got;
  auto summary = run_plan(plan, infos({"m.gguf"}), JobContext{}, runner, got.sink());
  ASSERT_TRUE(summary);
  EXPECT_TRUE(summary->interrupted);
  EXPECT_EQ(summary->ok, 0);
  EXPECT_TRUE(got.records.empty());
}

// Runner::finished_so_far between repetitions (what a lost rpc-server's record keeps): at the
// start of repetition k the k-1 finished ones, each sample once and in order, itl included.
TEST(RunnerWithFakeEngine, FinishedSoFarHoldsEachFinishedRepetitionOnceInOrder) {
  FakeEngine engine;
  std::atomic<bool> cancel{false};
  Runner runner(engine, cancel);
  TestCase tc;
  tc.model_path = "m.gguf";
  tc.params.n_prompt = 16;
  tc.params.n_gen = 4;
  tc.params.n_threads = 1;
  tc.params.repetitions = 4;
  tc.params.warmup = 0;
  std::vector<std::optional<RunOutcome>> seen;
  engine.on_prompt = [&] { seen.push_back(runner.finished_so_far()); };
  auto out = runner.run(tc);
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_FALSE(seen[0]);  // nothing finished before the first repetition
  const auto& pp = out->results.pp->samples_ns;
  const auto& tg = out->results.tg->samples_ns;
  const auto& itl = out->results.tg->itl_ns;
  const auto& ttft = out->results.ttft->samples_ns;
  ASSERT_EQ(itl.size(), 16u);
  for (std::size_t k = 1; k < 4; ++k) {
    ASSERT_TRUE(seen[k]) << k;
    const Results& r = seen[k]->results;
    ASSERT_TRUE(r.pp && r.tg && r.ttft) << k;
    EXPECT_EQ(r.pp->samples_ns, std::vector<int64_t>(pp.begin(), pp.begin() + k)) << k;
    EXPECT_EQ(r.tg->samples_ns, std::vector<int64_t>(tg.begin(), tg.begin() + k)) << k;
    EXPECT_EQ(r.ttft->samples_ns, std::vector<int64_t>(ttft.begin(), ttft.begin() + k)) << k;
    EXPECT_EQ(r.tg->itl_ns, std::vector<int64_t>(itl.begin(), itl.begin() + 4 * k)) << k;
  }
}

}  // namespace
}  // namespace rigbench::measure
