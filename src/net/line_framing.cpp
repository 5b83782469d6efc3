#include "net/line_framing.h"

namespace rigbench::net {

std::vector<std::string> LineSplitter::feed(std::string_view chunk) {
  std::vector<std::string> lines;
  each_line(chunk, [&](std::string_view line) { lines.emplace_back(line); });
  return lines;
}

void SseDecoder::reset() {
  current_.data.clear();
  current_.event.clear();
  has_data_ = false;
}

bool SseDecoder::take_line(std::string_view line) {
  if (line.empty()) {
    if (has_data_) return true;
    reset();
    return false;
  }
  if (line.front() == ':') return false;  // comment (keep-alive)
  const auto colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) current_.data.push_back('\n');
    current_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    current_.event.assign(value);
  } else if (field == "id" || field == "retry") {
    // not used
  } else {
    ++unknown_lines_;
  }
  return false;
}

std::vector<SseEvent> SseDecoder::feed(std::string_view chunk) {
  std::vector<SseEvent> out;
  each_event(chunk, [&](const SseEvent& e) { out.push_back(e); });
  return out;
}

SseEvent SseDecoder::finish() {
  const std::string rest = lines_.rest();
  if (!rest.empty()) take_line(rest);
  SseEvent last;
  if (has_data_) last = current_;
  reset();
  return last;
}

std::vector<std::string> NdjsonDecoder::feed(std::string_view chunk) {
  std::vector<std::string> out;
  each_line(chunk, [&](std::string_view line) { out.emplace_back(line); });
  return out;
}

std::string NdjsonDecoder::finish() {
  const std::string rest = lines_.rest();
  return rest.find_first_not_of(" \t") == std::string::npos ? std::string() : rest;
}

}  // namespace rigbench::net
