// rigbench: can a file be written at this path, and if not, why, in one line for people.
// The one check behind every "cannot write" error (synth's GGUF, report's HTML, serve-bench's
// --save-responses, the results database, the default model cache), run before the work starts
// so that a bad path fails at once and says why. Every file rigbench writes gets its missing
// folders made here, with their parents, as the default database's folder always was (one
// behaviour for --db, --output-file and --save-responses alike).
#pragma once

#include <string>

#include "core/status.h"
#include "core/strings.h"  // errno_text

namespace rigbench::store {

enum class WriteMode {
  kReplace,  // written beside the target and renamed over it: the folder must take new files
  kInPlace,  // opened and changed where it is (a database): the file too must be writable
};

// Why a file cannot be written at `path`, or "" when it can. A missing folder is made first,
// with its parents. The reasons, from errno's text (lower case), naming the folder or file
// concerned:
//   "is a directory"                                   the path names a folder (or ends in '/')
//   "not a directory: PATH"                            a part of the folder path is a file
//   "permission denied: cannot create DIR in PARENT"   the missing folder cannot be made (or
//                                                      "read-only file system: ...")
//   "permission denied: cannot create files in DIR"    (or "read-only file system: ...")
//   "permission denied: FILE is not writable"          kInPlace and the file exists read-only
std::string unwritable_reason(const std::string& path, WriteMode mode = WriteMode::kReplace);

// kRuntime "<subject> '<path>': <reason>[; <hint>]" when unwritable_reason() is not empty.
Status check_writable(const std::string& subject, const std::string& path, const std::string& hint = "",
                      WriteMode mode = WriteMode::kReplace);

// Writes `text` to `path` through a file beside it ("<path>.partial-<pid>"), renamed over
// `path` at the end, so nothing half-written is left (the partial file is removed on any
// error). Errors: kRuntime "<subject> '<path>': <reason>[; <hint>]", the reason from
// unwritable_reason() or errno's text.
Status write_whole(const std::string& subject, const std::string& path, const std::string& text,
                   const std::string& hint = "");

}  // namespace rigbench::store
