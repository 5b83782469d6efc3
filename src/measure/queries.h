// rigbench: the query set of `rigbench embed`: the built-in one (data/queries/embed.txt, short
// search queries written for this project) or a user's file, one query per line or JSONL
// with a "text" string. Parsing is pure; reading names the file.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::measure {

// The queries in `text`, read from `name` (for messages); a UTF-8 byte order mark is skipped.
// JSONL when the first non-blank line starts with '{': every non-blank line an object with a
// non-empty "text" string (other keys ignored), a line that is not is refused; otherwise one
// query per line, trailing whitespace and '\r' trimmed, and a line that is a JSON object is
// refused (a file that mixes the two is never read as plain text), as is a JSON array. Blank
// lines are skipped in both.
// Errors: kInvalidInput, one line: "queries 'NAME' line N: <problem>", or "queries 'NAME':
// no queries" for a file with none.
Result<std::vector<std::string>> parse_queries(const std::string& text, const std::string& name);

// parse_queries over the file at `path`. Errors: kNotFound when it cannot be opened; those of
// parse_queries.
Result<std::vector<std::string>> read_queries(const std::string& path);

// The built-in set's file: $RIGBENCH_DATA_DIR/queries/embed.txt, else the source tree's data/.
std::string builtin_queries_path();

// A query set as the records name it.
struct QuerySet {
  std::vector<std::string> queries;
  std::string name;  // "builtin", or the file as given
};

// The set a --queries flag names: the file `file`, or the built-in set for "". Errors: those
// of read_queries.
Result<QuerySet> read_query_set(const std::string& file);

}  // namespace rigbench::measure
