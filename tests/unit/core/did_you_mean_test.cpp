// core/did_you_mean: the name a person most likely meant (issue 37: `bench --reps` got no
// suggestion; `--device RTX3090` got the whole catalog on one line).
#include "core/did_you_mean.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

TEST(ClosestMatch, AnAbbreviationOfOneFlagSuggestsIt) {
  const std::vector<std::string> bench = {"--repetitions", "--rpc", "--n-prompt", "--n-gen", "-r", "--progress"};
  EXPECT_EQ(closest_match("--reps", bench), "--repetitions");
  EXPECT_EQ(closest_match("--rep", bench), "--repetitions");  // a prefix, as before
  // Two flags it abbreviates: no guess. Too short, or other first letters: none either.
  EXPECT_EQ(closest_match("--pro", {"--progress", "--prompts"}), "");
  EXPECT_EQ(closest_match("--rs", bench), "");
  EXPECT_EQ(closest_match("--eps", bench), "");
  // The dashes must agree: "-reps" is no spelling of "--repetitions".
  EXPECT_EQ(closest_match("-reps", bench), "");
}

TEST(NamesLike, SpacesDashesAndCaseAreIgnoredAndABeginningListsEveryEntryItBegins) {
  const std::vector<std::string> catalog = {"RTX 3090", "RTX 4090", "M2 Pro 16GB", "M2 Pro 32GB", "M2 Max 32GB",
                                            "H100 SXM"};
  EXPECT_EQ(squashed("RTX 3090"), "rtx3090");
  EXPECT_EQ(names_like("RTX3090", catalog), (std::vector<std::string>{"RTX 3090"}));
  EXPECT_EQ(names_like("rtx-3090", catalog), (std::vector<std::string>{"RTX 3090"}));
  EXPECT_EQ(names_like("M2 Pro", catalog), (std::vector<std::string>{"M2 Pro 16GB", "M2 Pro 32GB"}));
  EXPECT_EQ(names_like("M2Pro", catalog), (std::vector<std::string>{"M2 Pro 16GB", "M2 Pro 32GB"}));
  // A later word of the name: "3090" (a new user's --device 3090 got the whole catalog's count).
  EXPECT_EQ(names_like("3090", catalog), (std::vector<std::string>{"RTX 3090"}));
  EXPECT_EQ(names_like("Pro 32", catalog), (std::vector<std::string>{"M2 Pro 32GB"}));
  EXPECT_EQ(names_like("90", catalog), (std::vector<std::string>{}));  // two characters: too short to say
  // A typo within the edit limit, else nothing.
  EXPECT_EQ(names_like("RTX 3009", catalog), (std::vector<std::string>{"RTX 3090"}));
  EXPECT_EQ(names_like("H100SXN", catalog), (std::vector<std::string>{"H100 SXM"}));
  EXPECT_TRUE(names_like("Radeon VII", catalog).empty());
  EXPECT_TRUE(names_like("", catalog).empty());
}

}  // namespace
}  // namespace rigbench
