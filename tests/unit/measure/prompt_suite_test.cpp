// The prompt-suite reader (one-line errors naming the file and line), the built-in suite, and
// prepare_prompts against a fake engine (a template or none, one token per character).
#include "measure/prompt_suite.h"

#include <gtest/gtest.h>

#include <set>

#include "power/summary.h"

namespace rigbench::measure {
namespace {

Result<PromptSuite> parse(const std::string& content) { return parse_prompt_suite(content, "p.jsonl", "p.jsonl"); }

std::string error_of(const std::string& content) {
  auto s = parse(content);
  EXPECT_FALSE(s.has_value()) << content;
  return s ? std::string() : s.error().message;
}

TEST(PromptSuiteReader, ReadsTextAndMessagesWithDefaults) {
  auto s = parse(
      "{\"id\": \"a\", \"category\": \"code\", \"text\": \"hello\", \"n_gen\": 16}\n"
      "\n"
      "{\"messages\": [{\"role\": \"system\", \"content\": \"be brief\"}, {\"role\": \"user\", \"content\": "
      "\"hi\"}]}\r\n");
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(s->prompts.size(), 2u);
  EXPECT_EQ(s->prompts[0].id, "a");
  EXPECT_EQ(s->prompts[0].category, "code");
  EXPECT_EQ(s->prompts[0].text, "hello");
  EXPECT_EQ(s->prompts[0].n_gen, 16);
  EXPECT_EQ(s->prompts[1].id, "line 3");
  EXPECT_EQ(s->prompts[1].line, 3);
  EXPECT_EQ(s->prompts[1].category, "none");
  EXPECT_EQ(s->prompts[1].n_gen, 128);
  ASSERT_EQ(s->prompts[1].messages.size(), 2u);
  EXPECT_EQ(s->prompts[1].messages[1].content, "hi");
  EXPECT_EQ(s->hash.rfind("xxh64:", 0), 0u);
  EXPECT_EQ(s->hash.size(), 6u + 16u);
}

TEST(PromptSuiteReader, TheHashFollowsTheContent) {
  auto a = parse("{\"text\": \"one\"}\n");
  auto b = parse("{\"text\": \"two\"}\n");
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->hash, b->hash);
  EXPECT_EQ(a->hash, parse("{\"text\": \"one\"}\n")->hash);
}

TEST(PromptSuiteReader, EachBadLineIsOneErrorNamingTheFileAndLine) {
  EXPECT_EQ(error_of("{\"text\": \"ok\"}\nnot json\n"), "prompts 'p.jsonl' line 2: not JSONL (each line one JSON object)");
  EXPECT_EQ(error_of("[1, 2]\n"), "prompts 'p.jsonl' line 1: not JSONL (each line one JSON object)");
  EXPECT_EQ(error_of("{\"id\": \"x\"}\n"), "prompts 'p.jsonl' line 1: no text (give \"text\" or \"messages\")");
  EXPECT_EQ(error_of("{\"text\": \"\"}\n"), "prompts 'p.jsonl' line 1: no text (\"text\" is empty)");
  EXPECT_EQ(error_of("{\"text\": \"a\", \"n_gen\": 0}\n"),
            "prompts 'p.jsonl' line 1: output length n_gen 0: must be a whole number of tokens >= 1");
  EXPECT_NE(error_of("{\"text\": \"a\", \"n_gen\": \"many\"}\n").find("line 1: output length"), std::string::npos);
  EXPECT_NE(error_of("{\"text\": \"a\", \"messages\": []}\n").find("both text and messages"), std::string::npos);
  EXPECT_NE(error_of("{\"messages\": [{\"role\": \"user\"}]}\n").find("line 1: a message without"), std::string::npos);
  EXPECT_NE(error_of("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"a\", \"text\": \"y\"}\n")
                .find("line 2: id 'a' appears twice"),
            std::string::npos);
  EXPECT_EQ(error_of("\n\n"), "prompts 'p.jsonl': no prompts in the file");
}

TEST(PromptSuiteReader, AFileThatIsMissingIsNotFound) {
  auto s = read_prompt_suite("/nonexistent/prompts.jsonl");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(s.error().message, "prompts '/nonexistent/prompts.jsonl': cannot read the file");
}

TEST(PromptSuiteReader, TheBuiltInSuiteHasTenPromptsInFiveCategories) {
  auto s = read_prompt_suite("builtin");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->name, "builtin");
  EXPECT_EQ(s->prompts.size(), 10u);
  std::set<std::string> categories;
  std::size_t longest = 0;
  for (const SuitePrompt& p : s->prompts) {
    categories.insert(p.category);
    longest = std::max(longest, p.text.size());
    EXPECT_FALSE(p.text.empty()) << p.id;  // text, so it runs on a model without a chat template
  }
  EXPECT_EQ(categories, (std::set<std::string>{"code", "summarize", "reasoning", "chat", "long-context"}));
  EXPECT_GT(longest, 8000u);  // the long-context prompt: about 2,000 tokens of English
}

