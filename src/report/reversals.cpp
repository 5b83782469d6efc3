#include "report/reversals.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "core/significance.h"
#include "core/strings.h"
#include "report/identities.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& parts) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) s += i + 1 == parts.size() ? " and " : ", ";
    s += parts[i];
  }
  return s;
}

// What an item is, in words: "machine" when the columns are models, else "model".
std::string item_noun(CompareBy by) { return by == CompareBy::kModel ? "machine" : "model"; }

// How the sentences of one metric speak: who is better, who is worse, who is best.
struct Words {
  const char* better;      // "is faster than"
  const char* worse_tail;  // "slower": "..., and slower on Y"
  const char* worse;       // "is slower than"
  const char* best;        // "is fastest": "X is fastest on every model"
  const char* over;        // the leader's change against the runner-up: "+214 % over X", "-40 % vs X"
  const char* key;         // JSON key suffix with the unit: "tps" (a_tps, mean_tps)
  int decimals;            // of the figures in the tables
};

const Words& words(Metric m) {
  static constexpr Words kRate{"is faster than", "slower", "is slower than", "is fastest", " over ", "tps", 2};
  static constexpr Words kTtft{"has a shorter TTFT than", "a longer one",  "has a longer TTFT than",
                               "has the shortest TTFT",   " vs ",          "ms",
                               1};
  static constexpr Words kEnergy{"uses less energy per token than",
                                 "more",
                                 "uses more energy per token than",
                                 "uses the least energy per token",
                                 " vs ",
                                 "j_per_token",
                                 3};
  static constexpr Words kCost{"costs less per Mtok than", "more", "costs more per Mtok than", "costs least per Mtok",
                               " vs ", "per_mtok", 4};
  switch (m) {
    case Metric::kTtft: return kTtft;
    case Metric::kTgEnergy: return kEnergy;
    case Metric::kCost: return kCost;
    default: return kRate;
  }
}

// Whether value `x` is better than `y` for `metric` (higher t/s; lower ms, J, cost).
bool better(Metric metric, double x, double y) { return metric_info(metric).higher_is_better ? x > y : x < y; }

// Labels of the rows of `metric`: what each row is about besides the column, with the test and
// the third identity only where the rows differ in them.
std::map<std::size_t, std::string> item_labels(const Comparison& cmp, Metric metric) {
  std::set<std::string> tests, builds, machines;
  for (const Row& r : cmp.rows) {
    if (r.metric != metric) continue;
    tests.insert(r.test);
    builds.insert(r.build);
    machines.insert(r.machine);
  }
  const std::vector<std::string> servers = row_servers(cmp);  // named by their tags, as the table does
  std::map<std::size_t, std::string> labels;
  for (std::size_t i = 0; i < cmp.rows.size(); ++i) {
    const Row& r = cmp.rows[i];
    if (r.metric != metric) continue;
    std::string s;
    switch (cmp.by) {
      case CompareBy::kMachine:
      case CompareBy::kBackend: s = r.model + (builds.size() > 1 ? " (" + r.build + ")" : ""); break;
      case CompareBy::kModel: s = r.machine + (builds.size() > 1 ? " (" + r.build + ")" : ""); break;
      case CompareBy::kBuild:
        s = r.model + (machines.size() > 1 ? " on " + r.machine : "") +
            (r.knobs_shown.empty() ? "" : " (" + r.knobs_shown + ")");
        break;
    }
    if (tests.size() > 1) s += " " + tagged_test(r, servers);
    // Each column at its best: where those bests ran different knobs, the answer says so, as
    // the table's winner does.
    if (r.knobs_differ) s += " (knobs differ)";
    labels[i] = s;
  }
  return labels;
}

