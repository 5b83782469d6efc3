// net/stream_reader: the OpenAI and Ollama stream readers fed with answers shaped as
// llama-server, vLLM and Ollama send them, cut into chunks anywhere: what counts as a piece and
// as content (reasoning under either name), the outcome, Ollama's load and unload replies in
// both shapes, and llama-server's last timings snapshot.
#include "net/stream_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace rigbench::net {
namespace {

// Feeds `text` cut at `cut`; returns the pieces counted.
int feed_cut(StreamReader& r, const std::string& text, std::size_t cut) {
  int n = r.feed(std::string_view(text).substr(0, cut));
  n += r.feed(std::string_view(text).substr(cut));
  return n + r.finish();
}

// llama-server's /v1/chat/completions stream (role chunk, three tokens, finish, usage + timings, [DONE]).
const std::string kOpenAiChat =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Once\"},\"finish_reason\":null}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" upon\"},\"finish_reason\":null}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" a\"},\"finish_reason\":null}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"completion_tokens\":3,\"prompt_tokens\":12,\"total_tokens\":15},"
    "\"timings\":{\"prompt_n\":12,\"prompt_ms\":1.5,\"predicted_n\":3,\"predicted_ms\":6.0,"
    "\"predicted_per_second\":500.0}}\n\n"
    "data: [DONE]\n\n";

// Ollama's /api/generate stream (durations in ns).
const std::string kOllamaGenerate =
    "{\"model\":\"m\",\"created_at\":\"2026-11-30T00:00:00Z\",\"response\":\"Once\",\"done\":false}\n"
    "{\"model\":\"m\",\"created_at\":\"2026-11-30T00:00:00Z\",\"response\":\" upon\",\"done\":false}\n"
    "{\"model\":\"m\",\"created_at\":\"2026-11-30T00:00:00Z\",\"response\":\" a\",\"done\":false}\n"
    "{\"model\":\"m\",\"created_at\":\"2026-11-30T00:00:00Z\",\"response\":\"\",\"done\":true,"
    "\"done_reason\":\"length\",\"total_duration\":10000000,\"load_duration\":1000000,"
    "\"prompt_eval_count\":12,\"prompt_eval_duration\":1500000,\"eval_count\":3,\"eval_duration\":6000000}\n";

TEST(OpenAiStreamReader, LlamaServerChatStreamOnEverySplit) {
  for (std::size_t cut = 0; cut <= kOpenAiChat.size(); cut += 7) {
    auto r = make_stream_reader(Api::kOpenAiChat);
    EXPECT_EQ(feed_cut(*r, kOpenAiChat, cut), 3) << "cut at " << cut;
    EXPECT_TRUE(r->done());
    EXPECT_EQ(r->prompt_tokens(), 12);
    EXPECT_EQ(r->completion_tokens(), 3);
    EXPECT_EQ(r->timings().predicted_n, 3);
    EXPECT_DOUBLE_EQ(r->timings().predicted_ms, 6.0);
    EXPECT_DOUBLE_EQ(r->timings().predicted_per_second, 500.0);
    EXPECT_EQ(r->finish_reason(), "length");
    std::string msg;
    EXPECT_EQ(stream_outcome(*r, msg), ErrorKind::kNone);
  }
}

TEST(OpenAiStreamReader, WhatCountsAsAPieceAndWhatIsKept) {
  // A reasoning model's thinking counts where content is empty, null or missing; nested
  // fields (logprobs) and other keys are passed over; a non-string or empty text is no piece;
  // several choices count each; the last finish_reason and the text of each piece are kept.
  const std::string chat =
      "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hm\",\"content\":null}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"\",\"reasoning_content\":\"ok\"}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"A\",\"reasoning_content\":\"no\"},"
      "\"logprobs\":{\"content\":[{\"token\":\"A\",\"text\":\"x\",\"top\":[1,2,{\"text\":\"y\"}]}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":7}}],\"text\":\"top-level text is no piece\"}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"B\"}},{\"delta\":{\"content\":\"C\"},"
      "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":4.0,\"completion_tokens\":5}}\n\n"
      "data: [DONE]\n\n";
  auto r = make_stream_reader(Api::kOpenAiChat);
  r->keep_text(true);
  EXPECT_EQ(r->feed(chat), 5);
  EXPECT_EQ(r->text(), "hmokABC");
  EXPECT_EQ(r->finish_reason(), "stop");
  EXPECT_EQ(r->prompt_tokens(), 4);
  EXPECT_EQ(r->completion_tokens(), 5);
  EXPECT_FALSE(r->timings().present());
  std::string msg;
  EXPECT_EQ(stream_outcome(*r, msg), ErrorKind::kNone) << msg;

  const std::string completions =
      "data: {\"choices\":[{\"text\":\" one\",\"index\":0,\"delta\":{\"content\":\"no\"}}]}\n\n"
      "data: {\"choices\":[{\"text\":{\"not\":\"a string\"}},{\"text\":\"\"},\"two\",[\"three\"]]}\n\n"
      "data: {\"choices\":[],\"timings\":{\"prompt_n\":3,\"predicted_n\":1,\"predicted_ms\":2.5}}\n\n"
      "data: [DONE]\n\n";
  auto c = make_stream_reader(Api::kOpenAiCompletions);
  c->keep_text(true);
  EXPECT_EQ(c->feed(completions), 1);
  EXPECT_EQ(c->text(), " one");
  EXPECT_EQ(c->timings().prompt_n, 3);
  EXPECT_EQ(c->timings().predicted_n, 1);
  EXPECT_DOUBLE_EQ(c->timings().predicted_ms, 2.5);
  EXPECT_TRUE(std::isnan(c->timings().prompt_ms));  // not stated
  EXPECT_TRUE(c->done());

  // An event that is JSON but not an object, and an error after a piece: malformed, and the
  // error event's own pieces are not counted.
  auto arr = make_stream_reader(Api::kOpenAiCompletions);
  EXPECT_EQ(arr->feed("data: [1,2]\n\n"), 0);
  EXPECT_EQ(stream_outcome(*arr, msg), ErrorKind::kMalformed);
  auto err = make_stream_reader(Api::kOpenAiCompletions);
  EXPECT_EQ(err->feed("data: {\"choices\":[{\"text\":\"a\"}]}\n\n"
                      "data: {\"choices\":[{\"text\":\"b\"}],\"error\":\"overloaded\"}\n\n"),
            1);
  EXPECT_EQ(stream_outcome(*err, msg), ErrorKind::kMalformed);
  EXPECT_NE(msg.find("the server sent an error: overloaded"), std::string::npos) << msg;
}

