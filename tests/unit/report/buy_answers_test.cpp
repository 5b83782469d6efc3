// report/buy_answers.h: the report's what-to-buy answers, one per stored model, with a fake
// catalog (two hand-made GPUs beside a stated host, no bandwidth probe) and records whose model
// files are not on this machine.
#include "report/buy_answers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <utility>

#include "model/preset.h"
#include "store/llama_bench_record.h"
#include "model/tensor_layout.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

// Two GPUs at $100 (4 GiB) and $500 (24 GiB); their host: 64 GiB at 100 GB/s, as stated.
fit::CatalogPlan fake_catalog() {
  fit::CatalogPlan plan;
  for (const auto& [name, gib, usd] : {std::tuple{"Small GPU", 4, 100.0}, std::tuple{"Big GPU", 24, 500.0}}) {
    hw::CatalogDevice d;
    d.name = name;
    d.kind = "gpu";
    d.backend = "cuda";
    d.memory_bytes = static_cast<uint64_t>(gib) << 30;
    d.bandwidth_gbps = 500;
    d.price_usd = usd;
    plan.catalog.push_back(d);
  }
  plan.host.machine_ram_bytes = 64ull << 30;
  plan.host.machine_bandwidth_gbps = 100;
  return plan;
}

uint64_t preset_params(const std::string& name) {
  auto p = model::find_preset(name);
  EXPECT_TRUE(p);
  uint64_t n = 0;
  for (const auto& t : model::tensor_layout(*p)) n += t.n_elements();
  return n;
}

// A run of a model whose file is not here: n_ctx `ctx`.
RunRecord run(const std::string& id, int ctx) {
  RunRecord r = testing::sample_record(id);
  r.model.path = "/nonexistent/rigbench-buy-answers/m.gguf";
  r.params.n_ctx = ctx;
  return r;
}

TEST(BuyAnswers, FakeCatalogAFileNotHereWithNoPresetAlikeIsANoteAtTheWidestContext) {
  int asked = 0;
  const auto catalog = [&] {
    ++asked;
    return Result<fit::CatalogPlan>(fake_catalog());
  };
  const std::vector<RunRecord> records = {run("a", 640), run("b", 4096), run("c", 2048)};
  auto answers = buy_answers(records, 0, catalog);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].model, RecordIdentities(records).of(0).model.label);
  EXPECT_FALSE(answers[0].ranking);
  EXPECT_EQ(answers[0].note, "its file (/nonexistent/rigbench-buy-answers/m.gguf) is not on this machine (n_ctx 4096)");
  // -c given: that context
  answers = buy_answers(records, 8192, catalog);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].note, "its file (/nonexistent/rigbench-buy-answers/m.gguf) is not on this machine (n_ctx 8192)");
  EXPECT_EQ(asked, 0);  // no shape, no catalog
  // A relative path: an earlier bench's (as typed), or llama-bench's in an import; each its own word.
  std::vector<RunRecord> relative = {run("r", 512)};
  relative[0].model.path = "models/m.gguf";
  answers = buy_answers(relative, 0, catalog);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].note, "its file (models/m.gguf) is not on this machine (n_ctx 512; a relative path, as an "
                             "earlier bench stored it: run report from the folder bench ran in)");
  relative[0].tags = {store::kLlamaBenchTag};
  answers = buy_answers(relative, 0, catalog);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].note,
            "its file (models/m.gguf) is not on this machine (n_ctx 512; llama-bench's path, relative to the folder it "
            "ran in)");
  // a served model: no path stored
  std::vector<RunRecord> served = {run("s", 1024)};
  served[0].model.path.clear();
  answers = buy_answers(served, 0, catalog);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].note, "its runs store no model file (a served model) (n_ctx 1024)");
}

