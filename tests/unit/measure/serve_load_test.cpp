// The serve-bench load generator's prompts (measure/serve_load.h), without a server: the
// tokenizer is a function counting its calls.
#include "measure/serve_load.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

namespace rigbench::measure {
namespace {

// A tokenizer that gives one id per byte (ids 0..255 as the bytes are) and counts its calls.
struct CountingTokenizer {
  int calls = 0;
  Result<std::vector<int>> operator()(const std::string& text) {
    ++calls;
    std::vector<int> ids;
    for (unsigned char c : text) ids.push_back(c);
    return ids;
  }
};

TEST(ServeRandomPrompts, TokenizeIsCalledOnceForAllPromptsEachExactlyInputTokensLong) {
  CountingTokenizer tok;
  const auto prompts = random_prompts(193, 32, 16, 42, [&](const std::string& t) { return tok(t); });
  EXPECT_EQ(tok.calls, 1);  // not once per prompt (the client's CPU at 64 streams)
  ASSERT_EQ(prompts.size(), 193u);
  std::set<std::vector<int>> distinct;
  for (const ServePrompt& p : prompts) {
    EXPECT_EQ(p.tokens.size(), 32u);
    EXPECT_EQ(p.input_tokens, 32);
    EXPECT_EQ(p.max_tokens, 16);
    distinct.insert(p.tokens);
  }
  // Each window at an offset of its own: no repeat for the server's prompt cache (offsets drawn
  // with replacement repeated 43 of 193 prompts).
  EXPECT_EQ(distinct.size(), 193u);
}

TEST(ServeRandomPrompts, SameSeedSamePromptsAndWordsWithoutATokenizer) {
  const auto a = random_prompts(4, 8, 16, 7, {});
  const auto b = random_prompts(4, 8, 16, 7, {});
  ASSERT_EQ(a.size(), 4u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text);
    EXPECT_TRUE(a[i].tokens.empty());
    EXPECT_EQ(a[i].input_tokens, -1);
    int words = 1;
    for (char c : a[i].text) words += c == ' ';
    EXPECT_EQ(words, 8);
  }
}

TEST(ServeRandomPrompts, ATokenizerThatFailsFallsBackToWords) {
  const auto p = random_prompts(3, 8, 16, 7, [](const std::string&) -> Result<std::vector<int>> {
    return fail(ErrorCode::kRuntime, "/tokenize: no such endpoint");
  });
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].tokens.empty());
  EXPECT_FALSE(p[0].text.empty());
}

// Every prompt starts with the same prefix (token ids, or words), the job's: the same seed, the
// same prefix; the prompts' own parts are untouched.
TEST(ServeSharedPrefix, EveryPromptCarriesTheSameSeededPrefix) {
  CountingTokenizer tok;
  const auto t = [&](const std::string& s) { return tok(s); };
  auto prompts = random_prompts(6, 16, 8, 1, t);
  const auto own = prompts;
  add_shared_prefix(prompts, 24, 99, t);
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    ASSERT_EQ(prompts[i].tokens.size(), 40u);
    EXPECT_EQ(prompts[i].input_tokens, 40);
    EXPECT_EQ(std::vector<int>(prompts[i].tokens.begin(), prompts[i].tokens.begin() + 24),
              std::vector<int>(prompts[0].tokens.begin(), prompts[0].tokens.begin() + 24));
    EXPECT_EQ(std::vector<int>(prompts[i].tokens.begin() + 24, prompts[i].tokens.end()), own[i].tokens);
  }
  auto again = random_prompts(1, 16, 8, 2, t);
  add_shared_prefix(again, 24, 99, t);
  EXPECT_EQ(std::vector<int>(again[0].tokens.begin(), again[0].tokens.begin() + 24),
            std::vector<int>(prompts[0].tokens.begin(), prompts[0].tokens.begin() + 24));
  // Words: the prefix's 5 words, then the prompt's 3.
  auto words = random_prompts(2, 3, 8, 1, {});
  add_shared_prefix(words, 5, 7, {});
  const auto first5 = [](const std::string& s) {
    std::size_t at = 0;
    for (int w = 0; w < 5; ++w) at = s.find(' ', at) + 1;
    return s.substr(0, at);
  };
  EXPECT_EQ(first5(words[0].text), first5(words[1].text));
  EXPECT_EQ(std::count(words[0].text.begin(), words[0].text.end(), ' '), 7);
  EXPECT_EQ(words[0].input_tokens, -1);  // words: the client does not know the tokens
  add_shared_prefix(words, 0, 7, {});    // none: nothing changes
  EXPECT_EQ(std::count(words[0].text.begin(), words[0].text.end(), ' '), 7);
}