// The " (synthetic v2, seed 42)" the synthetic labels hold, said once: where every label holds
// it, taken out of each and returned as "synthetic v2, seed 42"; where real models stand beside
// them, each synthetic label keeps " (synthetic)" (what that is, the table's note and the
// report's end say) and "" is returned. "" (the labels unchanged) when no label holds one, or two
// recipes or seeds occur.
std::string take_common_synthetic(std::map<std::size_t, std::string>& labels) {
  std::string common;
  bool all = true;
  for (const auto& [i, label] : labels) {
    const std::string part = synthetic_part(label);
    if (part.empty()) {
      all = false;
      continue;
    }
    if (!common.empty() && part != common) return "";
    common = part;
  }
  if (common.empty()) return "";
  const std::string text = " (" + common + ")";
  for (auto& [i, label] : labels) {
    if (const std::size_t at = label.find(text); at != std::string::npos)
      label.replace(at, text.size(), all ? "" : " (synthetic)");
  }
  return all ? common : "";
}

std::string significance_word(double p, bool significant, bool inconclusive) {
  if (std::isnan(p)) return "untested";
  if (inconclusive) return "inconclusive";
  return significant ? "significant" : "not significant";
}

// "; noisy runs: outliers, steal" after a figure whose cells carry noise notes; "" otherwise.
std::string noisy_text(const std::vector<std::string>& codes) {
  return codes.empty() ? "" : "; noisy runs: " + join(codes, ", ");
}

// The noise codes of two cells, each once, in noise_codes' order.
std::vector<std::string> noise_of(const Cell& a, const Cell& b) {
  std::vector<std::string> codes = noise_codes(a);
  for (std::string& c : noise_codes(b)) {
    if (std::find(codes.begin(), codes.end(), c) == codes.end()) codes.push_back(std::move(c));
  }
  std::sort(codes.begin(), codes.end());
  return codes;
}

// "Llama 3.1 8B Q4_K_M (+80 %, significant)"; with `who`, "m1 F32 (a +0.5 %, not significant)".
std::string item_with_change(const PairItem& it, const std::string& who = "") {
  return it.item + " (" + (who.empty() ? "" : who + " ") + change_text(it.change) + ", " +
         significance_word(it.p, it.significant, it.inconclusive) + noisy_text(it.noise) + ")";
}

std::string pair_sentence(const Comparison& cmp, const PairAnswer& pa, Metric metric) {
  const Words& w = words(metric);
  const std::string& a = cmp.columns[pa.a];
  const std::string& b = cmp.columns[pa.b];
  std::vector<std::string> ahead, behind, unclear, a_only, b_only, equal;
  for (const PairItem& it : pa.items) {
    switch (it.side) {
      case PairSide::kAAhead:
      case PairSide::kBAhead:
        if (!it.significant && std::isfinite(it.p)) unclear.push_back(item_with_change(it, a));  // tested, not held up
        else (it.side == PairSide::kAAhead ? ahead : behind).push_back(item_with_change(it));
        break;
      case PairSide::kEqual: equal.push_back(it.item); break;
      case PairSide::kAOnly: a_only.push_back(it.item); break;
      case PairSide::kBOnly: b_only.push_back(it.item); break;
    }
  }
  const std::size_t measured = ahead.size() + behind.size() + unclear.size() + equal.size();
  const bool all_significant_ahead = behind.empty() && equal.empty() && unclear.empty() && !ahead.empty() &&
                                     pa.a_ahead == static_cast<int>(pa.items.size());
  std::string s;
  if (all_significant_ahead && measured > 1) {
    s = a + " " + w.better + " " + b + " on every " + item_noun(cmp.by) + " both ran: " + and_list(ahead);
  } else if (!ahead.empty()) {
    s = a + " " + w.better + " " + b + " on " + and_list(ahead);
    if (!behind.empty()) s += ", and " + std::string(w.worse_tail) + " on " + and_list(behind);
  } else if (!behind.empty()) {
    s = a + " " + w.worse + " " + b + " on " + and_list(behind);
  }
  if (!unclear.empty())
    s += (s.empty() ? a + " and " + b + " show no clear difference on " : "; no clear difference on ") +
         and_list(unclear);
  if (!equal.empty()) s += (s.empty() ? a + " and " + b + " are even on " : "; even on ") + and_list(equal);
  if (!a_only.empty()) s += (s.empty() ? "" : "; ") + std::string("only ") + a + " fits " + and_list(a_only);
  if (!b_only.empty()) s += (s.empty() ? "" : "; ") + std::string("only ") + b + " fits " + and_list(b_only);
  if (pa.reversal) s += ": no universal winner between them";
  return s + ".";
}