// An engine that tokenizes one token per byte (BOS first) and applies a template that wraps
// each message as "<role>content</role>" when it has one.
class FakeTextEngine final : public engine::Engine {
 public:
  bool templated = false;
  Status load(const std::string&, const BenchParams&) override { return {}; }
  Status open_context(const BenchParams&) override { return {}; }
  void clear() override {}
  Status prompt(int) override { return {}; }
  Status generate(int) override { return {}; }
  Status sample() override { return {}; }
  Status save_state() override { return {}; }
  Status restore_state() override { return {}; }
  std::vector<BufferMemory> memory() const override { return {}; }
  void settings_used(BenchParams&) const override {}
  std::vector<std::string> devices_used() const override { return {"CPU"}; }
  bool has_chat_template() const override { return templated; }
  Result<std::string> apply_chat_template(const std::vector<engine::ChatMessage>& messages) const override {
    std::string out;
    for (const auto& m : messages) out += "<" + m.role + ">" + m.content + "</" + m.role + ">";
    return out;
  }
  Result<std::vector<int32_t>> tokenize(const std::string& text) const override {
    std::vector<int32_t> t = {1};
    for (unsigned char c : text) t.push_back(c);
    return t;
  }
  // Generation: token 2 is the end of generation; `script` is what sampling returns, in turn.
  std::vector<int32_t> script;
  std::size_t next = 0;
  int decodes = 0;
  Status decode_tokens(const std::vector<int32_t>&) override {
    ++decodes;
    return {};
  }
  Result<int32_t> sample_token() override { return next < script.size() ? script[next++] : 7; }
  bool is_end_of_generation(int32_t token) const override { return token == 2; }
};

TEST(PreparePromptsWithFakeEngine, ChatMessagesNeedATemplate) {
  auto s = parse("{\"text\": \"hi\"}\n{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n");
  ASSERT_TRUE(s);
  FakeTextEngine engine;
  auto none = prepare_prompts(engine, *s, 0);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message,
            "prompts 'p.jsonl' line 2: chat messages, but the model has no chat template; give \"text\" instead");
  engine.templated = true;
  auto with = prepare_prompts(engine, *s, 0);
  ASSERT_TRUE(with) << with.error().message;
  // Text goes through the template as a user message: BOS + "<user>hi</user>".
  EXPECT_EQ((*with)[0].tokens.size(), 1u + 15u);
  EXPECT_EQ((*with)[1].tokens.size(), 1u + 15u);
}

TEST(PreparePromptsWithFakeEngine, APromptLongerThanTheContextNamesItsLine) {
  auto s = parse("{\"text\": \"short\", \"n_gen\": 4}\n{\"text\": \"a longer prompt\", \"n_gen\": 4}\n");
  ASSERT_TRUE(s);
  FakeTextEngine engine;
  EXPECT_TRUE(prepare_prompts(engine, *s, 20));  // 1 + 15 + 4 = 20 fits exactly
  auto r = prepare_prompts(engine, *s, 19);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().message,
            "prompts 'p.jsonl' line 2: the prompt (16 tokens) and its n_gen 4 are longer than the context (-c 19); "
            "shorten it or raise -c");
}

