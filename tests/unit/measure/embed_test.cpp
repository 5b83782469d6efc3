// The embed use case: the query reader (plain lines, JSONL, one-line errors naming the file
// and line), the batch sweep's calls (against an embedder that fakes llama.cpp by recording
// each call), and the record's embedding result through JSON, the store's parts and the table.
#include "measure/embed.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <set>

#include "core/results.h"
#include "core/strings.h"
#include "engine/llama_embed.h"
#include "measure/queries.h"
#include "model/preset.h"
#include "report/embed_table.h"
#include "store/record_json.h"
#include "store/record_parts.h"
#include "support/sample_record.h"
#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench::measure {
namespace {

// --- the query reader ---------------------------------------------------------------------

TEST(Queries, PlainLinesOneQueryEachBlankLinesSkippedCrTrimmed) {
  auto q = parse_queries("first query\r\n\n  second one  \nthird\n", "q.txt");
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_EQ(*q, (std::vector<std::string>{"first query", "  second one", "third"}));
}

TEST(Queries, JsonlTakesTheTextOfEachLine) {
  auto q =
      parse_queries("{\"id\": 1, \"text\": \"alpha\"}\n\n{\"text\": \"beta gamma\", \"lang\": \"en\"}\n", "q.jsonl");
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_EQ(*q, (std::vector<std::string>{"alpha", "beta gamma"}));
}

TEST(Queries, JsonlLineThatIsNotJsonNamesFileAndLine) {
  auto q = parse_queries("{\"text\": \"ok\"}\n{\"text\": \"broken\"\n", "q.jsonl");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(q.error().message.rfind("queries 'q.jsonl' line 2: not JSON", 0), 0u) << q.error().message;
  EXPECT_EQ(q.error().message.find('\n'), std::string::npos);
}

TEST(Queries, JsonlLineWithoutTextOrWithEmptyTextNamesTheLine) {
  auto q = parse_queries("{\"text\": \"ok\"}\n\n{\"prompt\": \"x\"}\n", "f.jsonl");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().message, "queries 'f.jsonl' line 3: no \"text\" string");
  q = parse_queries("{\"text\": \"  \"}\n", "f.jsonl");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().message, "queries 'f.jsonl' line 1: \"text\" is empty");
  q = parse_queries("{\"text\": 3}\n", "f.jsonl");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().message, "queries 'f.jsonl' line 1: no \"text\" string");
}

// A new user's query file mixed JSONL lines and plain lines and was read as plain text, the
// JSON lines becoming queries of JSON text: a file that looks like JSONL is read as JSONL, and a
// bad line of either kind is refused naming the file and the line.
TEST(Queries, AFileThatMixesJsonlAndPlainLinesIsRefusedNamingTheLine) {
  // JSONL behind a UTF-8 byte order mark (it hid the first '{'): JSONL.
  auto q = parse_queries("\xEF\xBB\xBF{\"text\": \"alpha\"}\n{\"text\": \"beta\"}\n", "bom.jsonl");
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_EQ(*q, (std::vector<std::string>{"alpha", "beta"}));
  q = parse_queries("\xEF\xBB\xBF{\"text\": \"alpha\"}\nwhat is a vector database\n", "bom.jsonl");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().message,
            "queries 'bom.jsonl' line 2: not JSON (expected one object per line with a \"text\" string)");
  // Plain first, JSONL after: refused, not read as the text of the JSON.
  q = parse_queries("\nwhat is a vector database\n  {\"text\": \"how to boil an egg\"}\n", "mixed.txt");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(q.error().message,
            "queries 'mixed.txt' line 3: a JSON object among plain lines (line 2 is not JSON): give one query per "
            "line, or JSONL on every line");
  // A JSON array is not JSONL.
  q = parse_queries("[{\"text\": \"a\"},\n {\"text\": \"b\"}]\n", "array.json");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().message.rfind("queries 'array.json' line 1: a JSON array", 0), 0u) << q.error().message;
  // Plain queries that only look like JSON stay queries.
  q = parse_queries("[draft] release notes\n{braces} in a query\n", "plain.txt");
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_EQ(*q, (std::vector<std::string>{"[draft] release notes", "{braces} in a query"}));
}