// The headline over every column: one clear leader everywhere, else each item's leader.
std::string headline(const Comparison& cmp, const Answers& ans) {
  if (ans.rankings.empty()) return "";
  const std::string noun = item_noun(cmp.by);
  const Words& w = words(ans.metric);
  // "Phi-3 mini Q4_K_M (+214 % over RX 6600 XT, significant)", or "alone fits ..." handled by caller.
  auto lead_text = [&](const RankingAnswer& r) {
    const RankEntry& first = r.order[0];
    const RankEntry& second = r.order[1];
    if (!second.fits) return r.item + " (the only one that fits)";
    return r.item + " (" + change_text(first.mean / second.mean - 1) + w.over + cmp.columns[second.column] + ", " +
           significance_word(r.p, r.clear, r.inconclusive) + noisy_text(r.noise) + ")";
  };
  if (ans.universal_winner >= 0) {
    std::vector<std::string> parts;
    for (const RankingAnswer& r : ans.rankings) parts.push_back(lead_text(r));
    return cmp.columns[ans.universal_winner] + " " + w.best + " on every " + noun + " (" + ans.unit_test +
           "): " + and_list(parts) + ".";
  }
  // A row whose leader Welch's test does not separate from the runner-up: what is within noise
  // (or untested) is that lead, which the pair lines below confirm; other columns of the row
  // may still be significantly behind ("a is faster than c ..., significant" stays true).
  // "m1 F32 (a +0.5 % over b, not significant)".
  auto unclear_text = [&](const RankingAnswer& r) {
    const RankEntry& first = r.order[0];
    const RankEntry& second = r.order[1];
    const std::string change = change_text(first.mean / second.mean - 1);
    if (change == change_text(0))  // equal to the shown precision: the pair line says "even"
      return r.item + " (" + cmp.columns[first.column] + " and " + cmp.columns[second.column] + " even)";
    return r.item + " (" + cmp.columns[first.column] + " " + change + w.over + cmp.columns[second.column] + ", " +
           significance_word(r.p, r.clear, r.inconclusive) + noisy_text(r.noise) + ")";
  };
  // Leaders in column order, each with the items it leads clearly.
  std::map<std::size_t, std::vector<std::string>> led;
  std::vector<std::string> noise, untested;  // untested: no p-value (a summary of unknown n)
  for (const RankingAnswer& r : ans.rankings) {
    if (r.clear) led[r.order[0].column].push_back(lead_text(r));
    else (std::isnan(r.p) ? untested : noise).push_back(unclear_text(r));
  }
  const std::string untested_why = " (a summary without its repetition count: import it with -r N)";
  if (led.empty()) {
    std::string s = "No clear leader (" + ans.unit_test + "): ";
    if (!noise.empty()) s += "the lead over the runner-up is within noise on " + and_list(noise);
    if (!untested.empty())
      s += (noise.empty() ? "" : "; ") + std::string("the lead over the runner-up is untested on ") +
           and_list(untested) + untested_why;
    return s + ".";
  }
  std::vector<std::string> parts;
  for (const auto& [column, texts] : led) parts.push_back(cmp.columns[column] + " leads on " + and_list(texts));
  std::string s = "No universal winner (" + ans.unit_test + "): " + join(parts, "; ");
  if (!noise.empty()) s += "; no clear leader on " + and_list(noise);
  if (!untested.empty()) s += "; no tested leader on " + and_list(untested) + untested_why;
  return s + ".";
}

// A p-value for people: 4 decimals, "<0.0001" below; "-" when untested.
TableCell p_cell(double p) {
  if (std::isfinite(p) && p < 1e-4) return TableCell::number_text(p, "<0.0001");
  return TableCell::number(p, 4);
}

const char* side_name(PairSide s) {
  switch (s) {
    case PairSide::kAAhead: return "a";
    case PairSide::kBAhead: return "b";
    case PairSide::kEqual: return "equal";
    case PairSide::kAOnly: return "a only";
    case PairSide::kBOnly: return "b only";
  }
  return "?";
}

