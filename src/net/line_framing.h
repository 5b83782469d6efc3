// rigbench: the line framing of streamed HTTP bodies. Bytes arrive in chunks cut anywhere
// (mid-line, mid-UTF-8, between '\r' and '\n'); these turn them into whole lines, and lines
// into Server-Sent Events (OpenAI's stream) or NDJSON objects (Ollama's). No I/O.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rigbench::net {

// Splits a byte stream into lines ending in "\n", "\r\n" or "\r" (the SSE spec's three).
class LineSplitter {
 public:
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
  void take_line(const std::string& line, std::vector<SseEvent>& out);
};

// NDJSON: one JSON text per line; blank lines are skipped.
class NdjsonDecoder {
 public:
  std::vector<std::string> feed(std::string_view chunk);
  // The last line when the stream ended without its '\n' ("" when none).
  std::string finish();

 private:
  LineSplitter lines_;
};

}  // namespace rigbench::net