TEST(Queries, EmptyFileIsAnError) {
  auto q = parse_queries("\n  \n", "empty.txt");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().message, "queries 'empty.txt': no queries (the file is empty)");
}

TEST(Queries, MissingFileIsNotFoundNamingIt) {
  auto q = read_queries("/nonexistent/queries.txt");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(q.error().message, "queries '/nonexistent/queries.txt': cannot open the file");
}

TEST(Queries, ReadsAFile) {
  testing::TempDir dir;
  testing::write_file(dir.file("q.txt"), "one\ntwo\n");
  auto q = read_queries(dir.file("q.txt"));
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_EQ(q->size(), 2u);
}

TEST(Queries, BuiltInSetHasAFewHundredDistinctShortQueries) {
  auto q = read_queries(builtin_queries_path());
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_GE(q->size(), 300u);
  EXPECT_EQ(std::set<std::string>(q->begin(), q->end()).size(), q->size());
  for (const auto& s : *q) EXPECT_LE(s.size(), 100u) << s;
}

// --- the batch sweep ------------------------------------------------------------------------

TEST(EmbedSweep, BatchRangesCoverTheSetWithAShortLastCall) {
  using R = std::vector<std::pair<std::size_t, std::size_t>>;
  EXPECT_EQ(batch_ranges(10, 4), (R{{0, 4}, {4, 8}, {8, 10}}));
  EXPECT_EQ(batch_ranges(3, 8), (R{{0, 3}}));
  EXPECT_EQ(batch_ranges(2, 1), (R{{0, 1}, {1, 2}}));
  EXPECT_TRUE(batch_ranges(0, 4).empty());
}

TEST(EmbedSweep, MaxBatchTokensIsTheLargestCallsSum) {
  EXPECT_EQ(max_batch_tokens({3, 9, 4, 4, 1}, 1), 9);
  EXPECT_EQ(max_batch_tokens({3, 9, 4, 4, 1}, 2), 12);
  EXPECT_EQ(max_batch_tokens({3, 9, 4, 4, 1}, 8), 21);
}

// Fakes llama.cpp: one token per word plus two (as [CLS] ... [SEP]); records every context
// opened and every call's size; sets `cancel` after `cancel_after` calls (0 = never).
class RecordingEmbedder final : public engine::Embedder {
 public:
  explicit RecordingEmbedder(std::atomic<bool>& cancel, int cancel_after = 0)
      : cancel_(cancel), cancel_after_(cancel_after) {}
  Status load(const std::string&, const BenchParams&) override { return {}; }
  engine::EmbedModel model() const override { return {false, "cls", 384, 512}; }
  Result<std::vector<int32_t>> tokenize(const std::string& text) const override {
    std::vector<int32_t> t = {101};
    for (char c : text)
      if (c == ' ') t.push_back(7);
    t.push_back(7);
    t.push_back(102);
    return t;
  }
  Status open_context(const BenchParams&, int n_tokens_max, int n_seq_max) override {
    contexts.emplace_back(n_tokens_max, n_seq_max);
    if (cancel_open_ > 0 && static_cast<int>(contexts.size()) == cancel_open_) {  // its untimed sizing call
      cancel_ = true;
      return fail(ErrorCode::kInterrupted, "interrupted");
    }
    return {};
  }
  int cancel_open_ = 0;  // the context (1-based) whose opening is interrupted (0 = none)
  Status embed(const std::vector<const std::vector<int32_t>*>& texts) override {
    if (cancel_.load()) return fail(ErrorCode::kInterrupted, "interrupted");
    calls.push_back(static_cast<int>(texts.size()));
    if (cancel_after_ > 0 && static_cast<int>(calls.size()) == cancel_after_) cancel_ = true;
    return {};
  }
  std::vector<BufferMemory> memory() const override { return {}; }
  std::vector<std::string> devices_used() const override { return {"CPU"}; }

  std::vector<std::pair<int, int>> contexts;
  std::vector<int> calls;

 private:
  std::atomic<bool>& cancel_;
  int cancel_after_;
};

EmbedSpec five_queries() {
  EmbedSpec s;
  s.model_path = "fake.gguf";
  s.queries = {"a b", "c", "d e f", "g", "h i"};  // 4, 3, 5, 3, 4 tokens
  s.query_set = "five.txt";
  s.batch_sizes = {1, 2, 8};
  s.params.repetitions = 2;
  s.params.warmup = 1;
  return s;
}