// "tg128 t/s", "TTFT pp512 ms", "tg128 J/token", "tg128 in EUR per Mtok" when the rows hold one
// test; else the metric's kind: "tg t/s", "TTFT ms", ...
std::string unit_test_text(Metric metric, const std::set<std::string>& tests) {
  const std::string unit = metric_info(metric).unit;
  if (tests.size() == 1) {
    std::string t = *tests.begin();
    if (t.starts_with("ttft ")) t = "TTFT " + t.substr(5);
    return t + " " + unit;
  }
  switch (metric) {
    case Metric::kPp: return "pp " + unit;
    case Metric::kTtft: return "TTFT " + unit;
    case Metric::kCost: return "cost " + unit;
    default: return "tg " + unit;
  }
}

}  // namespace

bool answers_metric(Metric metric) {
  switch (metric) {
    case Metric::kPp:
    case Metric::kTg:
    case Metric::kTtft:
    case Metric::kTgEnergy:
    case Metric::kCost: return true;
    default: return false;
  }
}

std::span<const Metric> answer_metrics() {
  static constexpr Metric kOrder[] = {Metric::kTg, Metric::kPp, Metric::kTtft, Metric::kTgEnergy, Metric::kCost};
  return kOrder;
}

std::string change_text(double change) {
  if (!std::isfinite(change)) return "";
  const double pct = 100 * change;
  const double mag = std::fabs(pct);
  const std::string digits = format_fixed(mag, mag < 1 ? 1 : 0);
  if (digits == "0" || digits == "0.0") return "±0 %";
  return (pct < 0 ? "\u2212" : "+") + digits + " %";
}

