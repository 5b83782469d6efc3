// measure/serve_trace: a request trace read from JSONL (times shifted to its first request,
// lengths), each bad line named by file:line, and its times scaled.
#include "measure/serve_trace.h"

#include <gtest/gtest.h>

#include <string>

#include "support/temp_dir.h"

namespace rigbench::measure {
namespace {

std::string write(const testing::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  testing::write_file(path, text);
  return path;
}

TEST(ReadTrace, TimesFromTheFirstRequestAndEachLinesLengths) {
  testing::TempDir dir;
  const std::string path = write(dir, "t.jsonl",
                                 "{\"arrival_s\": 100.5, \"input_tokens\": 12, \"output_tokens\": 3}\n"
                                 "\n"
                                 "{\"arrival_s\": 100.5, \"input_tokens\": 7, \"output_tokens\": 1}\n"
                                 "{\"arrival_s\": 102, \"input_tokens\": 300, \"output_tokens\": 64, \"hash\": 1}\n");
  const auto trace = read_trace(path);
  ASSERT_TRUE(trace) << trace.error().message;
  ASSERT_EQ(trace->size(), 3u);
  EXPECT_DOUBLE_EQ((*trace)[0].arrival_s, 0.0);
  EXPECT_DOUBLE_EQ((*trace)[1].arrival_s, 0.0);
  EXPECT_DOUBLE_EQ((*trace)[2].arrival_s, 1.5);
  EXPECT_EQ((*trace)[2].input_tokens, 300);
  EXPECT_EQ((*trace)[2].output_tokens, 64);
  const auto at = trace_arrivals(*trace, 3.0);  // three times the rate
  ASSERT_EQ(at.size(), 3u);
  EXPECT_DOUBLE_EQ(at[2], 0.5);
}

TEST(ReadTrace, ABadLineIsNamedByFileAndLine) {
  testing::TempDir dir;
  const std::string ok = "{\"arrival_s\": 1, \"input_tokens\": 2, \"output_tokens\": 3}\n";
  const struct {
    std::string second;
    std::string says;
  } cases[] = {
      {"not json\n", ":2: not a JSON object"},
      {"[1, 2, 3]\n", ":2: not a JSON object"},
      {"{\"input_tokens\": 2, \"output_tokens\": 3}\n", ":2: \"arrival_s\" is not a time"},
      {"{\"arrival_s\": -1, \"input_tokens\": 2, \"output_tokens\": 3}\n", ":2: \"arrival_s\" is not a time"},
      {"{\"arrival_s\": 2, \"input_tokens\": 0, \"output_tokens\": 3}\n", ":2: \"input_tokens\" is not a token count"},
      {"{\"arrival_s\": 2, \"input_tokens\": 2, \"output_tokens\": 1.5}\n", ":2: \"output_tokens\" is not a token count"},
      {"{\"arrival_s\": 0.5, \"input_tokens\": 2, \"output_tokens\": 3}\n", ":2: arrival_s 0.500 is before the line before's 1.000"},
  };
  for (const auto& c : cases) {
    const std::string path = write(dir, "bad.jsonl", ok + c.second);
    const auto trace = read_trace(path);
    ASSERT_FALSE(trace) << c.second;
    EXPECT_EQ(trace.error().code, ErrorCode::kUsage);
    EXPECT_NE(trace.error().message.find(path + c.says), std::string::npos) << trace.error().message;
  }
  const auto empty = read_trace(write(dir, "empty.jsonl", "\n"));
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no requests"), std::string::npos);
  const auto missing = read_trace(dir.file("none.jsonl"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kUsage);
  EXPECT_NE(missing.error().message.find("cannot open it"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::measure
