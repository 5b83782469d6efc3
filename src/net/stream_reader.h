// rigbench: readers of a streamed answer of the two APIs net/protocol.h speaks: OpenAI's SSE
// (`data: {chunk}` events, `data: [DONE]`; usage, llama-server's `timings`) and Ollama's NDJSON
// (one object a token, the last with "done": true and durations in ns). No I/O: bytes in,
// pieces out, so both are tested on chunks cut anywhere.
//
// A piece is one event's generated text: content, or reasoning where the event has no content
// (OpenAI chat: delta.reasoning_content, llama-server's and DeepSeek's name, or delta.reasoning,
// vLLM 0.10's; Ollama: "thinking"). Both count as output and the first of either starts TTFT;
// content_pieces() counts the content ones, so the first content token is timed apart.
#pragma once

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "net/http_client.h"
#include "net/protocol.h"

namespace rigbench::net {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Timings the server reports about its own work on one request (llama-server's `timings`,
// the last snapshot of the stream; Ollama's durations converted from ns to ms). NaN / -1
// where it does not say.
struct ServerTimings {
  int prompt_n = -1;                       // prompt tokens evaluated (llama-server: not those from its cache)
  double prompt_ms = kNoValue;             // prompt evaluation
  double prompt_per_second = kNoValue;     // prompt_n / prompt_ms, as the server states it (Ollama: derived)
  int cache_n = -1;                        // llama-server: prompt tokens taken from its prompt cache
  int predicted_n = -1;                    // tokens generated
  double predicted_ms = kNoValue;          // generation
  double predicted_per_second = kNoValue;  // predicted_n / predicted_ms, as the server states it
  int draft_n = -1;                        // llama-server: tokens drafted (speculative decoding)
  int draft_n_accepted = -1;               // llama-server: drafted tokens accepted
  double load_ms = kNoValue;               // Ollama's load_duration
  double total_ms = kNoValue;              // Ollama's total_duration
  bool present() const { return predicted_n >= 0 || prompt_n >= 0; }
};

// Reads one streamed answer. feed() returns how many text pieces the chunk completed (the
// caller timestamps them); the totals and the server's figures accumulate.
class StreamReader {
 public:
  virtual ~StreamReader() = default;
  // Bytes as they arrived; returns the generated-text pieces they completed.
  virtual int feed(std::string_view chunk) = 0;
  // The stream ended (the connection's body is over): returns pieces of a last unterminated event.
  virtual int finish() = 0;

  bool done() const { return done_; }  // the API's last event arrived ([DONE], "done": true)
  ErrorKind error() const { return error_; }
  const std::string& error_message() const { return message_; }
  std::optional<int> prompt_tokens() const { return prompt_tokens_; }          // server usage
  std::optional<int> completion_tokens() const { return completion_tokens_; }  // server usage
  const ServerTimings& timings() const { return timings_; }
  int pieces() const { return pieces_; }                  // content and reasoning pieces
  int content_pieces() const { return content_pieces_; }  // the pieces that were content
  const std::string& finish_reason() const { return finish_reason_; }
  // "load" or "unload": the answer was Ollama's reply to a model load or unload request (one
  // object, done_reason "load"/"unload", no generation), not an answer to a prompt; "" else.
  const std::string& model_event() const { return model_event_; }
  // Keep the generated text (serve-bench --save-responses); off by default, so a benchmark
  // copies no text it does not store.
  void keep_text(bool keep) { keep_text_ = keep; }
  const std::string& text() const { return text_; }  // the pieces joined, when kept

 protected:
  void malformed(std::string message) {
    if (error_ == ErrorKind::kNone) {
      error_ = ErrorKind::kMalformed;
      message_ = std::move(message);
    }
  }
  bool done_ = false;
  ErrorKind error_ = ErrorKind::kNone;
  std::string message_;
  std::optional<int> prompt_tokens_, completion_tokens_;
  ServerTimings timings_;
  int pieces_ = 0;
  int content_pieces_ = 0;
  std::string finish_reason_;
  std::string model_event_;
  bool keep_text_ = false;
  std::string text_;
};

std::unique_ptr<StreamReader> make_stream_reader(Api api);

// The outcome of reading a whole answer: kNone, or why it failed (malformed, cut: the stream
// ended without its last event, which the reader did not see).
ErrorKind stream_outcome(const StreamReader& reader, std::string& message);

}  // namespace rigbench::net
