#include "net/line_framing.h"

namespace rigbench::net {

std::vector<std::string> LineSplitter::feed(std::string_view chunk) {
  std::vector<std::string> lines;
  for (const char c : chunk) {
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;  // "\r\n": the line ended at '\r'
    }
    if (c == '\n' || c == '\r') {
      lines.push_back(std::move(buffer_));
      buffer_.clear();
      after_cr_ = c == '\r';
    } else {
      buffer_.push_back(c);
    }
  }
  return lines;
}

void SseDecoder::take_line(const std::string& line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    if (has_data_) out.push_back(std::move(current_));
    current_ = {};
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // comment (keep-alive)
  const auto colon = line.find(':');
  const std::string field = line.substr(0, colon);
  std::string value;
  if (colon != std::string::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.erase(0, 1);
  }
  if (field == "data") {
    if (has_data_) current_.data.push_back('\n');
    current_.data += value;
    has_data_ = true;
  } else if (field == "event") {
    current_.event = value;
  } else if (field == "id" || field == "retry") {
    // not used
  } else {
    ++unknown_lines_;
  }
}

std::vector<SseEvent> SseDecoder::feed(std::string_view chunk) {
  std::vector<SseEvent> out;
  for (const auto& line : lines_.feed(chunk)) take_line(line, out);
  return out;
}

SseEvent SseDecoder::finish() {
  std::vector<SseEvent> out;
  const std::string rest = lines_.rest();
  if (!rest.empty()) take_line(rest, out);
  SseEvent last;
  if (has_data_) last = std::move(current_);
  current_ = {};
  has_data_ = false;
  return last;
}

std::vector<std::string> NdjsonDecoder::feed(std::string_view chunk) {
  std::vector<std::string> out;
  for (auto& line : lines_.feed(chunk)) {
    if (line.find_first_not_of(" \t") != std::string::npos) out.push_back(std::move(line));
  }
  return out;
}

std::string NdjsonDecoder::finish() {
  const std::string rest = lines_.rest();
  return rest.find_first_not_of(" \t") == std::string::npos ? std::string() : rest;
}

}  // namespace rigbench::net