TEST(OllamaStreamReader, GenerateStreamDurationsInNanosecondsOnEverySplit) {
  for (std::size_t cut = 0; cut <= kOllamaGenerate.size(); cut += 5) {
    auto r = make_stream_reader(Api::kOllamaGenerate);
    EXPECT_EQ(feed_cut(*r, kOllamaGenerate, cut), 3) << "cut at " << cut;
    EXPECT_TRUE(r->done());
    EXPECT_EQ(r->prompt_tokens(), 12);
    EXPECT_EQ(r->completion_tokens(), 3);
    EXPECT_DOUBLE_EQ(r->timings().prompt_ms, 1.5);
    EXPECT_DOUBLE_EQ(r->timings().predicted_ms, 6.0);
    EXPECT_DOUBLE_EQ(r->timings().load_ms, 1.0);
    EXPECT_DOUBLE_EQ(r->timings().total_ms, 10.0);
    EXPECT_DOUBLE_EQ(r->timings().predicted_per_second, 500.0);
  }
}

TEST(OllamaStreamReader, ChatMessagesCountTheirContent) {
  const std::string text =
      "{\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"done\":false}\n"
      "{\"message\":{\"role\":\"assistant\",\"content\":\"!\"},\"done\":false}\n"
      "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"eval_count\":2,\"eval_duration\":4000000}\n";
  auto r = make_stream_reader(Api::kOllamaChat);
  EXPECT_EQ(feed_cut(*r, text, 20), 2);
  EXPECT_TRUE(r->done());
  EXPECT_EQ(r->completion_tokens(), 2);
}

TEST(StreamOutcome, AStreamWithoutItsLastEventIsCut) {
  auto r = make_stream_reader(Api::kOpenAiChat);
  const std::string half = kOpenAiChat.substr(0, kOpenAiChat.find("finish_reason\":\"length"));
  r->feed(half);
  r->finish();
  std::string msg;
  EXPECT_EQ(stream_outcome(*r, msg), ErrorKind::kCut);
  auto o = make_stream_reader(Api::kOllamaGenerate);
  o->feed(kOllamaGenerate.substr(0, kOllamaGenerate.find("\"done\":true") - 20));
  o->finish();
  EXPECT_EQ(stream_outcome(*o, msg), ErrorKind::kCut);
}

