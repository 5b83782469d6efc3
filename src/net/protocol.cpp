#include "net/protocol.h"

#include <nlohmann/json.hpp>

#include "net/line_framing.h"

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

namespace {

std::optional<int> int_field(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<int>();
}

double number_field(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return kNoValue;
  return it->get<double>();
}

std::string error_text(const json& e) {
  if (e.is_string()) return e.get<std::string>();
  if (e.is_object() && e.contains("message") && e["message"].is_string()) return e["message"].get<std::string>();
  return e.dump();
}

// What one OpenAI stream event holds that the reader keeps, read with nlohmann's SAX interface
// as the parser goes, without building the event's DOM (one event a token: serve-bench's
// client parses thousands a second). The same reading as a DOM would give: each choice's
// text (completions: "text"; chat: delta.content, else delta.reasoning_content where content
// is missing, not a string or empty) is a piece when a non-empty string; finish_reason,
// usage's counts and llama-server's timings; whether the event is an object and has "error".
class OpenAiEvent {
 public:
  using json = nlohmann::json;
  explicit OpenAiEvent(bool chat) : chat_(chat) {}
  // Ready for the next event (its buffers keep their capacity: no allocation per event).
  void reset(bool keep_text) {
    keep_text_ = keep_text;
    object = has_error = has_timings = false;
    pieces = 0;
    text.clear();
    finish_reason.reset();
    prompt_tokens.reset();
    completion_tokens.reset();
    timings = ServerTimings{};
    stack_.clear();
    key_.clear();
  }

  bool object = false;     // the event is a JSON object
  bool has_error = false;  // it has a top-level "error" (its text: read from a DOM, rarely)
  int pieces = 0;
  std::string text;  // the pieces joined (keep_text)
  std::optional<std::string> finish_reason;
  std::optional<int> prompt_tokens, completion_tokens;
  bool has_timings = false;
  ServerTimings timings;  // prompt_n / predicted_n: -1 unless stated; the ms figures NaN unless stated