TEST(BuyAnswers, FakeCatalogThePresetAlikeIsRankedByPriceAndTheCatalogIsAskedOnce) {
  int asked = 0;
  const auto catalog = [&] {
    ++asked;
    return Result<fit::CatalogPlan>(fake_catalog());
  };
  std::vector<RunRecord> records = {run("a", 4096), run("b", 8192), run("c", 2048)};
  for (RunRecord& r : records) {
    r.model.name = "Llama 3.2 1B";
    r.model.arch = "llama";
    r.model.file_type = "Q4_K_M";
    r.model.n_params = preset_params("Llama-3.2-1B");
  }
  records[2].model.file_type = "Q8_0";  // a second model: the same preset at another file type
  records[2].model.fingerprint = "xxh64:0000000000000002";
  auto answers = buy_answers(records, 0, catalog);
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(asked, 1);
  const RecordIdentities ids(records);
  if (answers[0].model != ids.of(0).model.label) std::swap(answers[0], answers[1]);  // in label order
  ASSERT_EQ(answers[0].model, ids.of(0).model.label);
  ASSERT_EQ(answers[1].model, ids.of(2).model.label);
  ASSERT_TRUE(answers[0].ranking) << answers[0].note;
  const FitRankingReport& rep = *answers[0].ranking;
  EXPECT_EQ(rep.model, ids.of(0).model.label + " (the shape of the preset Llama-3.2-1B)");
  EXPECT_EQ(rep.model_path, "preset Llama-3.2-1B Q4_K_M");
  // fit's default, the model's n_ctx_train (Llama 3.2 1B: 131072), not the widest run's 8192: the
  // report planned "70B Q3_K_S" at bench's n_ctx 256 and advised cards no user would run it on.
  EXPECT_EQ(rep.ranking.n_ctx, 131072);
  ASSERT_FALSE(rep.ranking.ranked.empty());
  EXPECT_EQ(rep.ranking.ranked[0].device, "Small GPU");  // a 1B at Q4_K_M fits 4 GiB: the cheapest
  EXPECT_EQ(rep.ranking.ranked[0].count, 1);
  // Each option's predicted tg, as fit --rank gives it: the shipped results name none of the
  // fake catalog's devices, so none has a basis, and says why.
  ASSERT_EQ(rep.tg_predicted.size(), rep.ranking.ranked.size());
  EXPECT_FALSE(rep.tg_predicted[0].has_basis);
  EXPECT_EQ(rep.tg_predicted[0].basis.rfind("no basis (", 0), 0u) << rep.tg_predicted[0].basis;
  ASSERT_TRUE(answers[1].ranking) << answers[1].note;
  EXPECT_EQ(answers[1].ranking->ranking.n_ctx, 131072);
  EXPECT_EQ(answers[1].ranking->model_path, "preset Llama-3.2-1B Q8_0");
}

// A new user's report said "What to buy for MODEL at n_ctx 16" above a table whose rows said
// 256 for the same run (bench -p 16): llama.cpp pads the context to 256, and fit plans what it
// allocates. Sentence, heading and rows name that one value; a note says what was asked.
TEST(BuyAnswers, TheSentenceNamesTheContextItsTableShows) {
  std::vector<RunRecord> records = {run("a", 16)};
  records[0].model.arch = "llama";
  records[0].model.file_type = "Q4_K_M";
  records[0].model.n_params = preset_params("Llama-3.2-1B");
  auto answers = buy_answers(records, 16, [] { return Result<fit::CatalogPlan>(fake_catalog()); });  // report -c 16
  ASSERT_EQ(answers.size(), 1u);
  ASSERT_TRUE(answers[0].ranking) << answers[0].note;
  const FitRankingReport& rep = *answers[0].ranking;
  EXPECT_EQ(rep.ranking.n_ctx, 256);
  EXPECT_EQ(rep.ranking.n_ctx_asked, 16);
  ASSERT_FALSE(rep.ranking.ranked.empty());
  for (const fit::BuyOption& o : rep.ranking.ranked) EXPECT_EQ(o.n_ctx, rep.ranking.n_ctx) << o.device;
  EXPECT_EQ(buy_sentence(rep).find("For " + rep.model + " at n_ctx 256, "), 0u) << buy_sentence(rep);
  const Table t = fit_ranking_table(rep);
  EXPECT_NE(std::find(t.notes().begin(), t.notes().end(), "n_ctx 16 padded to 256, as llama.cpp allocates it"),
            t.notes().end());
}

TEST(BuyAnswers, FakeUnreadableCatalogIsTheAnswersNote) {
  std::vector<RunRecord> records = {run("a", 4096)};
  records[0].model.arch = "llama";
  records[0].model.file_type = "Q4_K_M";
  records[0].model.n_params = preset_params("Llama-3.2-1B");
  auto answers = buy_answers(records, 0, [] {
    return Result<fit::CatalogPlan>(fail(ErrorCode::kNotFound, "devices.json: no such file"));
  });
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_FALSE(answers[0].ranking);
  EXPECT_EQ(answers[0].note, "the device catalog cannot be read: devices.json: no such file");
}

}  // namespace
}  // namespace rigbench::report
