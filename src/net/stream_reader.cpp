#include "net/stream_reader.h"

#include <nlohmann/json.hpp>

#include "net/json_fields.h"
#include "net/line_framing.h"

namespace rigbench::net {

using nlohmann::json;

namespace {

// What one OpenAI stream event holds that the reader keeps, read with nlohmann's SAX interface
// as the parser goes, without building the event's DOM (one event a token: serve-bench's
// client parses thousands a second). The same reading as a DOM would give: each choice's
// text (completions: "text"; chat: delta.content, else delta.reasoning_content or
// delta.reasoning where content is missing, not a string or empty) is a piece when a non-empty
// string, and a content piece when it is the content; finish_reason,
// usage's counts and llama-server's timings; whether the event is an object and has "error".
class OpenAiEvent {
 public:
  using json = nlohmann::json;
  explicit OpenAiEvent(bool chat) : chat_(chat) {}
  // Ready for the next event (its buffers keep their capacity: no allocation per event).
  void reset(bool keep_text) {
    keep_text_ = keep_text;
    object = has_error = has_timings = false;
    pieces = content_pieces = 0;
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
  int content_pieces = 0;  // of `pieces`, those that were content (not reasoning)
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
      timings = ServerTimings{};
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
        // llama-server and DeepSeek name it reasoning_content, vLLM 0.10 and later reasoning;
        // the first non-empty text of either is taken.
        else if ((key_ == "reasoning_content" || key_ == "reasoning") &&
                 !(choice_.reasoning.is_string && !choice_.reasoning.value.empty()))
          set(choice_.reasoning, s);
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
        else if (key_ == "prompt_per_second") timings.prompt_per_second = v;
        else if (key_ == "cache_n") timings.cache_n = static_cast<int>(v);
        else if (key_ == "draft_n") timings.draft_n = static_cast<int>(v);
        else if (key_ == "draft_n_accepted") timings.draft_n_accepted = static_cast<int>(v);
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
      if (t != &choice_.reasoning) ++content_pieces;
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
      const std::string text = error_text(j["error"]);
      // llama-server parses the model's text as its chat format as it streams (even on
      // /v1/completions) and ends the stream when that fails (common/chat.cpp): the model's
      // output, not the request or the stream, is what it refused.
      if (text.find("does not match the expected") != std::string::npos) {
        malformed("the server refused the model's output (its chat output parser: \"" + text +
                  "\"; text that is not UTF-8 fails it, as a synthetic model's random tokens can be)");
      } else {
        malformed("the server sent an error: " + text);
      }
      return 0;
    }
    if (keep_text_) text_ += event.text;
    if (event.finish_reason) finish_reason_ = *event.finish_reason;
    if (event.prompt_tokens) prompt_tokens_ = event.prompt_tokens;
    if (event.completion_tokens) completion_tokens_ = event.completion_tokens;
    if (event.has_timings) timings_ = event.timings;  // llama-server: each snapshot is cumulative, the last kept
    pieces_ += event.pieces;
    content_pieces_ += event.content_pieces;
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
    lines_.each_line(chunk, [&](std::string_view line) { n += line_of(line); });
    return n;
  }
  int finish() override {
    // A last line without its '\n': taken when whole JSON; a piece of one is what a cut leaves.
    const std::string last = lines_.finish();
    int n = 0;
    if (!last.empty() && (!pending_.empty() || json::accept(last))) n = line_of(last);
    // Lines that began an object which never closed: not a stream of JSON objects.
    if (!pending_.empty() && !done_) malformed("a line that is not JSON: " + pending_.substr(0, 80));
    return n;
  }

 private:
  // The most bytes one object spread over several lines may take (Ollama pretty-prints its
  // load and unload replies); more, and the lines are not one object.
  static constexpr std::size_t kMaxPending = 1 << 16;

  // One line: an object, or a line of one printed over several (it begins with '{' and is not
  // JSON alone: the lines that follow are joined to it until they parse).
  int line_of(std::string_view line) {
    if (done_ || error_ != ErrorKind::kNone) return 0;
    const std::size_t at = line.find_first_not_of(" \t\r");
    if (at == std::string_view::npos) return 0;  // a blank line
    const bool opens = line[at] == '{';
    if (pending_.empty()) {
      if (!opens || json::accept(line)) return take(line);
    } else if (opens && json::accept(line)) {
      // A whole object after lines that never closed: those lines were not JSON.
      malformed("a line that is not JSON: " + pending_.substr(0, 80));
      return 0;
    }
    pending_.append(line);
    pending_.push_back('\n');
    if (json::accept(pending_)) {
      const std::string whole = std::move(pending_);
      pending_.clear();
      return take(whole);
    }
    if (pending_.size() > kMaxPending) malformed("a line that is not JSON: " + pending_.substr(0, 80));
    return 0;
  }

  int take(std::string_view line) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      malformed("a line that is not JSON: " + std::string(line.substr(0, 80)));
      return 0;
    }
    if (j.contains("error")) {
      malformed("the server sent an error: " + error_text(j["error"]));
      return 0;
    }
    // The text: the content ("response", chat's message.content), else the reasoning ("thinking").
    const json* text = nullptr;
    bool content = false;
    const auto non_empty = [](const json* t) {
      return t != nullptr && t->is_string() && !t->get_ref<const std::string&>().empty();
    };
    const json* holder = &j;
    if (chat_) {
      const auto m = j.find("message");
      holder = m != j.end() && m->is_object() ? &*m : nullptr;
    }
    if (holder != nullptr) {
      if (const auto t = holder->find(chat_ ? "content" : "response"); t != holder->end()) text = &*t;
      content = non_empty(text);
      if (!content) {
        if (const auto t = holder->find("thinking"); t != holder->end()) text = &*t;
      }
    }
    const int n = non_empty(text) ? 1 : 0;
    if (n > 0 && keep_text_) text_ += text->get_ref<const std::string&>();
    pieces_ += n;
    if (content) ++content_pieces_;
    if (const auto d = j.find("done"); d != j.end() && d->is_boolean() && d->get<bool>()) done_with(j);
    return n;
  }

  // The last object: why it ended, the counts and durations (ns, here ms).
  void done_with(const json& j) {
    done_ = true;
    if (const auto r = j.find("done_reason"); r != j.end() && r->is_string()) finish_reason_ = r->get<std::string>();
    // Ollama's reply to a load or unload request (an empty prompt; keep_alive 0): no answer.
    if (finish_reason_ == "load" || finish_reason_ == "unload") model_event_ = finish_reason_;
    const auto ns_to_ms = [&](const char* key) { return number_field(j, key) / 1e6; };
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
    if (timings_.prompt_n >= 0 && timings_.prompt_ms > 0) {
      timings_.prompt_per_second = 1e3 * timings_.prompt_n / timings_.prompt_ms;
    }
  }

  bool chat_;
  NdjsonDecoder lines_;
  std::string pending_;  // the lines so far of an object printed over several
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

}  // namespace rigbench::net