TEST(EmbedSweep, LatencyAtBatchOneThenEachBatchSizeOverTheWholeSet) {
  std::atomic<bool> cancel{false};
  RecordingEmbedder fake(cancel);
  auto out = run_embed(fake, five_queries(), cancel);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_FALSE(out->interrupted);
  const EmbeddingResult& r = out->result;
  EXPECT_EQ(r.pooling, "cls");
  EXPECT_EQ(r.query_set, "five.txt");
  EXPECT_EQ(r.n_queries, 5);
  EXPECT_EQ(r.n_query_tokens, 19);
  // Latency: one context for one text of the longest query, 1 warmup call, then 5 x 2 calls.
  EXPECT_EQ(r.latency.samples_ns.size(), 10u);
  EXPECT_EQ(r.latency.ms.n, 10u);
  // Contexts: latency (5 tokens, 1 text), then per batch size above 1 the largest call's tokens.
  EXPECT_EQ(fake.contexts, (std::vector<std::pair<int, int>>{{5, 1}, {8, 2}, {19, 5}}));
  // Calls: warmup + 10 of one text (latency, whose passes are b=1's too); b=2: warmup (2) +
  // 2 x {2,2,1}; b=8: warmup (5) + 2 x 5. Batch 1 is not run twice (#37: the defaults' time).
  const std::vector<int> want = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // latency and b=1
                                 2, 2, 2, 1, 2, 2, 1,              // b=2
                                 5, 5, 5};                         // b=8
  EXPECT_EQ(fake.calls, want);
  ASSERT_EQ(r.throughput.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const EmbedThroughput& t = r.throughput[i];
    EXPECT_EQ(t.batch_size, (std::vector<int>{1, 2, 8})[i]);
    EXPECT_EQ(t.n_texts, 5);
    EXPECT_EQ(t.n_tokens, 19);
    EXPECT_EQ(t.samples_ns.size(), 2u);
    EXPECT_EQ(t.texts_per_s.n, 2u);
    // tokens/s over texts/s is the set's tokens per text.
    EXPECT_NEAR(t.tokens_per_s.mean / t.texts_per_s.mean, 19.0 / 5.0, 1e-9);
  }
}

// Issue 37: embed ran a fixed count of passes whatever the spread (4 min on a busy machine).
// -r auto: each phase stops on its interval as bench's -r auto does, or on its budget from the
// second pass on (a pass is the whole set); with --max-time 0 every phase stops at 2 passes.
TEST(EmbedSweep, AutoRepetitionsStopEachPhaseByTheRule) {
  std::atomic<bool> cancel{false};
  RecordingEmbedder fake(cancel);
  EmbedSpec spec = five_queries();
  spec.params.repetitions = 0;
  spec.rule.automatic = true;
  spec.rule.repetitions = kAutoMinRepetitions;
  spec.rule.max_time_s = 0;
  std::vector<std::string> lines;
  auto out = run_embed(fake, spec, cancel, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->latency_passes, 2);
  EXPECT_EQ(out->result.latency.samples_ns.size(), 10u);  // 5 queries x 2 passes
  ASSERT_EQ(out->result.throughput.size(), 3u);
  for (const auto& t : out->result.throughput) EXPECT_EQ(t.samples_ns.size(), 2u);
  EXPECT_EQ(out->stopped_by, "max_time");
  // A progress line per pass: 2 latency passes, 2 per batch size above 1.
  const auto count = [&](const std::string& what) {
    return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != std::string::npos; });
  };
  EXPECT_EQ(count("latency at batch 1: pass "), 2);
  EXPECT_EQ(count("throughput at batch 2: pass "), 2);
  EXPECT_EQ(count("throughput at batch 1"), 0);
  // With a budget that holds them, the minimum of 3 passes stands.
  RecordingEmbedder roomy(cancel);
  spec.rule.max_time_s = 3600;
  auto three = run_embed(roomy, spec, cancel);
  ASSERT_TRUE(three) << three.error().message;
  EXPECT_GE(three->latency_passes, 3);  // the fake's sub-µs passes may need more for the target
  EXPECT_NE(three->stopped_by, "max_time");
  // -r N: exactly N, said as "pass i/N".
  RecordingEmbedder fixed(cancel);
  lines.clear();
  auto two = run_embed(fixed, five_queries(), cancel, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(two) << two.error().message;
  EXPECT_EQ(two->latency_passes, 2);
  EXPECT_EQ(two->stopped_by, "count");
  EXPECT_EQ(count("latency at batch 1: pass 2/2"), 1);
}

