// rigbench: the lines of a line-per-record text (JSONL prompts, traces, published results)
// that hold something, each with its number, for the readers that name a bad line. The
// readers read their files; this only splits the text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rigbench {

struct NumberedLine {
  int number = 0;    // from 1, counting the blank lines skipped
  std::string text;  // without a trailing CR
};

// The lines of `text` (split at '\n') that hold more than spaces, tabs and a CR.
std::vector<NumberedLine> nonblank_lines(std::string_view text);

}  // namespace rigbench
