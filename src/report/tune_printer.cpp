#include "report/tune_printer.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/knobs.h"
#include "core/llama_commands.h"
#include "core/noise_note.h"
#include "core/significance.h"
#include "core/stats.h"
#include "core/strings.h"

namespace rigbench::report {

namespace {

using measure::RaceEntry;
using measure::RaceStatus;
using measure::TuneResult;

// The race entry of candidate i, or nullptr when it was not raced.
const RaceEntry* entry_of(const TuneResult& r, int i) {
  const auto it = std::find(r.raced.begin(), r.raced.end(), i);
  if (it == r.raced.end()) return nullptr;
  return &r.race.entries[static_cast<size_t>(it - r.raced.begin())];
}

bool has_samples(const RaceEntry* e) { return e && (!e->samples.empty() || !e->screen_samples.empty()); }

// It was measured, or its trial failed (a server that did not start: its error is its reason).
bool ran(const RaceEntry* e) { return has_samples(e) || (e && e->status == RaceStatus::kFailed); }

// The figures a candidate is shown with: the full test's, else the screen's.
struct Figures {
  double mean = std::nan(""), low = std::nan(""), high = std::nan("");
  int n = 0;
  bool screen = false;  // the figures are the screen's (a shorter test)
};

Figures figures_of(const RaceEntry* e) {
  Figures f;
  if (!has_samples(e)) return f;
  f.screen = e->samples.empty();
  const auto& s = f.screen ? e->screen_samples : e->samples;
  const Summary sum = summarize(s);
  f.mean = sum.mean;
  f.n = static_cast<int>(s.size());
  if (const auto ci = mean_interval(sum)) {
    f.low = ci->low;
    f.high = ci->high;
  }
  return f;
}

std::string p_text(double p) {
  if (!std::isfinite(p)) return "p n/a";
  if (p < 0.001) return "p < 0.001";
  return "p = " + format_fixed(p, 3);
}

std::string pct_text(double pct) {
  if (!std::isfinite(pct)) return "?";
  return (pct >= 0 ? "+" : "") + format_fixed(pct, 1) + " %";
}

std::string where_out(const RaceEntry& e) {
  return e.round_out == 0 ? "in the screen" : "in round " + std::to_string(e.round_out);
}

// Whom a gap is measured against: a screened-out candidate's figures and gap are the screen's
// shorter test, against the screen's leader, never against the table's full-test figures (a
// screen figure above the winner's read "-29.7 %").
std::string against(const RaceEntry& e) { return e.round_out == 0 ? " vs the screen's leader" : ""; }

// The knobs that vary among the candidates, as flags a user types ("-t 2 -fa on").
std::string settings_text(const TuneResult& r, const BenchParams& p) {
  std::vector<std::string> parts;
  for (const std::string& key : r.varied) {
    const Knob* k = find_knob(key);
    if (k) parts.push_back(knob_flag_name(*k).substr(0, knob_flag_name(*k).find('/')) + " " + knob_text(*k, p));
  }
  return join(parts, " ");
}

int rank_of(const std::vector<int>& order, int i) {
  return static_cast<int>(std::find(order.begin(), order.end(), i) - order.begin()) + 1;
}

// Why candidate i stands where it does, one phrase.
std::string reason(const TuneReport& rep, const std::vector<int>& order, int i) {
  const TuneResult& r = *rep.result;
  const auto& c = r.candidates[static_cast<size_t>(i)];
  if (!c.dropped.empty()) return (c.does_not_fit ? "does not fit: " : "refused: ") + c.dropped;
  const RaceEntry* e = entry_of(r, i);
  if (!ran(e)) return "not run: the race ended first";
  switch (e->status) {
    case RaceStatus::kWinner: {
      if (r.race.screen_only) return "best so far, by the screen's shorter test (interrupted)";
      if (r.race.runner_up < 0) return "winner (no other candidate ran the full test)";
      const int ru = r.raced[static_cast<size_t>(r.race.runner_up)];
      std::string s = "winner: " + pct_text(r.race.lead_pct) + " over #" + std::to_string(rank_of(order, ru)) + ", " +
                      p_text(r.race.p_value);
      if (r.race.end == measure::RaceEnd::kTie) s += "; a tie within ±" + format_fixed(rep.spec->race.tie_pct, 1) + " %";
      if (r.race.end == measure::RaceEnd::kTooClose) s += "; too close to call";
      if (r.race.end == measure::RaceEnd::kBudget) s += "; the time budget ended the race";
      if (r.race.end == measure::RaceEnd::kInterrupted) s += "; interrupted";
      return s;
    }
    case RaceStatus::kContender:
      return "still in the race: " + pct_text(e->gap_pct) + ", " + p_text(e->p_value);
    case RaceStatus::kSlower:
      return "slower " + where_out(*e) + ": " + pct_text(e->gap_pct) + against(*e) + ", " + p_text(e->p_value);
    case RaceStatus::kHalved:
      // Left by rank, not by the test (docs/tune.md): said as what it was.
      return std::string(e->round_out == 0 ? "not in the screen's best third"
                                           : "in the slower half of round " + std::to_string(e->round_out)) +
             " by mean: " + pct_text(e->gap_pct) + against(*e) + ", " + p_text(e->p_value);
    case RaceStatus::kFailed:
      return "failed: " + e->error;
  }
  return "";
}

// Group of a candidate in the ranking: 0 winner, 1 reached rounds (by round_out desc), 2 screen, 3 failed, 4 not run, 5 dropped.
int group_of(const TuneResult& r, int i) {
  if (!r.candidates[static_cast<size_t>(i)].dropped.empty()) return 5;
  const RaceEntry* e = entry_of(r, i);
  if (!ran(e)) return 4;
  if (e->status == RaceStatus::kWinner) return 0;
  if (e->status == RaceStatus::kFailed) return 3;
  return e->samples.empty() ? 2 : 1;
}

// `full_reasons`: each row's reason in full (csv); else a dropped candidate's reason goes to
// `dropped_reasons` once and its row says "refused (note N)".
Table candidate_table(const TuneReport& rep, const std::vector<int>& order, bool full_reasons,
                      std::vector<std::string>& dropped_reasons) {
  const TuneResult& r = *rep.result;
  std::vector<TableColumn> cols = {{"rank", "#", Align::kRight}};
  for (const std::string& key : r.varied) {
    const Knob* k = find_knob(key);
    cols.push_back({key, k ? k->header : key, k && k->type == Knob::Type::kInt ? Align::kRight : Align::kLeft});
  }
  const std::string unit = measure::objective_unit(*rep.spec);
  const std::string u = unit == "ms" ? "ms" : unit == "req/s" ? "rps" : "tps";
  cols.push_back({"mean_" + u, measure::objective_label(*rep.spec), Align::kRight});
  cols.push_back({"ci95_low_" + u, "95 % interval", Align::kRight});
  cols.push_back({"ci95_high_" + u, "", Align::kRight, false, true});
  cols.push_back({"n", "n", Align::kRight});
  cols.push_back({"screen", "screen", Align::kLeft, false, true});
  cols.push_back({"status", "status", Align::kLeft, false, true});
  cols.push_back({"p_value", "p", Align::kRight, false, true});
  cols.push_back({"gap_pct", "gap %", Align::kRight, false, true});
  TableColumn why{"result", "result"};
  why.wrap = true;
  cols.push_back(why);
  Table t(cols);
  for (int i : order) {
    const auto& c = r.candidates[static_cast<size_t>(i)];
    const RaceEntry* e = entry_of(r, i);
    const Figures f = figures_of(e);
    std::vector<TableCell> row = {TableCell::integer(rank_of(order, i))};
    for (const std::string& key : r.varied) {
      const Knob* k = find_knob(key);
      row.push_back(TableCell::str(k ? knob_text(*k, c.test.params) : ""));
    }
    row.push_back(std::isfinite(f.mean) ? TableCell::number_text(f.mean, format_fixed(f.mean, 2) + (f.screen ? "*" : ""))
                                        : TableCell::number(f.mean, 2));
    row.push_back(std::isfinite(f.low) ? TableCell::number_text(f.low, format_fixed(f.low, 2) + "-" + format_fixed(f.high, 2))
                                       : TableCell::absent());
    row.push_back(TableCell::number(f.high, 2));
    row.push_back(f.n > 0 ? TableCell::integer(f.n, std::to_string(f.n) + (f.screen ? "*" : "")) : TableCell::absent());
    row.push_back(TableCell::boolean(f.screen));
    row.push_back(TableCell::str(tune_candidate_status(r, i)));
    row.push_back(TableCell::number(e ? e->p_value : std::nan(""), 4));
    row.push_back(TableCell::number(e ? e->gap_pct : std::nan(""), 2));
    std::string why = reason(rep, order, i);
    if (!c.dropped.empty() && !full_reasons) {
      // md: a dropped candidate's reason once, as a note; the row names it.
      const std::string note = why;
      auto at = std::find(dropped_reasons.begin(), dropped_reasons.end(), note);
      if (at == dropped_reasons.end()) at = dropped_reasons.insert(dropped_reasons.end(), note);
      why = std::string(c.does_not_fit ? "does not fit" : "refused") + " (note " +
            std::to_string(at - dropped_reasons.begin() + 1) + ")";
    }
    row.push_back(TableCell::str(why));
    t.add_row(std::move(row));
  }
  return t;
}

nlohmann::json settings_json(const TuneResult& r, const BenchParams& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const std::string& key : r.varied) {
    const Knob* k = find_knob(key);
    if (!k) continue;
    if (k->type == Knob::Type::kInt) j[key] = p.*(k->int_field);
    else j[key] = p.*(k->text_field);
  }
  return j;
}

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json candidate_json(const TuneReport& rep, const std::vector<int>& order, int i) {
  const TuneResult& r = *rep.result;
  const auto& c = r.candidates[static_cast<size_t>(i)];
  const RaceEntry* e = entry_of(r, i);
  const Figures f = figures_of(e);
  nlohmann::json j;
  j["tune_id"] = r.tune_id;
  j["rank"] = rank_of(order, i);
  j["settings"] = settings_json(r, c.test.params);
  j["status"] = tune_candidate_status(r, i);
  j["mean"] = number_or_null(f.mean);
  j["ci95_low"] = number_or_null(f.low);
  j["ci95_high"] = number_or_null(f.high);
  j["n"] = f.n;
  j["screen_only"] = f.screen;
  j["round_out"] = e ? nlohmann::json(e->round_out) : nlohmann::json(nullptr);
  j["gap_pct"] = number_or_null(e ? e->gap_pct : std::nan(""));
  j["p_value"] = number_or_null(e ? e->p_value : std::nan(""));
  j["trial_seconds"] = e ? e->seconds : 0.0;
  j["reason"] = reason(rep, order, i);
  return j;
}

nlohmann::json commands_json(const LlamaCommands& cmd) {
  nlohmann::json j;
  j["llama_server"] = cmd.server;
  j["llama_cli"] = cmd.cli;
  j["llama_bench"] = cmd.bench;
  nlohmann::json params = nlohmann::json::object(), env = nlohmann::json::object();
  for (const auto& [k, v] : cmd.ollama_parameters) params[k] = v;
  for (const auto& [k, v] : cmd.ollama_environment) env[k] = v;
  j["ollama_parameters"] = params;
  j["ollama_environment"] = env;
  j["ollama_unmapped"] = cmd.ollama_unmapped;
  return j;
}

nlohmann::json run_json(const TuneReport& rep, const std::vector<int>& order) {
  const TuneResult& r = *rep.result;
  const measure::TuneSpec& spec = *rep.spec;
  nlohmann::json j;
  j["tune_id"] = r.tune_id;
  j["model"] = rep.model_name;
  j["model_path"] = rep.model_path;
  j["objective"] = measure::tune_objective_name(spec.objective);
  j["metric"] = measure::objective_label(spec);
  j["unit"] = measure::objective_unit(spec);
  j["n_ctx"] = spec.n_ctx;
  j["n_parallel"] = spec.n_parallel;
  j["n_depth"] = spec.n_depth;
  if (spec.objective == measure::TuneObjective::kServe) {
    j["concurrency"] = spec.serve.concurrency;
    j["num_requests"] = measure::serve_requests_per_run(spec.serve);
    j["slo"] = spec.serve.slo_text;
  }
  j["varied"] = r.varied;
  j["candidates_total"] = r.candidates.size();
  j["candidates_raced"] = r.raced.size();
  j["end"] = measure::race_end_name(r.race.end);
  j["rounds"] = r.race.rounds;
  j["trials"] = r.trials;
  j["disturbed_trials"] = r.disturbed_trials;
  j["machine_noise"] = nlohmann::json::array();
  for (const NoiseNote& n : r.machine_noise)
    j["machine_noise"].push_back({{"code", n.code}, {"note", noise_note_text(n)}});
  j["trial_seconds"] = r.race.seconds;
  j["budget_s"] = spec.race.budget_s;
  j["alpha"] = spec.race.alpha;
  if (r.race.winner >= 0) {
    const int w = r.raced[static_cast<size_t>(r.race.winner)];
    nlohmann::json win = candidate_json(rep, order, w);
    win.erase("tune_id");
    win["lead_pct"] = number_or_null(r.race.lead_pct);
    win["p_value"] = number_or_null(r.race.p_value);
    win["commands"] = commands_json(llama_commands(r.candidates[static_cast<size_t>(w)].test.params, rep.model_path,
                                                   spec.n_parallel, rep.gpu));
    j["winner"] = win;
  } else {
    j["winner"] = nullptr;
  }
  return j;
}

// The lines below the md table: the winner and how sure (a paragraph, wrapped at 120 columns),
// and its commands (whole lines, never wrapped, so that they can be copied).
std::string winner_lines(const TuneReport& rep, const std::vector<int>& order) {
  const TuneResult& r = *rep.result;
  if (r.race.winner < 0) return "no winner: no candidate finished a trial\n";
  const int w = r.raced[static_cast<size_t>(r.race.winner)];
  const auto& c = r.candidates[static_cast<size_t>(w)];
  const Figures f = figures_of(&r.race.entries[static_cast<size_t>(r.race.winner)]);
  std::string line = "winner: " + settings_text(r, c.test.params) + ": " + measure::objective_label(*rep.spec) + " " +
                     format_fixed(f.mean, 2);
  if (std::isfinite(f.low)) line += " (95 % interval " + format_fixed(f.low, 2) + "-" + format_fixed(f.high, 2) + ")";
  line += ", " + std::to_string(f.n) + " repetitions";
  if (r.race.runner_up >= 0) {
    const int ru = r.raced[static_cast<size_t>(r.race.runner_up)];
    line += "; " + pct_text(r.race.lead_pct) + " over the runner-up (#" + std::to_string(rank_of(order, ru)) + "), " +
            p_text(r.race.p_value);
  }
  const LlamaCommands cmd = llama_commands(c.test.params, rep.model_path, rep.spec->n_parallel, rep.gpu);
  std::vector<std::string> params, env;
  for (const auto& [k, v] : cmd.ollama_parameters) params.push_back("PARAMETER " + k + " " + v);
  for (const auto& [k, v] : cmd.ollama_environment) env.push_back(k + "=" + v);
  std::string ollama = "  Ollama Modelfile: " + join(params, "; ");
  if (!env.empty()) ollama += "; server environment: " + join(env, " ");
  if (!cmd.ollama_unmapped.empty()) ollama += "; no Ollama setting for " + join(cmd.ollama_unmapped, ", ");
  return paragraph_lines(line) + "  " + cmd.server + "\n  " + cmd.cli + "\n  " + cmd.bench + "\n" + ollama + "\n";
}

// What fit planned and what a sample is: the KV cache of -np sequences; serve's load runs.
std::string plan_note(const measure::TuneSpec& spec) {
  const std::string np = std::to_string(spec.n_parallel);
  std::string note = "fit planned every candidate at n_ctx " + std::to_string(spec.n_ctx) + " for " + np +
                     (spec.n_parallel > 1 ? " sequences (-np " + np + ": a KV stream of n_ctx / " + np +
                                                " cells each, as llama-server allocates them)"
                                          : " sequence (-np 1)");
  if (spec.objective == measure::TuneObjective::kServe) {
    note += "; each sample is one serve-bench load run of " +
            std::to_string(measure::serve_requests_per_run(spec.serve)) + " requests at concurrency " +
            std::to_string(spec.serve.concurrency) + " against a llama-server started with the candidate's flags";
  } else if (spec.n_parallel > 1) {
    note += "; the trials run one sequence in-process";
  }
  return note;
}

bool any_screen_figures(const TuneResult& r) {
  for (size_t k = 0; k < r.raced.size(); ++k) {
    if (figures_of(&r.race.entries[k]).screen) return true;
  }
  return false;
}

}  // namespace