  // nlohmann::json_sax's interface.
  bool null() { return value(nullptr, false); }
  bool boolean(bool) { return value(nullptr, false); }
  bool number_integer(json::number_integer_t v) { return value(nullptr, true, static_cast<double>(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(nullptr, true, static_cast<double>(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return value(nullptr, true, v); }
  bool string(json::string_t& v) { return value(&v, false); }
  bool binary(json::binary_t&) { return value(nullptr, false); }
  bool start_object(std::size_t) {
    Where next = Where::kOther;
    if (stack_.empty()) {
      object = true;
      next = Where::kTop;
    } else if (in(Where::kChoices)) {
      next = Where::kChoice;
      choice_ = Choice{};
    } else if (in(Where::kTop) && key_ == "usage") {
      next = Where::kUsage;
    } else if (in(Where::kTop) && key_ == "timings") {
      next = Where::kTimings;
      has_timings = true;
      timings.prompt_ms = timings.predicted_ms = timings.predicted_per_second = kNoValue;
    } else if (chat_ && in(Where::kChoice) && key_ == "delta") {
      next = Where::kDelta;
      choice_.delta = true;
      choice_.content = choice_.reasoning = Text{};
    } else {
      container_value();
    }
    stack_.push_back(next);
    return true;
  }
  bool end_object() {
    if (in(Where::kChoice)) end_choice();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    Where next = Where::kOther;
    if (in(Where::kTop) && key_ == "choices") next = Where::kChoices;
    else container_value();
    stack_.push_back(next);
    return true;
  }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool key(json::string_t& k) {
    key_.assign(k);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  enum class Where { kTop, kChoices, kChoice, kDelta, kUsage, kTimings, kOther };
  struct Text {
    bool present = false;
    bool is_string = false;
    std::string value;
  };
  struct Choice {
    Text text;  // completions' "text"
    bool delta = false;
    Text content, reasoning;  // chat's delta
  };

  bool in(Where w) const { return !stack_.empty() && stack_.back() == w; }

  static void set(Text& t, const json::string_t* s) {
    t.present = true;
    t.is_string = s != nullptr;
    if (s != nullptr) t.value.assign(*s);
  }

  // An object or array as the value of the current key: where a text or an error is expected,
  // it is a value that is not a string.
  void container_value() { value(nullptr, false); }

  // A value (`s`: a string's, else nullptr; `number`: a number's, as `v`) under the current key.
  bool value(const json::string_t* s, bool number, double v = 0) {
    if (stack_.empty()) return true;  // the event is a bare value: not an object
    switch (stack_.back()) {
      case Where::kTop:
        if (key_ == "error") has_error = true;
        break;
      case Where::kChoice:
        if (!chat_ && key_ == "text") set(choice_.text, s);
        else if (key_ == "finish_reason" && s != nullptr) finish_reason = *s;
        break;
      case Where::kDelta:
        if (key_ == "content") set(choice_.content, s);
        else if (key_ == "reasoning_content") set(choice_.reasoning, s);
        break;
      case Where::kUsage:
        if (number && key_ == "prompt_tokens") prompt_tokens = static_cast<int>(v);
        else if (number && key_ == "completion_tokens") completion_tokens = static_cast<int>(v);
        break;
      case Where::kTimings:
        if (!number) break;
        if (key_ == "prompt_n") timings.prompt_n = static_cast<int>(v);
        else if (key_ == "predicted_n") timings.predicted_n = static_cast<int>(v);
        else if (key_ == "prompt_ms") timings.prompt_ms = v;
        else if (key_ == "predicted_ms") timings.predicted_ms = v;
        else if (key_ == "predicted_per_second") timings.predicted_per_second = v;
        break;
      case Where::kChoices:
      case Where::kOther:
        break;
    }
    return true;
  }

  void end_choice() {
    const Text* t = nullptr;
    if (!chat_) {
      if (choice_.text.present) t = &choice_.text;
    } else if (choice_.delta) {
      if (choice_.content.present) t = &choice_.content;
      if ((t == nullptr || !t->is_string || t->value.empty()) && choice_.reasoning.present) t = &choice_.reasoning;
    }
    if (t != nullptr && t->is_string && !t->value.empty()) {
      ++pieces;
      if (keep_text_) text += t->value;
    }
  }

  bool chat_;
  bool keep_text_ = false;
  std::vector<Where> stack_;
  std::string key_;  // the last key read
  Choice choice_;    // the choice being read
};

// OpenAI's SSE stream: `data: {chunk}` events, then `data: [DONE]`.
class OpenAiReader final : public StreamReader {
 public:
  explicit OpenAiReader(bool chat) : event_(chat) {}
  int feed(std::string_view chunk) override {
    int n = 0;
    sse_.each_event(chunk, [&](const SseEvent& e) { n += take(e); });
    if (sse_.unknown_lines() > 0 && pieces_ == 0 && !done_) {
      malformed("the answer is not a stream of server-sent events (does the server stream?)");
    }
    return n;
  }
  int finish() override {
    // An event without its blank line: taken when whole; a piece of one is what a cut leaves
    // (the outcome is then kCut, not kMalformed).
    const SseEvent last = sse_.finish();
    const bool whole = last.data == "[DONE]" || !json::parse(last.data, nullptr, false).is_discarded();
    int n = last.data.empty() || !whole ? 0 : take(last);
    if (sse_.unknown_lines() > 0 && pieces_ == 0 && !done_) {
      malformed("the answer is not a stream of server-sent events (does the server stream?)");
    }
    return n;
  }

 private:
  int take(const SseEvent& e) {
    if (done_ || error_ != ErrorKind::kNone) return 0;
    if (e.data == "[DONE]") {
      done_ = true;
      return 0;
    }
    OpenAiEvent& event = event_;
    event.reset(keep_text_);
    if (!json::sax_parse(e.data, &event) || !event.object) {
      malformed("an event that is not JSON: " + e.data.substr(0, 80));
      return 0;
    }
    if (event.has_error) {
      const json j = json::parse(e.data, nullptr, false);
      malformed("the server sent an error: " + error_text(j["error"]));
      return 0;
    }
    if (keep_text_) text_ += event.text;
    if (event.finish_reason) finish_reason_ = *event.finish_reason;
    if (event.prompt_tokens) prompt_tokens_ = event.prompt_tokens;
    if (event.completion_tokens) completion_tokens_ = event.completion_tokens;
    if (event.has_timings) {  // llama-server
      if (event.timings.prompt_n >= 0) timings_.prompt_n = event.timings.prompt_n;
      if (event.timings.predicted_n >= 0) timings_.predicted_n = event.timings.predicted_n;
      timings_.prompt_ms = event.timings.prompt_ms;
      timings_.predicted_ms = event.timings.predicted_ms;
      timings_.predicted_per_second = event.timings.predicted_per_second;
    }
    pieces_ += event.pieces;
    return event.pieces;
  }
  OpenAiEvent event_;  // the event being read, reused
  SseDecoder sse_;
};

// Ollama's NDJSON stream: one object per token, the last with "done": true and the durations.
class OllamaReader final : public StreamReader {
 public:
  explicit OllamaReader(bool chat) : chat_(chat) {}
  int feed(std::string_view chunk) override {
    int n = 0;
    lines_.each_line(chunk, [&](std::string_view line) { n += take(line); });
    return n;
  }
  int finish() override {
    // A last line without its '\n': taken when whole JSON; a piece of one is what a cut leaves.
    const std::string last = lines_.finish();
    return last.empty() || json::parse(last, nullptr, false).is_discarded() ? 0 : take(last);
  }

 private:
  int take(std::string_view line) {
    if (done_ || error_ != ErrorKind::kNone) return 0;
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      malformed("a line that is not JSON: " + std::string(line.substr(0, 80)));
      return 0;
    }
    if (j.contains("error")) {
      malformed("the server sent an error: " + error_text(j["error"]));
      return 0;
    }
    const json* text = nullptr;
    if (chat_) {
      if (const auto m = j.find("message"); m != j.end() && m->is_object()) {
        if (const auto t = m->find("content"); t != m->end()) text = &*t;
        if (text == nullptr || !text->is_string() || text->get_ref<const std::string&>().empty()) {
          if (const auto t = m->find("thinking"); t != m->end()) text = &*t;
        }
      }
    } else if (const auto t = j.find("response"); t != j.end()) {
      text = &*t;
      if (!text->is_string() || text->get_ref<const std::string&>().empty()) {
        if (const auto th = j.find("thinking"); th != j.end()) text = &*th;
      }
    }
    const int n = (text != nullptr && text->is_string() && !text->get_ref<const std::string&>().empty()) ? 1 : 0;
    if (n > 0 && keep_text_) text_ += text->get_ref<const std::string&>();
    pieces_ += n;
    if (const auto d = j.find("done"); d != j.end() && d->is_boolean() && d->get<bool>()) {
      done_ = true;
      if (const auto r = j.find("done_reason"); r != j.end() && r->is_string()) finish_reason_ = r->get<std::string>();
      const auto ns_to_ms = [&](const char* key) {
        const double ns = number_field(j, key);
        return ns / 1e6;
      };
      if (auto v = int_field(j, "prompt_eval_count")) {
        prompt_tokens_ = *v;
        timings_.prompt_n = *v;
      }
      if (auto v = int_field(j, "eval_count")) {
        completion_tokens_ = *v;
        timings_.predicted_n = *v;
      }
      timings_.prompt_ms = ns_to_ms("prompt_eval_duration");
      timings_.predicted_ms = ns_to_ms("eval_duration");
      timings_.load_ms = ns_to_ms("load_duration");
      timings_.total_ms = ns_to_ms("total_duration");
      if (timings_.predicted_n >= 0 && timings_.predicted_ms > 0) {
        timings_.predicted_per_second = 1e3 * timings_.predicted_n / timings_.predicted_ms;
      }
    }
    return n;
  }
  bool chat_;
  NdjsonDecoder lines_;
};

}  // namespace

std::unique_ptr<StreamReader> make_stream_reader(Api api) {
  switch (api) {
    case Api::kOpenAiChat: return std::make_unique<OpenAiReader>(true);
    case Api::kOpenAiCompletions: return std::make_unique<OpenAiReader>(false);
    case Api::kOllamaGenerate: return std::make_unique<OllamaReader>(false);
    case Api::kOllamaChat: return std::make_unique<OllamaReader>(true);
  }
  return nullptr;
}

ErrorKind stream_outcome(const StreamReader& reader, std::string& message) {
  if (reader.error() != ErrorKind::kNone) {
    message = reader.error_message();
    return reader.error();
  }
  if (!reader.done()) {
    message = "the stream ended before its last event (" + std::to_string(reader.pieces()) + " pieces received)";
    return ErrorKind::kCut;
  }
  return ErrorKind::kNone;
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
