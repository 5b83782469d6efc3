// rigbench: the name a person most likely meant, for "did you mean" in messages: a mistyped
// subcommand or flag (cli/), a catalog device written another way (hw/catalog.h). Pure
// functions over the names given; no I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rigbench {

// Edits (insertions, deletions, substitutions, swaps of two neighbours) between `a` and `b`:
// the optimal-string-alignment distance, so "benhc" is one edit from "bench".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate `word` was most likely meant to be: the nearest within 1 edit (2 for words
// of 5 characters or more; the first of equals), else the only candidate that `word` is a
// prefix of (2 characters or more), else the only candidate that `word` abbreviates (3
// letters or more after its dashes, the first two the candidate's, every letter in the
// candidate's order: "--reps" for "--repetitions"). "" when none is close, and for a word of
// one letter after its dashes ("-t": every one-letter flag is one edit from it).
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// `name` lower-cased with only its letters and digits kept: "RTX 3090" and "rtx-3090" are
// both "rtx3090".
std::string squashed(std::string_view name);

// The names `word` may mean, in the order given, compared squashed (spaces, dashes and case
// ignored): those equal to it, else those it begins ("M2 Pro" -> "M2 Pro 16GB", "M2 Pro 32GB"),
// else those one of whose later words it begins, for three characters or more ("3090" -> "RTX
// 3090", "RTX 3090 Ti"), else the nearest within 1 edit (2 for 5 characters or more; all of them
// at that distance).
// Empty when none is close.
std::vector<std::string> names_like(std::string_view word, const std::vector<std::string>& names);

}  // namespace rigbench