TEST(RunSuiteWithFakeEngine, StopsAtEndOfGenerationUnlessIgnoreEos) {
  auto s = parse("{\"id\": \"a\", \"text\": \"x\", \"n_gen\": 5}\n");
  ASSERT_TRUE(s);
  TestCase tc;
  tc.model_path = "m.gguf";
  tc.params.repetitions = 2;
  tc.params.warmup = 0;
  std::atomic<bool> cancel{false};
  FakeTextEngine engine;
  engine.script = {9, 9, 2, 9, 9, 9, 9, 9, 2, 9};  // run 1: 9 9 2 (stop); run 2: 9 9 9 9 9
  auto out = run_suite(engine, cancel, tc, *s, /*ignore_eos=*/false);
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_TRUE(out->results.suite);
  EXPECT_FALSE(out->results.pp || out->results.tg || out->results.ttft);
  const SuiteResult& r = *out->results.suite;
  EXPECT_EQ(r.runs, 2);
  ASSERT_EQ(r.prompts.size(), 1u);
  EXPECT_EQ(r.prompts[0].n_generated, (std::vector<int>{3, 5}));  // the end token counts as generated
  ASSERT_EQ(r.prompts[0].itl_ns.size(), 2u);
  EXPECT_EQ(r.prompts[0].itl_ns[0].size(), 2u);  // tokens after the first
  EXPECT_EQ(r.prompts[0].itl_ns[1].size(), 4u);
  EXPECT_EQ(r.prompts[0].n_prompt_tokens, 2);  // BOS + "x"
  EXPECT_EQ(out->params.n_ctx, 2 + 5);         // the context made to fit the longest prompt

  FakeTextEngine again;
  again.script = {9, 2, 2, 2, 2};
  auto ignored = run_suite(again, cancel, tc, *s, /*ignore_eos=*/true);
  ASSERT_TRUE(ignored);
  EXPECT_EQ(ignored->results.suite->prompts[0].n_generated, (std::vector<int>{5, 5}));
  EXPECT_TRUE(ignored->results.suite->ignore_eos);
}

TEST(RunSuiteWithFakeEngine, MarksIdleThenPrefillAsPpAndGenerationAsTgOutsideTheWarmup) {
  auto s = parse("{\"id\": \"a\", \"text\": \"x\", \"n_gen\": 3}\n{\"id\": \"b\", \"text\": \"y z\", \"n_gen\": 2}\n");
  ASSERT_TRUE(s);
  TestCase tc;
  tc.model_path = "m.gguf";
  tc.params.repetitions = 2;
  tc.params.warmup = 1;
  std::atomic<bool> cancel{false};
  FakeTextEngine engine;
  engine.script = std::vector<int32_t>(64, 9);  // never the end token
  std::vector<std::string> marks;
  auto out = run_suite(engine, cancel, tc, *s, /*ignore_eos=*/false, {},
                       [&marks](const std::string& phase) { marks.push_back(phase); }, /*idle_s=*/0.01);
  ASSERT_TRUE(out) << out.error().message;
  std::vector<std::string> want = {"idle", ""};  // the idle window, then nothing for the warmup
  for (int run = 0; run < 2; ++run)
    for (int prompt = 0; prompt < 2; ++prompt) want.insert(want.end(), {"pp", "", "tg", ""});
  EXPECT_EQ(marks, want);
  // The phases' tokens: prompts' tokens per run; tokens after the first per prompt and run.
  ASSERT_TRUE(out->marked_tokens);
  const PhaseTokens t = *out->marked_tokens;
  const auto& pr = out->results.suite->prompts;
  EXPECT_DOUBLE_EQ(t.pp, 2.0 * (pr[0].n_prompt_tokens + pr[1].n_prompt_tokens));
  EXPECT_DOUBLE_EQ(t.tg, 2.0 * ((3 - 1) + (2 - 1)));
}