TEST(EmbedSweep, CancelledMidLatencyKeepsFinishedSamplesAndSkipsTheSweep) {
  std::atomic<bool> cancel{false};
  RecordingEmbedder fake(cancel, /*cancel_after=*/4);  // warmup + 3 timed calls
  auto out = run_embed(fake, five_queries(), cancel);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(out->interrupted);
  EXPECT_EQ(out->result.latency.samples_ns.size(), 3u);
  EXPECT_TRUE(out->result.throughput.empty());
}

// Opening a context makes one untimed call (engine/embedder.h): interrupted there, the run
// ends interrupted with what finished, not failed.
TEST(EmbedSweep, InterruptedWhileOpeningAContextIsAnInterruptionNotAFailure) {
  std::atomic<bool> cancel{false};
  RecordingEmbedder fake(cancel);
  fake.cancel_open_ = 1;  // the latency context
  auto out = run_embed(fake, five_queries(), cancel);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(out->interrupted);
  EXPECT_TRUE(out->result.latency.samples_ns.empty());
  EXPECT_TRUE(fake.calls.empty());

  std::atomic<bool> cancel2{false};
  RecordingEmbedder second(cancel2);
  second.cancel_open_ = 2;  // batch 2's context (batch 1 is the latency passes): the latency samples are kept
  auto kept = run_embed(second, five_queries(), cancel2);
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_TRUE(kept->interrupted);
  EXPECT_EQ(kept->result.latency.samples_ns.size(), 5u * static_cast<std::size_t>(five_queries().params.repetitions));
  ASSERT_EQ(kept->result.throughput.size(), 1u);  // batch 1, from the latency passes; b=2 never opened
  EXPECT_EQ(kept->result.throughput[0].batch_size, 1);
}