Answers find_answers(const Comparison& compared, Metric metric) {
  Answers ans;
  ans.metric = metric;
  const double alpha = compared.alpha;
  ans.alpha = alpha;
  if (!answers_metric(metric)) return ans;
  // By model the columns are models: a synthetic one's recipe is said once too, as the items'
  // (#37: "(synthetic v2, seed 42)" after every model of compare --by model --across-sizes).
  std::map<std::size_t, std::string> column_labels;
  for (std::size_t i = 0; i < compared.columns.size(); ++i) column_labels[i] = compared.columns[i];
  const std::string columns_note = take_common_synthetic(column_labels);
  Comparison cmp = compared;
  for (const auto& [i, label] : column_labels) cmp.columns[i] = label;
  auto items = item_labels(cmp, metric);
  ans.items_note = take_common_synthetic(items);
  if (ans.items_note.empty()) ans.items_note = columns_note;
  std::set<std::string> tests;
  const std::vector<std::string> servers = row_servers(cmp);
  for (const auto& [i, label] : items) tests.insert(tagged_test(cmp.rows[i], servers));
  ans.unit_test = unit_test_text(metric, tests);

  // Pairs.
  const std::size_t n = cmp.columns.size();
  for (std::size_t x = 0; x < n; ++x) {
    for (std::size_t y = x + 1; y < n; ++y) {
      if (!comparable_columns(cmp, x, y)) continue;  // by model, two sizes: not the question
      PairAnswer pa;
      pa.a = x;
      pa.b = y;
      for (const auto& [i, label] : items) {
        const Cell& cx = cmp.rows[i].cells[x];
        const Cell& cy = cmp.rows[i].cells[y];
        if (cx.state == CellState::kMissing || cy.state == CellState::kMissing) continue;
        if (cx.state == CellState::kWontFit && cy.state == CellState::kWontFit) continue;
        PairItem it;
        it.item = label;
        it.row = i;
        if (cx.state == CellState::kWontFit || cy.state == CellState::kWontFit) {
          it.side = cx.state == CellState::kMeasured ? PairSide::kAOnly : PairSide::kBOnly;
          it.mean_a = cx.state == CellState::kMeasured ? cx.summary.mean : std::nan("");
          it.mean_b = cy.state == CellState::kMeasured ? cy.summary.mean : std::nan("");
          it.significant = true;
        } else {
          it.mean_a = cx.summary.mean;
          it.mean_b = cy.summary.mean;
          it.change = it.mean_a / it.mean_b - 1;
          it.side = better(metric, it.mean_a, it.mean_b)   ? PairSide::kAAhead
                    : better(metric, it.mean_b, it.mean_a) ? PairSide::kBAhead
                                                           : PairSide::kEqual;
          const CellsTest t = test_cells(cmp.rows[i], cx, cy, alpha);
          it.p = t.p;
          it.noise = noise_of(cx, cy);
          it.significant = it.side != PairSide::kEqual && t.significant;
          it.inconclusive = it.side != PairSide::kEqual && t.inconclusive;
        }
        pa.items.push_back(std::move(it));
      }
      if (pa.items.empty()) continue;
      auto count = [&](PairSide ahead, PairSide only) {
        int c = 0;
        for (const PairItem& it : pa.items) c += (it.side == ahead && it.significant) || it.side == only;
        return c;
      };
      pa.a_ahead = count(PairSide::kAAhead, PairSide::kAOnly);
      pa.b_ahead = count(PairSide::kBAhead, PairSide::kBOnly);
      auto largest_lead = [&](PairSide side) {
        double m = 0;
        for (const PairItem& it : pa.items) {
          if (it.side == side && it.significant) m = std::max(m, std::fabs(std::log(it.mean_a / it.mean_b)));
        }
        return m;
      };
      // a is the one ahead on more items (ties: on the larger lead).
      if (pa.b_ahead > pa.a_ahead ||
          (pa.b_ahead == pa.a_ahead && largest_lead(PairSide::kBAhead) > largest_lead(PairSide::kAAhead))) {
        std::swap(pa.a, pa.b);
        std::swap(pa.a_ahead, pa.b_ahead);
        for (PairItem& it : pa.items) {
          std::swap(it.mean_a, it.mean_b);
          if (std::isfinite(it.change)) it.change = it.mean_a / it.mean_b - 1;
          switch (it.side) {
            case PairSide::kAAhead: it.side = PairSide::kBAhead; break;
            case PairSide::kBAhead: it.side = PairSide::kAAhead; break;
            case PairSide::kAOnly: it.side = PairSide::kBOnly; break;
            case PairSide::kBOnly: it.side = PairSide::kAOnly; break;
            case PairSide::kEqual: break;
          }
        }
      }
      pa.reversal = pa.a_ahead > 0 && pa.b_ahead > 0;
      // a's leads first, largest first; then even; then b's leads, largest first; then "only".
      auto order = [](const PairItem& it) {
        switch (it.side) {
          case PairSide::kAAhead: return 0;
          case PairSide::kEqual: return 1;
          case PairSide::kBAhead: return 2;
          case PairSide::kAOnly: return 3;
          case PairSide::kBOnly: return 4;
        }
        return 5;
      };
      std::stable_sort(pa.items.begin(), pa.items.end(), [&](const PairItem& l, const PairItem& r) {
        if (order(l) != order(r)) return order(l) < order(r);
        return std::isfinite(l.change) && std::isfinite(r.change) && std::fabs(l.change) > std::fabs(r.change);
      });
      pa.sentence = pair_sentence(cmp, pa, metric);
      ans.pairs.push_back(std::move(pa));
    }
  }

  // Rankings.
  for (const auto& [i, label] : items) {
    const Row& row = cmp.rows[i];
    if (row.verdict == "sizes differ") continue;  // by model, a row of several sizes ranks nothing
    RankingAnswer r;
    r.item = label;
    r.row = i;
    std::vector<RankEntry> refused;
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (row.cells[c].state == CellState::kMeasured) r.order.push_back({c, row.cells[c].summary.mean, true});
      if (row.cells[c].state == CellState::kWontFit) refused.push_back({c, std::nan(""), false});
    }
    if (r.order.empty() || r.order.size() + refused.size() < 2) continue;
    std::stable_sort(r.order.begin(), r.order.end(),
                     [&](const RankEntry& l, const RankEntry& rr) { return better(metric, l.mean, rr.mean); });
    if (r.order.size() == 1) {
      r.clear = true;  // the only one that fits
    } else {
      // The row's own test (rank_row): the table's winner and this leader are one decision.
      r.p = row.p;
      r.clear = row.winner == static_cast<int>(r.order[0].column);
      r.inconclusive = row.verdict == kInconclusiveVerdict;
      r.noise = noise_of(row.cells[r.order[0].column], row.cells[r.order[1].column]);
    }
    r.order.insert(r.order.end(), refused.begin(), refused.end());
    ans.rankings.push_back(std::move(r));
  }
  if (!ans.rankings.empty()) {
    const std::size_t first = ans.rankings.front().order.front().column;
    const bool everywhere = std::all_of(ans.rankings.begin(), ans.rankings.end(), [&](const RankingAnswer& r) {
      return r.clear && r.order.front().column == first;
    });
    if (everywhere) ans.universal_winner = static_cast<int>(first);
  }
  // Items no column could run: every cell of the row that is not missing is "does not fit".
  for (const auto& [i, label] : items) {
    std::vector<std::string> refused;
    bool measured = false;
    for (std::size_t c = 0; c < cmp.rows[i].cells.size(); ++c) {
      measured = measured || cmp.rows[i].cells[c].state == CellState::kMeasured;
      if (cmp.rows[i].cells[c].state == CellState::kWontFit) refused.push_back(cmp.columns[c]);
    }
    if (measured || refused.empty()) continue;
    std::string list = refused.front();
    for (std::size_t k = 1; k < refused.size(); ++k) list += (k + 1 == refused.size() ? " or " : ", ") + refused[k];
    ans.fits_nowhere.push_back(label + " does not fit on " + list + " (no run of it fits).");
  }
  ans.headline = headline(cmp, ans);
  if (!ans.headline.empty()) ans.sentences.push_back(ans.headline);
  ans.sentences.insert(ans.sentences.end(), ans.fits_nowhere.begin(), ans.fits_nowhere.end());
  for (const PairAnswer& pa : ans.pairs) {
    if (pa.reversal) ans.sentences.push_back(pa.sentence);
  }
  // Two columns and one clear leader everywhere: the headline is the pair's answer already
  // ("b is fastest on every model ..." then "b is faster than a on every model ..." said it twice).
  const bool headline_is_the_pair = n == 2 && ans.universal_winner >= 0;
  for (const PairAnswer& pa : ans.pairs) {
    if (!pa.reversal && !headline_is_the_pair) ans.sentences.push_back(pa.sentence);
  }
  return ans;
}

