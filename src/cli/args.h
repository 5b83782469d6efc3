// rigbench: command-line spellings that CLI11 cannot take as they are, and the words of the
// messages about arguments it could not place.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/record_sources.h"

namespace rigbench::cli {

// llama-bench spells some flags with one dash and several letters (-ngl, -fa, -ctk, -ctv,
// -ub, -lm), which CLI11 would read as bundled single-letter flags. This rewrites exactly
// those tokens to their long names (-ngl -> --n-gpu-layers, ...); every other token is kept.
std::vector<std::string> expand_llama_bench_aliases(const std::vector<std::string>& args);

// llama-bench flags that `rigbench bench` does not take (yet): for the first one in `args`
// (after "rigbench bench"), a kUsage error that names it and says what to use instead, e.g.
// "bench: llama-bench's -dio/--direct-io is not taken here; use -lm dio". Other
// subcommands' arguments are not looked at.
Status check_unsupported_llama_bench_flags(const std::vector<std::string>& args);

// A check that an option's number lies in [min, max], said with the bounds as written (%g):
// "2 is not in [1e-09, 0.5]" (CLI::Range says "0.000000 to 0.500000"); "'x' is not a number".
CLI::Validator range(double min, double max);

// `--currency CODE` (cost, report): 1 to 8 letters. Errors: kUsage naming the value.
Status check_currency(const std::string& currency);

// The readers' selection flags (compare, report, export): --model, --machine, --tag, each
// repeatable, a case-insensitive substring (store::select_records).
void add_record_filter_flags(CLI::App& cmd, store::RecordFilter& filter);

// Edits (insertions, deletions, substitutions, swaps of two neighbours) between `a` and `b`:
// the optimal-string-alignment distance, so "benhc" is one edit from "bench".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate `word` was most likely meant to be: the nearest within 1 edit (2 for words
// of 5 characters or more; the first of equals), else the only candidate that `word` is a
// prefix of (2 characters or more). "" when none is close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// The message (without "rigbench: error: ") for the arguments that `command` (e.g. "fit";
// "" for rigbench itself) did not expect, `extras` in the order given: the unknown flags
// first (a "did you mean" from `known_flags` where one is close to the first), then the
// other arguments not expected, each group in the order given, then where to look, e.g.
// "fit: unknown flag '--num-ctx'; not expected either: '4096' (see rigbench fit --help)".
std::string unexpected_arguments_message(const std::string& command, const std::vector<std::string>& extras,
                                         const std::vector<std::string>& known_flags);

}  // namespace rigbench::cli