std::string tune_candidate_status(const TuneResult& r, int i) {
  const auto& c = r.candidates[static_cast<size_t>(i)];
  if (!c.dropped.empty()) return c.does_not_fit ? "does_not_fit" : "refused";
  const RaceEntry* e = entry_of(r, i);
  if (!ran(e)) return "not_run";
  return race_status_name(e->status);
}

std::vector<int> tune_ranking(const TuneResult& r, bool lower_is_better) {
  std::vector<int> order(r.candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  const double sign = lower_is_better ? -1 : 1;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const int ga = group_of(r, a), gb = group_of(r, b);
    if (ga != gb) return ga < gb;
    if (ga == 1 || ga == 2) {
      const RaceEntry* ea = entry_of(r, a);
      const RaceEntry* eb = entry_of(r, b);
      if (ga == 1 && ea->round_out != eb->round_out) return ea->round_out > eb->round_out;
      return sign * (figures_of(ea).mean - figures_of(eb).mean) > 0;
    }
    return false;
  });
  return order;
}

// How the race ended, for people (json keeps race_end_name's word): "too close to call at 24
// repetitions (the best mean wins)" read "too_close".
static std::string race_end_text(const TuneResult& r, const measure::TuneSpec& spec) {
  switch (r.race.end) {
    case measure::RaceEnd::kDecided: return "decided";
    case measure::RaceEnd::kTie: return "a tie within ±" + format_fixed(spec.race.tie_pct, 1) + " % (either will do)";
    case measure::RaceEnd::kTooClose:
      return "too close to call at " + std::to_string(spec.race.max_repetitions) + " repetitions (the best mean wins)";
    case measure::RaceEnd::kBudget: return "the time budget (--max-time)";
    case measure::RaceEnd::kInterrupted: return "interrupted";
    case measure::RaceEnd::kNoneLeft: return "no candidate left";
  }
  return measure::race_end_name(r.race.end);
}