Table pairs_table(const Comparison& cmp, const Answers& ans) {
  const Words& w = words(ans.metric);
  const std::string unit = metric_info(ans.metric).unit;
  // The item ("SmolLM2-135M Q4_0 (synthetic) tg16 (knobs differ)") and the verdict wrap at their
  // spaces where the table would pass 120 columns (it was 124).
  TableColumn item{"item", item_noun(cmp.by)}, verdict_col{"verdict", "verdict"};
  item.wrap = verdict_col.wrap = true;
  Table t({{"a", "a"},
           {"b", "b"},
           item,
           {std::string("a_") + w.key, "a " + unit, Align::kRight},
           {std::string("b_") + w.key, "b " + unit, Align::kRight},
           {"change", "a vs b", Align::kRight},
           {"p", "p", Align::kRight},
           verdict_col});
  for (const PairAnswer& pa : ans.pairs) {
    for (const PairItem& it : pa.items) {
      std::string verdict;
      switch (it.side) {
        case PairSide::kAAhead:
        case PairSide::kBAhead:
          verdict = !it.significant ? (std::isnan(it.p)  ? "untested"
                                       : it.inconclusive ? "inconclusive"
                                                         : "not significant")
                                    : (it.side == PairSide::kAAhead ? "a ahead" : "b ahead");
          break;
        case PairSide::kEqual: verdict = "even"; break;
        case PairSide::kAOnly: verdict = "only a fits"; break;
        case PairSide::kBOnly: verdict = "only b fits"; break;
      }
      t.add_row({TableCell::str(cmp.columns[pa.a]), TableCell::str(cmp.columns[pa.b]), TableCell::str(it.item),
                 TableCell::number(it.mean_a, w.decimals, "does not fit"),
                 TableCell::number(it.mean_b, w.decimals, "does not fit"),
                 TableCell::number_text(it.change, change_text(it.change)), p_cell(it.p), TableCell::str(verdict)});
    }
  }
  return t;
}