TEST(StreamOutcome, NotJsonAnErrorEventOrANonStreamingAnswerIsMalformed) {
  std::string msg;
  auto bad = make_stream_reader(Api::kOpenAiChat);
  bad->feed("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\ndata: {not json\n\n");
  EXPECT_EQ(stream_outcome(*bad, msg), ErrorKind::kMalformed);
  auto err = make_stream_reader(Api::kOpenAiCompletions);
  err->feed("data: {\"error\":{\"message\":\"context full\"}}\n\n");
  EXPECT_EQ(stream_outcome(*err, msg), ErrorKind::kMalformed);
  EXPECT_NE(msg.find("context full"), std::string::npos);
  auto whole = make_stream_reader(Api::kOpenAiChat);
  whole->feed("{\"choices\":[{\"message\":{\"content\":\"all at once\"}}]}");
  whole->finish();
  EXPECT_EQ(stream_outcome(*whole, msg), ErrorKind::kMalformed);
  EXPECT_NE(msg.find("does the server stream"), std::string::npos);
  auto ollama = make_stream_reader(Api::kOllamaGenerate);
  ollama->feed("{\"response\":\"a\",\"done\":false}\n<html>\n");
  EXPECT_EQ(stream_outcome(*ollama, msg), ErrorKind::kMalformed);
}

// "openai" named the chat API while detection picked completions: the same server was
// measured two ways depending on whether --api was given. vLLM's --backend openai is completions.
TEST(StreamReaderReasoning, VllmReasoningAndLlamaServerReasoningContentAreOutputNotContent) {
  for (const char* key : {"reasoning", "reasoning_content"}) {
    const std::string k = key;
    const std::string chat = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
                             "data: {\"choices\":[{\"delta\":{\"" + k + "\":\"Let\"}}]}\n\n"
                             "data: {\"choices\":[{\"delta\":{\"content\":null,\"" + k + "\":\" me\"}}]}\n\n"
                             "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                             "data: [DONE]\n\n";
    for (std::size_t cut = 0; cut <= chat.size(); cut += 11) {
      auto r = make_stream_reader(Api::kOpenAiChat);
      EXPECT_EQ(feed_cut(*r, chat, cut), 3) << key << " cut at " << cut;
      EXPECT_EQ(r->content_pieces(), 1) << key;
      EXPECT_TRUE(r->done());
    }
  }
  // Both names in one delta (a proxy passing both): one piece, the first non-empty text.
  auto both = make_stream_reader(Api::kOpenAiChat);
  both->keep_text(true);
  EXPECT_EQ(both->feed("data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"a\",\"reasoning\":\"a\"}}]}\n\n"
                       "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"\",\"reasoning\":\"b\"}}]}\n\n"),
            2);
  EXPECT_EQ(both->text(), "ab");
  EXPECT_EQ(both->content_pieces(), 0);
  // Completions' text is content.
  auto c = make_stream_reader(Api::kOpenAiCompletions);
  EXPECT_EQ(c->feed("data: {\"choices\":[{\"text\":\" one\"}]}\n\n"), 1);
  EXPECT_EQ(c->content_pieces(), 1);
}

TEST(StreamReaderReasoning, OllamaThinkingIsOutputNotContent) {
  const std::string chat =
      "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"thinking\":\"hm\"},\"done\":false}\n"
      "{\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"done\":false}\n"
      "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\"}\n";
  auto r = make_stream_reader(Api::kOllamaChat);
  EXPECT_EQ(r->feed(chat), 2);
  EXPECT_EQ(r->content_pieces(), 1);
  EXPECT_EQ(r->model_event(), "");
  auto g = make_stream_reader(Api::kOllamaGenerate);
  EXPECT_EQ(g->feed("{\"response\":\"\",\"thinking\":\"hm\",\"done\":false}\n{\"response\":\"A\",\"done\":false}\n"), 2);
  EXPECT_EQ(g->content_pieces(), 1);
}

// Ollama answers a load (or unload) request with one object even when streaming; `ollama ps`
// and some proxies print it over several lines.
TEST(StreamReaderOllamaLoadReplies, OneLineAndPrettyPrintedOnEverySplit) {
  const std::string one = "{\"model\":\"m\",\"created_at\":\"2026-12-02T08:00:00Z\",\"response\":\"\",\"done\":true,"
                          "\"done_reason\":\"load\"}\n";
  const std::string pretty =
      "{\n  \"model\": \"m\",\n  \"message\": {\n    \"role\": \"assistant\",\n    \"content\": \"\"\n  },\n"
      "  \"done_reason\": \"unload\",\n  \"done\": true\n}\n";
  for (std::size_t cut = 0; cut <= pretty.size(); ++cut) {
    auto r = make_stream_reader(Api::kOllamaChat);
    EXPECT_EQ(feed_cut(*r, pretty, cut), 0);
    std::string msg;
    ASSERT_EQ(stream_outcome(*r, msg), ErrorKind::kNone) << "cut at " << cut << ": " << msg;
    EXPECT_EQ(r->model_event(), "unload");
  }
  // Without its last '\n' too.
  auto last = make_stream_reader(Api::kOllamaChat);
  EXPECT_EQ(last->feed(pretty.substr(0, pretty.size() - 1)), 0);
  last->finish();
  EXPECT_EQ(last->model_event(), "unload");
  EXPECT_TRUE(last->done());
  auto r = make_stream_reader(Api::kOllamaGenerate);
  EXPECT_EQ(r->feed(one), 0);
  EXPECT_EQ(r->model_event(), "load");
  EXPECT_EQ(r->finish_reason(), "load");
  EXPECT_FALSE(r->prompt_tokens().has_value());  // none reported: unknown, not 0
}

