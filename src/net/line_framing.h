// rigbench: the line framing of streamed HTTP bodies. Bytes arrive in chunks cut anywhere
// (mid-line, mid-UTF-8, between '\r' and '\n'); these turn them into whole lines, and lines
// into Server-Sent Events (OpenAI's stream) or NDJSON objects (Ollama's). No I/O.
//
// Cost: the each_* forms hand out views and reuse their buffers, so a stream in steady state
// allocates nothing per line or event (serve-bench's client at 64 streams); a line whole in
// one chunk is not even copied. The feed() forms return copies, for tests and small uses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rigbench::net {

// Splits a byte stream into lines ending in "\n", "\r\n" or "\r" (the SSE spec's three).
class LineSplitter {
 public:
  // Calls on_line(std::string_view) for each line `chunk` completes, without its terminator;
  // the view lives until on_line returns.
  template <typename F>
  void each_line(std::string_view chunk, F&& on_line) {
    std::size_t at = 0;
    if (after_cr_ && !chunk.empty()) {
      after_cr_ = false;
      if (chunk.front() == '\n') at = 1;  // "\r\n": the line ended at '\r'
    }
    while (at < chunk.size()) {
      const std::size_t end = chunk.find_first_of("\r\n", at);
      if (end == std::string_view::npos) {
        buffer_.append(chunk.substr(at));
        return;
      }
      if (buffer_.empty()) {
        on_line(chunk.substr(at, end - at));
      } else {
        buffer_.append(chunk.substr(at, end - at));
        on_line(std::string_view(buffer_));
        buffer_.clear();  // keeps its capacity
      }
      at = end + 1;
      if (chunk[end] == '\r') {
        if (at < chunk.size()) {
          if (chunk[at] == '\n') ++at;
        } else {
          after_cr_ = true;
        }
      }
    }
  }
  // Appends `chunk` and returns the lines it completed, without their terminators.
  std::vector<std::string> feed(std::string_view chunk);
  // The unterminated rest at the end of the stream ("" when the stream ended on a line end).
  std::string rest() const { return buffer_; }
  // Bytes held now (a line without its end yet).
  std::size_t pending() const { return buffer_.size(); }

 private:
  std::string buffer_;
  bool after_cr_ = false;  // the last byte seen was '\r': a following '\n' belongs to it
};

// One Server-Sent Event: its `data:` lines joined by '\n' and its `event:` name.
struct SseEvent {
  std::string event;  // "" = the default "message"
  std::string data;
};

// Server-Sent Events (WHATWG HTML, 9.2): `data:` fields accumulate, a blank line dispatches
// the event, lines starting with ':' are comments, unknown fields are ignored.
class SseDecoder {
 public:
  // Calls on_event(const SseEvent&) for each event `chunk` completes; the event lives until
  // on_event returns (its buffers are reused for the next one).
  template <typename F>
  void each_event(std::string_view chunk, F&& on_event) {
    lines_.each_line(chunk, [&](std::string_view line) {
      if (take_line(line)) {
        on_event(static_cast<const SseEvent&>(current_));
        reset();
      }
    });
  }
  std::vector<SseEvent> feed(std::string_view chunk);
  // An event left without its closing blank line when the stream ended (some servers omit it
  // on the last event); empty data = none.
  SseEvent finish();
  // Lines seen that were neither a field, a comment nor blank (a server that does not speak SSE).
  int unknown_lines() const { return unknown_lines_; }

 private:
  LineSplitter lines_;
  SseEvent current_;
  bool has_data_ = false;
  int unknown_lines_ = 0;
  // Takes one line; true when it dispatches current_ (a blank line after data).
  bool take_line(std::string_view line);
  void reset();
};

// NDJSON: one JSON text per line; blank lines are skipped.
class NdjsonDecoder {
 public:
  // Calls on_line(std::string_view) for each non-blank line `chunk` completes.
  template <typename F>
  void each_line(std::string_view chunk, F&& on_line) {
    lines_.each_line(chunk, [&](std::string_view line) {
      if (line.find_first_not_of(" \t") != std::string_view::npos) on_line(line);
    });
  }
  std::vector<std::string> feed(std::string_view chunk);
  // The last line when the stream ended without its '\n' ("" when none).
  std::string finish();

 private:
  LineSplitter lines_;
};

}  // namespace rigbench::net
