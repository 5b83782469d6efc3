// The serve-bench load generator's prompts (measure/serve_load.h), without a server: the
// tokenizer is a function counting its calls.
#include "measure/serve_load.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace rigbench::measure
