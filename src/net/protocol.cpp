#include "net/protocol.h"

#include <nlohmann/json.hpp>

#include "net/json_fields.h"

namespace rigbench::net {

using nlohmann::json;

const char* api_name(Api api) {
  switch (api) {
    case Api::kOpenAiChat: return "openai-chat";
    case Api::kOpenAiCompletions: return "openai-completions";
    case Api::kOllamaGenerate: return "ollama-generate";
    case Api::kOllamaChat: return "ollama-chat";
  }
  return "";
}

std::optional<Api> parse_api(std::string_view name) {
  // "openai" is the completions API, as vLLM's `bench serve --backend openai` and this
  // client's detection take it; the chat API is named in full.
  if (name == "openai" || name == "openai-completions") return Api::kOpenAiCompletions;
  if (name == "openai-chat") return Api::kOpenAiChat;
  if (name == "ollama" || name == "ollama-generate") return Api::kOllamaGenerate;
  if (name == "ollama-chat") return Api::kOllamaChat;
  return std::nullopt;
}

bool is_ollama(Api api) { return api == Api::kOllamaGenerate || api == Api::kOllamaChat; }

const char* generation_path(Api api) {
  switch (api) {
    case Api::kOpenAiChat: return "/v1/chat/completions";
    case Api::kOpenAiCompletions: return "/v1/completions";
    case Api::kOllamaGenerate: return "/api/generate";
    case Api::kOllamaChat: return "/api/chat";
  }
  return "";
}

const char* ping_path(Api api) { return is_ollama(api) ? "/api/version" : "/v1/models"; }

std::string request_body(Api api, const GenerationRequest& r) {
  json body;
  body["model"] = r.model;
  body["stream"] = true;
  if (is_ollama(api)) {
    if (api == Api::kOllamaChat) {
      body["messages"] = json::array({{{"role", "user"}, {"content", r.prompt}}});
    } else {
      body["prompt"] = r.prompt;
      body["raw"] = true;  // no template: the prompt as given
    }
    body["options"] = {{"num_predict", r.max_tokens}, {"temperature", 0}};
    return body.dump();
  }
  if (api == Api::kOpenAiChat) {
    body["messages"] = json::array({{{"role", "user"}, {"content", r.prompt}}});
  } else if (!r.prompt_tokens.empty()) {
    body["prompt"] = r.prompt_tokens;
  } else {
    body["prompt"] = r.prompt;
  }
  body["max_tokens"] = r.max_tokens;
  body["temperature"] = 0;
  body["stream_options"] = {{"include_usage", true}};
  if (r.ignore_eos) {
    body["ignore_eos"] = true;          // llama-server, vLLM
    body["min_tokens"] = r.max_tokens;  // vLLM
  }
  return body.dump();
}

Result<std::vector<std::string>> parse_model_list(std::string_view body, bool ollama) {
  const json j = json::parse(body, nullptr, false);
  const char* key = ollama ? "models" : "data";
  if (j.is_discarded() || !j.is_object() || !j.contains(key) || !j[key].is_array()) {
    return fail(ErrorCode::kInvalidInput, std::string("the model list has no '") + key + "' array");
  }
  std::vector<std::string> names;
  for (const auto& m : j[key]) {
    const char* field = ollama ? "name" : "id";
    if (m.is_object() && m.contains(field) && m[field].is_string()) names.push_back(m[field].get<std::string>());
  }
  return names;
}

namespace {

std::string version_from_json(std::string_view body, const char* key) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_object() && j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return "";
}

Status reachable(const HttpReply& r, const Url& url) {
  if (r.error == ErrorKind::kRefused || r.error == ErrorKind::kTimeout) {
    return fail(ErrorCode::kRuntime, url.redacted() + ": " + r.message);
  }
  if (r.status == 401 || r.status == 403) {
    return fail(ErrorCode::kRuntime, url.redacted() + ": HTTP " + std::to_string(r.status) +
                                         ", the server wants an API key; give --api-key or set OPENAI_API_KEY");
  }
  return {};
}

}  // namespace

