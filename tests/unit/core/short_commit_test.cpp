// A new user saw compare's serve-bench rows carry llama-server's full 40-digit commit
// ("llama.cpp b1-80fb11ac73e66d89eae2c6a91d8a77428fa733ed") where every other place showed
// 8 ("llama.cpp 80fb11ac"): one length everywhere people read a commit.
#include "core/short_commit.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

TEST(ShortCommit, EightHexDigitsForACommitAloneOrInAVersion) {
  EXPECT_EQ(short_commit("80fb11ac73e66d89eae2c6a91d8a77428fa733ed"), "80fb11ac");
  EXPECT_EQ(short_commit("b1-80fb11ac73e66d89eae2c6a91d8a77428fa733ed"), "b1-80fb11ac");  // llama-server's build_info
  EXPECT_EQ(short_commit("80fb11ac"), "80fb11ac");
}

TEST(ShortCommit, OtherTextIsKept) {
  EXPECT_EQ(short_commit("506122d"), "506122d");  // llama-bench's short commit, 2024 builds
  EXPECT_EQ(short_commit("0.5.1"), "0.5.1");      // Ollama
  EXPECT_EQ(short_commit("b0-fake"), "b0-fake");
  EXPECT_EQ(short_commit("v0.11.0rc2"), "v0.11.0rc2");  // vLLM: letters that are not hex
  EXPECT_EQ(short_commit(""), "");
}

}  // namespace
}  // namespace rigbench
