#include "core/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace rigbench {

namespace {

// `word` without its leading dashes.
std::string_view bare(std::string_view word) { return word.substr(std::min(word.find_first_not_of('-'), word.size())); }

// Whether every character of `abbr` appears in `name` in the same order.
bool is_subsequence(std::string_view abbr, std::string_view name) {
  std::size_t at = 0;
  for (const char c : name) {
    if (at < abbr.size() && abbr[at] == c) ++at;
  }
  return at == abbr.size();
}

// Edits allowed for a word of `size` characters: 1, or 2 from 5 characters.
std::size_t edit_limit(std::size_t size) { return size >= 5 ? 2 : 1; }

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: edits between the first i characters of a and the first j of b.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string_view w = bare(word);
  // One letter is one edit from every other letter: "-t" is no typo of "-h".
  if (w.size() < 2) return "";
  std::string best;
  std::size_t best_distance = edit_limit(w.size()) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (!best.empty()) return best;
  // The only candidate that `word` begins, else the only one it abbreviates.
  const auto only = [&](auto&& matches) {
    std::string one;
    for (const auto& c : candidates) {
      if (!matches(c)) continue;
      if (!one.empty()) return std::string();
      one = c;
    }
    return one;
  };
  if (std::string p = only([&](const std::string& c) { return c.size() > word.size() && c.starts_with(word); });
      !p.empty())
    return p;
  if (w.size() < 3) return "";
  const std::size_t dashes = word.size() - w.size();
  return only([&](const std::string& c) {
    const std::string_view cb = bare(c);
    return c.size() - cb.size() == dashes && cb.size() > w.size() && cb.substr(0, 2) == w.substr(0, 2) &&
           is_subsequence(w, cb);
  });
}

std::string squashed(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::vector<std::string> names_like(std::string_view word, const std::vector<std::string>& names) {
  const std::string w = squashed(word);
  std::vector<std::string> equal, begun, worded, near;
  if (w.empty()) return {};
  // `w` begins at one of n's later words ("3090" in "RTX 3090 Ti"), three characters or more.
  auto at_a_word = [&](const std::string& n) {
    if (w.size() < 3) return false;
    for (std::size_t k = n.find(' '); k != std::string::npos; k = n.find(' ', k + 1)) {
      if (squashed(std::string_view(n).substr(k + 1)).starts_with(w)) return true;
    }
    return false;
  };
  std::size_t nearest = edit_limit(w.size());  // the largest distance still kept
  for (const auto& n : names) {
    const std::string s = squashed(n);
    if (s == w) {
      equal.push_back(n);
    } else if (s.starts_with(w)) {
      begun.push_back(n);
    } else if (at_a_word(n)) {
      worded.push_back(n);
    } else if (w.size() >= 2) {
      const std::size_t d = edit_distance(w, s);
      if (d > nearest) continue;
      if (d < nearest) near.clear();
      nearest = d;
      near.push_back(n);
    }
  }
  if (!equal.empty()) return equal;
  if (!begun.empty()) return begun;
  if (!worded.empty()) return worded;
  return near;
}

}  // namespace rigbench