TEST(StreamReaderOllamaLoadReplies, LinesThatNeverCloseAnObjectAreMalformed) {
  std::string msg;
  // A broken line, then the stream ends.
  auto broken = make_stream_reader(Api::kOllamaGenerate);
  EXPECT_EQ(broken->feed("{\"response\":\"a\",\"done\":false}\n{\"response\": \"broken\n"), 1);
  broken->finish();
  EXPECT_EQ(stream_outcome(*broken, msg), ErrorKind::kMalformed);
  EXPECT_NE(msg.find("a line that is not JSON"), std::string::npos) << msg;
  // A broken line, then whole objects: the broken line is the fault, seen at the next object.
  auto then = make_stream_reader(Api::kOllamaGenerate);
  EXPECT_EQ(then->feed("{\"response\": \"broken\n{\"response\":\"a\",\"done\":false}\n"), 0);
  EXPECT_EQ(stream_outcome(*then, msg), ErrorKind::kMalformed);
  // A line that is not JSON and does not begin an object: malformed at once, as before.
  auto html = make_stream_reader(Api::kOllamaGenerate);
  html->feed("<html>\n");
  EXPECT_EQ(html->error(), ErrorKind::kMalformed);
  // A stream cut inside a one-line object is cut, not malformed.
  auto cut = make_stream_reader(Api::kOllamaGenerate);
  cut->feed("{\"response\":\"a\",\"done\":false}\n{\"respo");
  cut->finish();
  EXPECT_EQ(stream_outcome(*cut, msg), ErrorKind::kCut);
}

// llama-server's timings: every field of the last snapshot, the cache's share included.
TEST(StreamReaderTimings, LlamaServerLastSnapshotWithCacheAndDraftCounts) {
  const std::string s =
      "data: {\"choices\":[{\"text\":\"a\"}],\"timings\":{\"prompt_n\":1,\"predicted_n\":1,\"predicted_ms\":1.0}}\n\n"
      "data: {\"choices\":[],\"timings\":{\"cache_n\":96593,\"prompt_n\":459,\"prompt_ms\":812.5,"
      "\"prompt_per_second\":564.9,\"predicted_n\":8,\"predicted_ms\":100.0,\"predicted_per_second\":80.0,"
      "\"draft_n\":6,\"draft_n_accepted\":4}}\n\n"
      "data: [DONE]\n\n";
  auto r = make_stream_reader(Api::kOpenAiCompletions);
  EXPECT_EQ(r->feed(s), 1);
  const ServerTimings& t = r->timings();
  EXPECT_EQ(t.cache_n, 96593);
  EXPECT_EQ(t.prompt_n, 459);
  EXPECT_DOUBLE_EQ(t.prompt_ms, 812.5);
  EXPECT_DOUBLE_EQ(t.prompt_per_second, 564.9);
  EXPECT_EQ(t.predicted_n, 8);
  EXPECT_DOUBLE_EQ(t.predicted_per_second, 80.0);
  EXPECT_EQ(t.draft_n, 6);
  EXPECT_EQ(t.draft_n_accepted, 4);
}

// llama-server ends a stream whose text its chat output parser refuses (invalid UTF-8 from a
// synthetic model's random tokens): said as the model's output refused, in one line.
TEST(StreamReaderErrors, AServerThatRefusesTheModelsOutputIsSaidSo) {
  auto r = make_stream_reader(Api::kOpenAiCompletions);
  EXPECT_EQ(r->feed("data: {\"choices\":[{\"text\":\"IN\"}]}\n\n"
                    "data: {\"error\":{\"code\":500,\"message\":\"The model produced output that does not match "
                    "the expected Content-only format\",\"type\":\"server_error\"}}\n\n"),
            1);
  std::string msg;
  EXPECT_EQ(stream_outcome(*r, msg), ErrorKind::kMalformed);
  EXPECT_EQ(msg.rfind("the server refused the model's output (its chat output parser: \"The model produced", 0), 0u)
      << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace rigbench::net