Table rankings_table(const Comparison& cmp, const Answers& ans) {
  const Words& w = words(ans.metric);
  const char* order = metric_info(ans.metric).higher_is_better ? " > " : " < ";
  // The ranking wraps between its entries only: a column's name (a build, a machine) stays whole.
  Table t({{"item", item_noun(cmp.by)},
           {"ranking", "ranking (" + ans.unit_test + ")", Align::kLeft, false, false, true, order},
           {"leader", "leader"},
           {"p", "p", Align::kRight}});
  for (const RankingAnswer& r : ans.rankings) {
    std::vector<std::string> parts;
    for (const RankEntry& e : r.order) {
      parts.push_back(cmp.columns[e.column] + " " + (e.fits ? format_fixed(e.mean, w.decimals) : std::string("does not fit")));
    }
    t.add_row({TableCell::str(r.item), TableCell::str(join(parts, order)),
               TableCell::str(r.clear ? cmp.columns[r.order.front().column] : "no clear leader"), p_cell(r.p)});
  }
  return t;
}

Json answers_json(const Comparison& cmp, const Answers& ans) {
  const Words& w = words(ans.metric);
  Json pairs = Json::array();
  for (const PairAnswer& pa : ans.pairs) {
    Json items = Json::array();
    for (const PairItem& it : pa.items) {
      items.push_back({{"item", it.item},
                       {"side", side_name(it.side)},
                       {std::string("a_") + w.key, json_number(it.mean_a)},
                       {std::string("b_") + w.key, json_number(it.mean_b)},
                       {"change", json_number(it.change)},
                       {"p", json_number(it.p)},
                       {"significant", it.significant},
                       {"inconclusive", it.inconclusive},
                       {"noise", it.noise}});
    }
    pairs.push_back({{"a", cmp.columns[pa.a]},
                     {"b", cmp.columns[pa.b]},
                     {"reversal", pa.reversal},
                     {"a_ahead", pa.a_ahead},
                     {"b_ahead", pa.b_ahead},
                     {"sentence", pa.sentence},
                     {"items", items}});
  }
  Json rankings = Json::array();
  for (const RankingAnswer& r : ans.rankings) {
    Json order = Json::array();
    for (const RankEntry& e : r.order) {
      order.push_back({{"column", cmp.columns[e.column]}, {std::string("mean_") + w.key, json_number(e.mean)}, {"fits", e.fits}});
    }
    rankings.push_back({{"item", r.item}, {"order", order}, {"clear", r.clear}, {"p", json_number(r.p)}, {"noise", r.noise}});
  }
  return {{"metric", metric_info(ans.metric).key},
          {"unit_test", ans.unit_test},
          {"items_note", ans.items_note},
          {"alpha", ans.alpha},
          {"headline", ans.headline},
          {"sentences", ans.sentences},
          {"fits_nowhere", ans.fits_nowhere},
          {"universal_winner", ans.universal_winner >= 0 ? Json(cmp.columns[ans.universal_winner]) : Json(nullptr)},
          {"pairs", pairs},
          {"rankings", rankings}};
}

void print_answer_sentences(const std::vector<Answers>& answers, std::ostream& out) {
  for (const Answers& a : answers) {
    if (a.sentences.empty()) continue;
    out << paragraph_lines("Answers (" + a.unit_test + (a.items_note.empty() ? "" : "; models: " + a.items_note) +
                           "; significant: Welch's t-test, two-sided, alpha " + shortest(a.alpha) + "):");
    for (const std::string& s : a.sentences) out << paragraph_lines("- " + s, "  ");
    out << "\n";
  }
  out << std::flush;
}

void print_answer_tables(const Comparison& cmp, const std::vector<Answers>& answers, std::ostream& out) {
  for (const Answers& a : answers) {
    if (a.pairs.empty() && a.rankings.empty()) continue;
    if (!a.rankings.empty()) {
      out << "\nRanking per " << item_noun(cmp.by) << " (" << a.unit_test << "):\n\n"
          << markdown_table(rankings_table(cmp, a));
    }
    if (!a.pairs.empty()) {
      out << "\nPairs (" << a.unit_test << "; change = a / b - 1):\n\n" << markdown_table(pairs_table(cmp, a));
    }
  }
  out << std::flush;
}

}  // namespace rigbench::report
