// net/line_framing: lines, SSE events and NDJSON objects come out the same however the bytes
// are cut into chunks (every split point of the stream is tried).
#include "net/line_framing.h"

#include <gtest/gtest.h>

namespace rigbench::net {
namespace {

// Feeds `text` as two chunks cut at `cut`, then as one byte per chunk.
template <typename Decoder, typename Out>
std::vector<Out> feed_cut(const std::string& text, std::size_t cut) {
  Decoder d;
  std::vector<Out> out;
  for (auto& x : d.feed(std::string_view(text).substr(0, cut))) out.push_back(x);
  for (auto& x : d.feed(std::string_view(text).substr(cut))) out.push_back(x);
  return out;
}

TEST(LineSplitter, EveryLineEndAndEverySplitPoint) {
  const std::string text = "one\ntwo\r\nthree\rfour\r\n\nsix";
  const std::vector<std::string> want = {"one", "two", "three", "four", ""};
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    LineSplitter s;
    auto lines = s.feed(std::string_view(text).substr(0, cut));
    for (auto& l : s.feed(std::string_view(text).substr(cut))) lines.push_back(l);
    EXPECT_EQ(lines, want) << "cut at " << cut;
    EXPECT_EQ(s.rest(), "six");
  }
  LineSplitter bytes;
  std::vector<std::string> lines;
  for (char c : text) {
    for (auto& l : bytes.feed(std::string_view(&c, 1))) lines.push_back(l);
  }
  EXPECT_EQ(lines, want);
}

TEST(SseDecoder, DataLinesCommentsAndBlankLinesOnSplitChunks) {
  const std::string text =
      ": keep-alive\n\n"
      "data: {\"a\":1}\n\n"
      "event: update\r\ndata: line1\r\ndata: line2\r\n\r\n"
      "data:[DONE]\n\n";
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    const auto events = feed_cut<SseDecoder, SseEvent>(text, cut);
    ASSERT_EQ(events.size(), 3u) << "cut at " << cut;
    EXPECT_EQ(events[0].data, "{\"a\":1}");
    EXPECT_EQ(events[1].event, "update");
    EXPECT_EQ(events[1].data, "line1\nline2");
    EXPECT_EQ(events[2].data, "[DONE]");
  }
}

TEST(SseDecoder, LastEventWithoutBlankLineComesFromFinish) {
  SseDecoder d;
  EXPECT_TRUE(d.feed("data: x\n\ndata: y").size() == 1);
  EXPECT_EQ(d.finish().data, "y");
  EXPECT_EQ(d.unknown_lines(), 0);
}

TEST(SseDecoder, ABodyThatIsNotSseCountsUnknownLines) {
  SseDecoder d;
  EXPECT_TRUE(d.feed("{\"choices\": []}\n").empty());
  EXPECT_EQ(d.unknown_lines(), 1);
}

TEST(NdjsonDecoder, ObjectsOnSplitChunksAndTheUnterminatedLast) {
  const std::string text = "{\"response\":\"a\"}\n\n{\"response\":\"b\"}\r\n{\"done\":true}";
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    NdjsonDecoder d;
    auto lines = d.feed(std::string_view(text).substr(0, cut));
    for (auto& l : d.feed(std::string_view(text).substr(cut))) lines.push_back(l);
    ASSERT_EQ(lines.size(), 2u) << "cut at " << cut;
    EXPECT_EQ(lines[1], "{\"response\":\"b\"}");
    EXPECT_EQ(d.finish(), "{\"done\":true}");
  }
}

}  // namespace
}  // namespace rigbench::net