// --prefix-share: round(share x n) of the prompts carry the prefix, which ones drawn from the
// seed (the same seed, the same ones; another seed, others); 0 none, 1 every one.
TEST(ServeSharedPrefix, AShareOfThePromptsCarriesItWhichOnesFromTheSeed) {
  CountingTokenizer tok;
  const auto t = [&](const std::string& s) { return tok(s); };
  const auto carrying = [&](double share, uint64_t seed) {
    auto prompts = random_prompts(40, 8, 4, 3, t);
    add_shared_prefix(prompts, 16, seed, t, share);
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < prompts.size(); ++i) {
      EXPECT_TRUE(prompts[i].tokens.size() == 8u || prompts[i].tokens.size() == 24u) << prompts[i].tokens.size();
      if (prompts[i].tokens.size() == 24u) which.push_back(i);
    }
    return which;
  };
  EXPECT_EQ(carrying(0.25, 5).size(), 10u);
  EXPECT_EQ(carrying(0.25, 5), carrying(0.25, 5));
  EXPECT_NE(carrying(0.25, 5), carrying(0.25, 6));
  EXPECT_EQ(carrying(0.3, 5).size(), 12u);
  EXPECT_TRUE(carrying(0, 5).empty());
  EXPECT_EQ(carrying(1, 5).size(), 40u);
}

// A trace's prompts: each of its own length, from one /tokenize call; words without one.
TEST(ServeRandomPrompts, EachPromptOfItsOwnLengthFromOneTokenizeCall) {
  CountingTokenizer tok;
  const std::vector<std::pair<int, int>> lengths = {{5, 2}, {40, 7}, {1, 1}, {12, 30}};
  const auto p = random_prompts_of(lengths, 9, [&](const std::string& s) { return tok(s); });
  EXPECT_EQ(tok.calls, 1);
  ASSERT_EQ(p.size(), lengths.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(p[i].tokens.size(), static_cast<std::size_t>(lengths[i].first));
    EXPECT_EQ(p[i].input_tokens, lengths[i].first);
    EXPECT_EQ(p[i].max_tokens, lengths[i].second);
  }
  const auto words = random_prompts_of(lengths, 9, {});
  for (std::size_t i = 0; i < words.size(); ++i) {
    EXPECT_EQ(std::count(words[i].text.begin(), words[i].text.end(), ' ') + 1, lengths[i].first);
    EXPECT_EQ(words[i].max_tokens, lengths[i].second);
  }
}

// The open loop's gaps: mean 1/rate whatever the shape; the squared coefficient of variation
// 1/burstiness (gamma), so 1 is Poisson's exponential; infinity even gaps.
TEST(ArrivalGaps, GammaGapsOfMeanOneOverRateAndTheirSpread) {
  for (const double k : {0.25, 1.0, 4.0}) {
    ArrivalGaps gaps(5.0, k, 42);
    double sum = 0, sq = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
      const double g = gaps.next();
      ASSERT_GE(g, 0);
      sum += g;
      sq += g * g;
    }
    const double mean = sum / n, var = sq / n - mean * mean;
    EXPECT_NEAR(mean, 0.2, 0.2 * 0.03) << "burstiness " << k;
    EXPECT_NEAR(var / (mean * mean), 1 / k, 0.1 / k) << "burstiness " << k;
  }
  ArrivalGaps even(4.0, std::numeric_limits<double>::infinity(), 1);
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(even.next(), 0.25);
  // Seeded: the same seed, the same gaps.
  ArrivalGaps a(2.0, 0.5, 7), b(2.0, 0.5, 7);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.next(), b.next());
}

}  // namespace
}  // namespace rigbench::measure