// An engine whose decode number `cut_at` (1-based) is interrupted: it sets `cancel` and fails
// as llama.cpp's abort callback makes llama_decode fail.
class CutTextEngine final : public engine::Engine {
 public:
  CutTextEngine(std::atomic<bool>& cancel, int cut_at) : cancel_(cancel), cut_at_(cut_at) {}
  Status load(const std::string&, const BenchParams&) override { return {}; }
  Status open_context(const BenchParams&) override { return {}; }
  void clear() override {}
  Status prompt(int) override { return {}; }
  Status generate(int) override { return {}; }
  Status sample() override { return {}; }
  Status save_state() override { return {}; }
  Status restore_state() override { return {}; }
  std::vector<BufferMemory> memory() const override { return {}; }
  void settings_used(BenchParams&) const override {}
  std::vector<std::string> devices_used() const override { return {"CPU"}; }
  Result<std::vector<int32_t>> tokenize(const std::string& text) const override {
    std::vector<int32_t> t = {1};
    for (unsigned char c : text) t.push_back(c);
    return t;
  }
  Status decode_tokens(const std::vector<int32_t>&) override {
    if (++decodes_ == cut_at_) {
      cancel_.store(true);
      return fail(ErrorCode::kInterrupted, "interrupted");
    }
    return {};
  }
  Result<int32_t> sample_token() override { return 9; }  // never the end of generation
  bool is_end_of_generation(int32_t token) const override { return token == 2; }

 private:
  std::atomic<bool>& cancel_;
  int cut_at_;
  int decodes_ = 0;
};

// An interrupted suite: the results keep the whole run only, and J/token's tokens are those of
// the windows the energy kept: every finished prompt's (the cut run's too), never the cut
// window's, which is dropped. Per run: prompt a (2 tokens, n_gen 3) = decodes 1-3, prompt b (4
// tokens, n_gen 2) = decodes 4-5; run 2 starts at decode 6.
TEST(RunSuiteWithFakeEngine, AnInterruptionDropsTheCutWindowAndCountsTheFinishedWindowsTokens) {
  auto s = parse("{\"id\": \"a\", \"text\": \"x\", \"n_gen\": 3}\n{\"id\": \"b\", \"text\": \"y z\", \"n_gen\": 2}\n");
  ASSERT_TRUE(s);
  TestCase tc;
  tc.model_path = "m.gguf";
  tc.params.repetitions = 3;
  tc.params.warmup = 0;
  const std::vector<std::string> run = {"pp", "", "tg", "", "pp", "", "tg", ""};
  struct Cut {
    int decode;
    std::vector<std::string> run2_marks;  // after run 1's
    double pp, tg;                        // the kept windows' tokens
  };
  const std::vector<Cut> cuts = {
      // b's prefill in run 2: a's windows kept, b's pp dropped.
      {9, {"pp", "", "tg", "", "pp", power::kDropWindow}, 2 + 4 + 2, 2 + 1 + 2},
      // a's first generated token in run 2: a's pp kept, its tg window dropped.
      {7, {"pp", "", "tg", power::kDropWindow}, 2 + 4 + 2, 2 + 1},
  };
  for (const Cut& cut : cuts) {
    std::atomic<bool> cancel{false};
    CutTextEngine engine(cancel, cut.decode);
    std::vector<std::string> marks;
    auto out = run_suite(engine, cancel, tc, *s, /*ignore_eos=*/false, {},
                         [&marks](const std::string& phase) { marks.push_back(phase); });
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_TRUE(out->interrupted) << cut.decode;
    ASSERT_TRUE(out->results.suite) << cut.decode;
    EXPECT_EQ(out->results.suite->runs, 1) << cut.decode;
    std::vector<std::string> want = run;
    want.insert(want.end(), cut.run2_marks.begin(), cut.run2_marks.end());
    EXPECT_EQ(marks, want) << cut.decode;
    ASSERT_TRUE(out->marked_tokens) << cut.decode;
    EXPECT_DOUBLE_EQ(out->marked_tokens->pp, cut.pp) << cut.decode;
    EXPECT_DOUBLE_EQ(out->marked_tokens->tg, cut.tg) << cut.decode;
  }
}

}  // namespace
}  // namespace rigbench::measure