Result<ServerInfo> probe_server(HttpClient& client, const Url& url, std::optional<Api> forced) {
  ServerInfo info;
  const bool try_ollama = !forced || is_ollama(*forced);
  const bool try_openai = !forced || !is_ollama(*forced);
  if (try_ollama) {
    const HttpReply v = client.get("/api/version");
    if (auto s = reachable(v, url); !s) return std::unexpected(s.error());
    const std::string version = v.ok() ? version_from_json(v.body, "version") : "";
    if (v.ok() && !version.empty()) {
      info.api_family = "ollama";
      info.software = "ollama";
      info.version = version;
      const HttpReply tags = client.get("/api/tags");
      if (tags.ok()) {
        if (auto names = parse_model_list(tags.body, true)) info.models = *names;
      }
      const HttpReply ps = client.get("/api/ps");
      if (ps.ok()) {
        if (auto names = parse_model_list(ps.body, true)) info.loaded = *names;
      }
      return info;
    }
  }
  if (try_openai) {
    const HttpReply m = client.get("/v1/models");
    if (auto s = reachable(m, url); !s) return std::unexpected(s.error());
    if (m.ok()) {
      auto names = parse_model_list(m.body, false);
      if (!names) {
        return fail(ErrorCode::kRuntime,
                    url.redacted() + "/v1/models: not an OpenAI model list (" + names.error().message + ")");
      }
      info.api_family = "openai";
      info.models = *names;
      info.loaded = *names;
      // llama-server states its build in /props; vLLM its version in /version.
      const HttpReply props = client.get("/props");
      if (props.ok()) {
        const json j = json::parse(props.body, nullptr, false);
        if (j.is_object() && j.contains("build_info") && j["build_info"].is_string()) {
          info.software = "llama.cpp";
          info.version = j["build_info"].get<std::string>();
          if (j.contains("model_path") && j["model_path"].is_string() && j["model_path"] != "none")
            info.model_path = j["model_path"].get<std::string>();
        }
      }
      if (info.version.empty()) {
        const HttpReply ver = client.get("/version");
        if (ver.ok()) info.version = version_from_json(ver.body, "version");
      }
      return info;
    }
  }
  std::string what = forced ? std::string("does not answer the ") + (is_ollama(*forced) ? "Ollama" : "OpenAI") +
                                  " API (" + (is_ollama(*forced) ? "/api/version" : "/v1/models") + ")"
                            : "answers neither Ollama's /api/version nor OpenAI's /v1/models";
  return fail(ErrorCode::kRuntime, url.redacted() + ": " + what + "; is it an LLM server?");
}

Result<std::string> choose_model(const ServerInfo& info, const std::string& wanted, const Url& url) {
  const auto listing = [&] {
    std::string all;
    for (const auto& m : info.models) all += (all.empty() ? "" : ", ") + m;
    return all.empty() ? std::string("none") : all;
  };
  if (!wanted.empty()) {
    if (info.models.empty()) return wanted;
    for (const auto& m : info.models) {
      if (m == wanted) return wanted;
    }
    // Ollama's names carry a tag; "llama3" means "llama3:latest".
    for (const auto& m : info.models) {
      if (m == wanted + ":latest") return m;
    }
    return fail(ErrorCode::kRuntime,
                url.redacted() + ": no model '" + wanted + "' on the server; it has: " + listing());
  }
  if (info.loaded.size() == 1) return info.loaded.front();
  if (info.loaded.empty() && info.models.size() == 1) return info.models.front();
  if (info.models.empty()) return fail(ErrorCode::kRuntime, url.redacted() + ": the server lists no model");
  return fail(ErrorCode::kUsage,
              url.redacted() + ": the server has several models; choose one with --model: " + listing());
}

Result<std::vector<int>> tokenize(HttpClient& client, const std::string& text) {
  const HttpReply r = client.post("/tokenize", json{{"content", text}, {"add_special", false}}.dump());
  if (!r.ok()) return fail(ErrorCode::kRuntime, "/tokenize: " + r.message);
  const json j = json::parse(r.body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("tokens") || !j["tokens"].is_array()) {
    return fail(ErrorCode::kRuntime, "/tokenize: the answer has no 'tokens' array");
  }
  std::vector<int> ids;
  for (const auto& t : j["tokens"]) {
    if (t.is_number_integer()) {
      ids.push_back(t.get<int>());
    } else if (t.is_object() && t.contains("id")) {
      ids.push_back(t["id"].get<int>());
    }
  }
  return ids;
}

std::string without_secret(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
    text.replace(at, secret.size(), "***");
  }
  return text;
}

const char* embedding_path(bool ollama) { return ollama ? "/api/embed" : "/v1/embeddings"; }

std::string embedding_body(bool ollama, const std::string& model, const std::vector<std::string>& inputs) {
  json body = {{"model", model}, {"input", inputs}};
  if (!ollama) body["encoding_format"] = "float";
  return body.dump();
}

Result<EmbeddingReply> parse_embedding_reply(bool ollama, std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail(ErrorCode::kInvalidInput, "the embedding answer is not JSON");
  EmbeddingReply r;
  if (ollama) {
    if (!j.contains("embeddings") || !j["embeddings"].is_array()) {
      return fail(ErrorCode::kInvalidInput, "the embedding answer has no 'embeddings' array");
    }
    for (const auto& v : j["embeddings"]) {
      ++r.count;
      if (v.is_array()) r.dimension = static_cast<int>(v.size());
    }
    if (auto n = int_field(j, "prompt_eval_count")) r.prompt_tokens = n;
  } else {
    if (!j.contains("data") || !j["data"].is_array()) {
      return fail(ErrorCode::kInvalidInput, "the embedding answer has no 'data' array");
    }
    for (const auto& d : j["data"]) {
      ++r.count;
      if (d.is_object() && d.contains("embedding") && d["embedding"].is_array()) {
        r.dimension = static_cast<int>(d["embedding"].size());
      }
    }
    if (j.contains("usage") && j["usage"].is_object()) r.prompt_tokens = int_field(j["usage"], "prompt_tokens");
  }
  return r;
}

}  // namespace rigbench::net