std::string machine_noise_note(const TuneResult& r) {
  if (r.disturbed_trials == 0) return "";
  std::vector<std::string> seen;
  for (const NoiseNote& n : r.machine_noise) seen.push_back(n.code + ": " + noise_note_text(n));
  return "noisy machine: " + std::to_string(r.disturbed_trials) + " of " + std::to_string(r.trials) +
         " trials ran while the machine was disturbed (" + join(seen, "; ") +
         "). The race compares trials run one after another, so this can move a candidate's figures and the "
         "verdicts above; re-run tune on a quiet machine to be sure.";
}

void print_tune(const TuneReport& rep, OutputFormat format, std::ostream& out) {
  const TuneResult& r = *rep.result;
  const std::vector<int> order = tune_ranking(r, rep.spec->objective == measure::TuneObjective::kTtft);
  if (format == OutputFormat::kJson) {
    nlohmann::json j = run_json(rep, order);
    j["candidates"] = nlohmann::json::array();
    for (int i : order) j["candidates"].push_back(candidate_json(rep, order, i));
    out << j.dump(2) << "\n";
    out.flush();
    return;
  }
  if (format == OutputFormat::kJsonl) {
    for (int i : order) out << candidate_json(rep, order, i).dump() << "\n";
    out << run_json(rep, order).dump() << "\n";
    out.flush();
    return;
  }
  std::vector<std::string> dropped_reasons;
  Table t = candidate_table(rep, order, format == OutputFormat::kCsv, dropped_reasons);
  const measure::TuneSpec& spec = *rep.spec;
  if (format == OutputFormat::kCsv) {
    render(t, format, out);
    return;
  }
  const size_t dropped = r.candidates.size() - r.raced.size();
  t.add_preamble("tune: " + rep.model_name + ", " + measure::objective_label(spec) + " at n_ctx " +
                 std::to_string(spec.n_ctx) +
                 (spec.n_parallel > 1 ? ", " + std::to_string(spec.n_parallel) + " slots" : "") + "; " +
                 std::to_string(r.candidates.size()) + " candidates, " + std::to_string(r.raced.size()) + " raced" +
                 (dropped ? ", " + std::to_string(dropped) + " dropped" : "") + "; " + std::to_string(r.trials) +
                 " trials in " + format_fixed(r.race.seconds, 0) + " s (budget " + format_fixed(spec.race.budget_s, 0) +
                 " s); ended: " + race_end_text(r, spec));
  render(t, format, out);
  out << "\n" << winner_lines(rep, order) << "\n";
  for (size_t k = 0; k < dropped_reasons.size(); ++k) {
    out << note_lines(std::to_string(k + 1) + ". " + dropped_reasons[k]);
  }
  std::string note = "p = Welch's one-sided test that a candidate is slower than the leader of the round it left "
                     "(alpha " + format_fixed(spec.race.alpha, 2) + "); every trial is stored with the tag tune:" +
                     r.tune_id;
  if (any_screen_figures(r)) {
    note = "* = figures and samples (n*) of the screen round" +
           std::string(spec.n_gen > 0 && spec.objective != measure::TuneObjective::kPp &&
                               spec.objective != measure::TuneObjective::kTtft &&
                               spec.objective != measure::TuneObjective::kServe
                           ? " (a quarter of the generated tokens: not comparable with the full test's figures)"
                           : "") +
           "; " + note;
  }
  out << note_lines(note);
  out << note_lines(plan_note(spec));
  if (const std::string noisy = machine_noise_note(r); !noisy.empty()) out << note_lines(noisy);
  out.flush();
}

}  // namespace rigbench::report
