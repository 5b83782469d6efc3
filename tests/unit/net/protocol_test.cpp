// net/protocol: request bodies and stream readers of the OpenAI and Ollama APIs, fed with
// answers shaped as llama-server and Ollama send them, cut into chunks anywhere.
#include "net/protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace rigbench::net {
namespace {

using nlohmann::json;

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
TEST(ApiNames, TheOpenAiFamilyIsCompletionsAsDetectedAndAsVllmNamesIt) {
  EXPECT_EQ(parse_api("openai"), Api::kOpenAiCompletions);
  EXPECT_EQ(parse_api("openai-completions"), Api::kOpenAiCompletions);
  EXPECT_EQ(parse_api("openai-chat"), Api::kOpenAiChat);
  EXPECT_EQ(parse_api("ollama"), Api::kOllamaGenerate);
  EXPECT_EQ(parse_api("ollama-chat"), Api::kOllamaChat);
  EXPECT_EQ(parse_api("grpc"), std::nullopt);
  for (Api api : {Api::kOpenAiChat, Api::kOpenAiCompletions, Api::kOllamaGenerate, Api::kOllamaChat}) {
    EXPECT_EQ(parse_api(api_name(api)), api) << api_name(api);
  }
}

TEST(RequestBody, AsksForExactLengthWhereTheApiCan) {
  GenerationRequest req{"m", "hello", {}, 64, true};
  const json chat = json::parse(request_body(Api::kOpenAiChat, req));
  EXPECT_EQ(chat["stream"], true);
  EXPECT_EQ(chat["max_tokens"], 64);
  EXPECT_EQ(chat["ignore_eos"], true);
  EXPECT_EQ(chat["min_tokens"], 64);
  EXPECT_EQ(chat["stream_options"]["include_usage"], true);
  EXPECT_EQ(chat["messages"][0]["content"], "hello");
  req.prompt_tokens = {1, 2, 3};
  const json comp = json::parse(request_body(Api::kOpenAiCompletions, req));
  EXPECT_EQ(comp["prompt"], json::array({1, 2, 3}));
  const json gen = json::parse(request_body(Api::kOllamaGenerate, req));
  EXPECT_EQ(gen["options"]["num_predict"], 64);
  EXPECT_EQ(gen["prompt"], "hello");
  const json ochat = json::parse(request_body(Api::kOllamaChat, req));
  EXPECT_EQ(ochat["messages"][0]["role"], "user");
}

TEST(ModelList, OpenAiIdsAndOllamaNames) {
  EXPECT_EQ(*parse_model_list(R"({"object":"list","data":[{"id":"a"},{"id":"b"}]})", false),
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*parse_model_list(R"({"models":[{"name":"llama3:latest"}]})", true),
            (std::vector<std::string>{"llama3:latest"}));
  EXPECT_FALSE(parse_model_list("[]", false));
}

TEST(ChooseModel, TheLoadedOneOrTheNamedOneElseAListing) {
  const Url url = *parse_url("http://127.0.0.1:1");
  ServerInfo one{"openai", "", "", {"stories"}, {"stories"}};
  EXPECT_EQ(*choose_model(one, "", url), "stories");
  ServerInfo ollama{"ollama", "0.5.1", "ollama", {"llama3:latest", "qwen:7b"}, {}};
  EXPECT_EQ(*choose_model(ollama, "llama3", url), "llama3:latest");
  auto missing = choose_model(ollama, "mistral", url);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("llama3:latest, qwen:7b"), std::string::npos);
  EXPECT_NE(missing.error().message.find("http://127.0.0.1:1"), std::string::npos);
  EXPECT_FALSE(choose_model(ollama, "", url));
}

TEST(Embeddings, BodiesAndReplies) {
  EXPECT_EQ(json::parse(embedding_body(true, "m", {"a"}))["input"], json::array({"a"}));
  auto o = parse_embedding_reply(true, R"({"embeddings":[[0.1,0.2,0.3]],"prompt_eval_count":2})");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->dimension, 3);
  EXPECT_EQ(o->prompt_tokens, 2);
  auto a = parse_embedding_reply(false, R"({"data":[{"embedding":[1,2]},{"embedding":[3,4]}],"usage":{"prompt_tokens":4}})");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->count, 2);
  EXPECT_EQ(a->dimension, 2);
}

}  // namespace
}  // namespace rigbench::net
