// The words of messages about arguments: nearest names and unexpected arguments in order.
#include "cli/args.h"

#include <gtest/gtest.h>

namespace rigbench::cli {
namespace {

const std::vector<std::string> kSubcommands = {"bench", "synth",  "presets", "fit",     "hw",    "devices",
                                               "cost",  "import", "export",  "compare", "report"};

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("bench", "bench"), 0u);
  EXPECT_EQ(edit_distance("benhc", "bench"), 1u);  // neighbours swapped
  EXPECT_EQ(edit_distance("bnch", "bench"), 1u);
  EXPECT_EQ(edit_distance("benchh", "bench"), 1u);
  EXPECT_EQ(edit_distance("bonch", "bench"), 1u);
  EXPECT_EQ(edit_distance("", "fit"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(ClosestMatch, SuggestsTheNearestNameOrAUniquePrefix) {
  EXPECT_EQ(closest_match("benhc", kSubcommands), "bench");
  EXPECT_EQ(closest_match("reprot", kSubcommands), "report");
  EXPECT_EQ(closest_match("exprot", kSubcommands), "export");
  EXPECT_EQ(closest_match("fti", kSubcommands), "fit");
  EXPECT_EQ(closest_match("comp", kSubcommands), "compare");  // a prefix of one name only
  EXPECT_EQ(closest_match("pre", kSubcommands), "presets");
  EXPECT_EQ(closest_match("co", kSubcommands), "");  // compare or cost
  EXPECT_EQ(closest_match("frobnicate", kSubcommands), "");
  EXPECT_EQ(closest_match("xyz", kSubcommands), "");
  EXPECT_EQ(closest_match("--n-promt", {"--n-prompt", "--n-gen", "-p"}), "--n-prompt");
  // One letter is one edit from every other: fit has no -t, and -h is no likelier than -c.
  EXPECT_EQ(closest_match("-t", {"-h", "-c", "-o", "--ctx-size"}), "");
  EXPECT_EQ(closest_match("-ng", {"-ngl", "-h"}), "-ngl");
}

TEST(UnexpectedArguments, NamesTheUnknownFlagFirstAndKeepsTheOrderGiven) {
  EXPECT_EQ(unexpected_arguments_message("fit", {"--num-ctx", "4096"}, {"--ctx-size", "-c"}),
            "fit: unknown flag '--num-ctx'; not expected either: '4096' (see rigbench fit --help)");
  EXPECT_EQ(unexpected_arguments_message("bench", {"--num-ctx=4096"}, {}),
            "bench: unknown flag '--num-ctx' (see rigbench bench --help)");
  EXPECT_EQ(unexpected_arguments_message("bench", {"x", "--a", "-5", "--b", "y"}, {}),
            "bench: unknown flags '--a', '--b'; not expected either: 'x', '-5', 'y' (see rigbench bench --help)");
  EXPECT_EQ(unexpected_arguments_message("bench", {"--n-promt", "64"}, {"--n-prompt", "-p"}),
            "bench: unknown flag '--n-promt' (did you mean '--n-prompt'?); not expected either: '64' (see rigbench "
            "bench --help)");
  EXPECT_EQ(unexpected_arguments_message("fit", {"b.gguf"}, {}),
            "fit: unexpected argument 'b.gguf' (see rigbench fit --help)");
  EXPECT_EQ(unexpected_arguments_message("fit", {"b.gguf", "-"}, {}),
            "fit: unexpected arguments 'b.gguf', '-' (see rigbench fit --help)");
  EXPECT_EQ(unexpected_arguments_message("", {"--frob"}, {}), "unknown flag '--frob' (see rigbench --help)");
}

// A user found `compare --alpha 2` told "not in range 0.000000 to 0.500000": the bounds as
// written instead.
TEST(Range, SaysTheValueAndTheBoundsAsWritten) {
  CLI::App app;
  double alpha = 0.05;
  app.add_option("--alpha", alpha)->check(range(1e-9, 0.5));
  EXPECT_NO_THROW(app.parse(std::vector<std::string>{"0.5", "--alpha"}));  // CLI11 takes the vector reversed
  EXPECT_EQ(alpha, 0.5);
  try {
    app.parse(std::vector<std::string>{"2", "--alpha"});
    ADD_FAILURE() << "2 was taken";
  } catch (const CLI::ValidationError& e) {
    EXPECT_EQ(std::string(e.what()), "--alpha: '2' is out of range [1e-09, 0.5]");
  }
  // Whole bounds in full (fit's -c takes up to 1 << 24; %g said 1.67772e+07).
  CLI::App fit;
  int n_ctx = 0;
  fit.add_option("-c", n_ctx)->check(int_range(0, 1 << 24));
  try {
    fit.parse(std::vector<std::string>{"16777217", "-c"});
    ADD_FAILURE() << "16777217 was taken";
  } catch (const CLI::ValidationError& e) {
    EXPECT_EQ(std::string(e.what()), "-c: '16777217' is out of range [0, 16777216]");
  }
  // An integer option says so, in the same shape ("is not a number" read as if 1.5 would do).
  for (const char* bad : {"1.5", "x"}) {
    try {
      fit.parse(std::vector<std::string>{bad, "-c"});
      ADD_FAILURE() << bad << " was taken";
    } catch (const CLI::ValidationError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("-c: '") + bad + "' is not an integer");
    }
  }
  try {
    app.parse(std::vector<std::string>{"x", "--alpha"});
    ADD_FAILURE() << "x was taken";
  } catch (const CLI::ValidationError& e) {
    EXPECT_EQ(std::string(e.what()), "--alpha: 'x' is not a number");
  }
}

// cost and report take --currency through one check.
TEST(Currency, OneToEightLettersElseAUsageErrorNamingTheValue) {
  EXPECT_TRUE(check_currency("EUR"));
  EXPECT_TRUE(check_currency("usd"));
  EXPECT_TRUE(check_currency("ABCDEFGH"));
  for (const char* bad : {"", "ABCDEFGHI", "EUR1", "€", "US D"}) {
    const Status s = check_currency(bad);
    ASSERT_FALSE(s) << bad;
    EXPECT_EQ(s.error().code, ErrorCode::kUsage);
    EXPECT_EQ(s.error().message, "--currency '" + std::string(bad) + "': expected 1 to 8 letters, e.g. EUR");
  }
}

}  // namespace
}  // namespace rigbench::cli