// The llama embedder on a small synthetic bge-small (BERT, CLS pooling, 2 layers): opening a
// context sizes llama.cpp's buffers by one untimed call of the context's full size, so no
// embed() grows llama.cpp's output buffer inside its own timed call. Without it llama.cpp
// grows that buffer in the first call with more outputs than any before (new pages cleared):
// in bench/embed_latency's old form ("a", then the query) every query's sample paid about
// 0.5 ms and 380 page faults for it, llama-embedding's none.
TEST(LlamaEmbedderOnSyntheticBge, NoEmbedCallGrowsTheOutputBufferThatOpenContextSized) {
  testing::TempDir dir;
  auto preset = model::find_preset("bge-small-en-v1.5");
  ASSERT_TRUE(preset) << preset.error().message;
  preset->n_layer = 2;
  const std::string path = dir.file("bge-2l.gguf");
  auto written = synth::synthesize(*preset, "F16", path, /*header_only=*/false);
  ASSERT_TRUE(written) << written.error().message;
  std::atomic<bool> cancel{false};
  auto embedder = engine::make_llama_embedder(&cancel);
  BenchParams p;
  p.n_threads = 1;
  ASSERT_TRUE(embedder->load(path, p));
  auto text = [](int n) {
    std::vector<int32_t> t(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = 1000 + 37 * i;
    return t;
  };
  const auto t3 = text(3), t5 = text(5), t12 = text(12);
  // Latency: one text per call, the longest 12 tokens; a short text first, as a warmup.
  ASSERT_TRUE(embedder->open_context(p, 12, 1));
  for (const auto* t : {&t3, &t12, &t5, &t12}) {
    ASSERT_TRUE(embedder->embed({t}));
    EXPECT_TRUE(engine::llama_output_buffer_kept(*embedder)) << t->size() << " tokens";
  }
  // A batch size of 4: 20 tokens in all at most, in 4 texts.
  ASSERT_TRUE(embedder->open_context(p, 20, 4));
  ASSERT_TRUE(embedder->embed({&t3}));
  EXPECT_TRUE(engine::llama_output_buffer_kept(*embedder));
  ASSERT_TRUE(embedder->embed({&t5, &t5, &t5, &t5}));
  EXPECT_TRUE(engine::llama_output_buffer_kept(*embedder));
  EXPECT_EQ(embedder->model().pooling, "cls");
}

// --- the record -----------------------------------------------------------------------------

RunRecord embedding_record() {
  RunRecord r = testing::sample_record();
  r.results = {};
  r.params.n_prompt = r.params.n_gen = 0;
  r.params.embeddings = 1;
  EmbeddingResult e;
  e.pooling = "cls";
  e.query_set = "builtin";
  e.n_queries = 4;
  e.n_query_tokens = 40;
  e.latency = make_latency({1'000'000, 2'000'000, 3'000'000, 4'000'000});           // 1..4 ms
  e.throughput.push_back(make_embed_throughput(8, 4, 40, {2'000'000, 2'000'000}));  // 2000 texts/s, 20000 t/s
  r.results.embedding = e;
  return r;
}

TEST(EmbedRecord, JsonKeepsRawSamplesAndPercentilesAndReadsBack) {
  const RunRecord r = embedding_record();
  const auto j = store::to_json(r);
  const auto& e = j["results"]["embedding"];
  EXPECT_EQ(e["pooling"], "cls");
  EXPECT_EQ(e["latency"]["samples_ns"].size(), 4u);
  EXPECT_DOUBLE_EQ(e["latency"]["p50_ms"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(e["latency"]["p95_ms"].get<double>(), 3.85);  // linear: rank 2.85
  EXPECT_DOUBLE_EQ(e["latency"]["p99_ms"].get<double>(), 3.97);
  EXPECT_DOUBLE_EQ(e["throughput"][0]["avg_texts_per_s"].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(e["throughput"][0]["avg_tps"].get<double>(), 20000.0);
  EXPECT_FALSE(j["results"].contains("tg"));
  auto back = store::from_json(j);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->results.embedding);
  EXPECT_EQ(back->results.embedding->latency.samples_ns, r.results.embedding->latency.samples_ns);
  EXPECT_DOUBLE_EQ(back->results.embedding->latency.ms.p99, 3.97);
  ASSERT_EQ(back->results.embedding->throughput.size(), 1u);
  EXPECT_EQ(back->results.embedding->throughput[0].batch_size, 8);
  EXPECT_DOUBLE_EQ(back->results.embedding->throughput[0].tokens_per_s.mean, 20000.0);
}

TEST(EmbedRecord, StoredPartsKeepTheEmbeddingResult) {
  const auto parts = store::split_record(store::to_json(embedding_record()));
  const auto figures = store::Json::parse(parts.figures);
  ASSERT_TRUE(figures["results"].contains("embedding"));
  EXPECT_EQ(figures["results"]["embedding"]["latency"]["samples_ns"].size(), 4u);
}

TEST(EmbedRecord, TableHasALatencyRowAndOneRowPerBatchSize) {
  const std::vector<RunRecord> records = {embedding_record(), testing::sample_record()};
  const report::Table t = report::embedding_table(records);
  ASSERT_EQ(t.rows().size(), 2u);  // the bench record has no embedding: skipped
  const std::string md = report::markdown_table(t);
  EXPECT_NE(md.find("latency b1"), std::string::npos) << md;
  EXPECT_NE(md.find("2.50"), std::string::npos) << md;
  EXPECT_NE(md.find("3.97"), std::string::npos) << md;
  EXPECT_NE(md.find("batch 8"), std::string::npos) << md;
  EXPECT_NE(md.find("2000.0"), std::string::npos) << md;
  // One line per row, the model whole on it (it was cut onto continuation rows to keep 120
  // columns): a long name widens the table, as in bench's and compare's tables.
  const auto lines = split(md, '\n');
  ASSERT_EQ(lines.size(), 5u) << md;  // header, rule, 2 rows, ""
  for (std::size_t i = 2; i < 4; ++i)
    EXPECT_NE(lines[i].find("| Model, \"quoted\" \\| piped F32 |"), std::string::npos) << lines[i];
}

}  // namespace
}  // namespace rigbench::measure
