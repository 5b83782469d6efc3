// net/protocol: request bodies, API names, model lists and embeddings of the OpenAI and
// Ollama APIs (their stream readers: stream_reader_test.cpp).
#include "net/protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace rigbench::net {
namespace {

using nlohmann::json;

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
