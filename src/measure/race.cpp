#include "measure/race.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/stats.h"

namespace rigbench::measure {

const char* race_status_name(RaceStatus s) {
  switch (s) {
    case RaceStatus::kWinner: return "winner";
    case RaceStatus::kContender: return "contender";
    case RaceStatus::kSlower: return "slower";
    case RaceStatus::kHalved: return "halved";
    case RaceStatus::kFailed: return "failed";
  }
  return "";
}

const char* race_end_name(RaceEnd e) {
  switch (e) {
    case RaceEnd::kDecided: return "decided";
    case RaceEnd::kTie: return "tie";
    case RaceEnd::kTooClose: return "too_close";
    case RaceEnd::kBudget: return "budget";
    case RaceEnd::kInterrupted: return "interrupted";
    case RaceEnd::kNoneLeft: return "none_left";
  }
  return "";
}

double mean_of(const std::vector<double>& v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One race in progress: the entries, the candidates still in it, the time spent.
class Race {
 public:
  Race(int n, const RaceConfig& config, const TrialFn& trial) : config_(config), trial_(trial) {
    result_.entries.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) alive_.push_back(i);
  }

  RaceResult run() {
    if (alive_.empty()) return finish(RaceEnd::kNoneLeft);
    if (static_cast<int>(alive_.size()) > config_.screen_min_candidates) {
      if (!measure_round(config_.screen_repetitions, /*screen=*/true, 0)) return finish(RaceEnd::kInterrupted);
      if (alive_.empty()) return finish(RaceEnd::kNoneLeft);
      eliminate(/*screen=*/true, 0);
      const int keep = std::max(2, static_cast<int>(std::ceil(config_.screen_keep * static_cast<double>(alive_.size()))));
      halve(keep, /*screen=*/true, 0);
    }
    int target = config_.repetitions;
    for (int round = 1;; ++round) {
      if (round > 1 && over_budget(target)) return finish(RaceEnd::kBudget);
      if (!measure_round(target, /*screen=*/false, round)) return finish(RaceEnd::kInterrupted);
      result_.rounds = round;
      if (alive_.empty()) return finish(RaceEnd::kNoneLeft);
      eliminate(/*screen=*/false, round);
      if (alive_.size() == 1) return finish(RaceEnd::kDecided);
      if (all_tied()) return finish(RaceEnd::kTie);
      if (alive_.size() > 2) halve(static_cast<int>((alive_.size() + 1) / 2), /*screen=*/false, round);
      if (target >= config_.max_repetitions) return finish(RaceEnd::kTooClose);
      target = std::min(config_.max_repetitions, target * 2);
    }
  }

 private:
  RaceEntry& entry(int i) { return result_.entries[static_cast<size_t>(i)]; }
  const std::vector<double>& samples_of(int i, bool screen) {
    return screen ? entry(i).screen_samples : entry(i).samples;
  }
  // +1 when higher is better, -1 when lower is.
  double sign() const { return config_.lower_is_better ? -1.0 : 1.0; }
  // a's mean against b's, % of b's, positive when a is better.
  double gap_pct(double a, double b) const { return b == 0 ? kNaN : sign() * (a - b) / std::fabs(b) * 100.0; }

  // Brings every candidate alive to `target` samples (of the screen or the full test). A
  // failed trial takes its candidate out; false when cancelled (the samples so far kept).
  bool measure_round(int target, bool screen, int round) {
    std::vector<int> still;
    for (int i : alive_) {
      const int need = target - static_cast<int>(samples_of(i, screen).size());
      if (need <= 0) {
        still.push_back(i);
        continue;
      }
      TrialOutcome out = trial_(i, need, screen, round);
      RaceEntry& e = entry(i);
      e.seconds += out.seconds;
      result_.seconds += out.seconds;
      (screen ? screen_seconds_ : full_seconds_) += out.seconds;
      (screen ? screen_count_ : full_count_) += static_cast<int>(out.samples.size());
      auto& dst = screen ? e.screen_samples : e.samples;
      dst.insert(dst.end(), out.samples.begin(), out.samples.end());
      if (out.interrupted) {
        alive_.erase(std::remove_if(alive_.begin(), alive_.end(),
                                    [&](int j) { return entry(j).status == RaceStatus::kFailed; }),
                     alive_.end());
        return false;
      }
      if (!out.error.empty()) {
        e.status = RaceStatus::kFailed;
        e.error = out.error;
        e.round_out = round;
        continue;
      }
      still.push_back(i);
    }
    alive_ = std::move(still);
    return true;
  }

  // The best candidate alive by mean.
  int leader(bool screen) {
    int best = alive_.front();
    for (int i : alive_) {
      if (sign() * (mean_of(samples_of(i, screen)) - mean_of(samples_of(best, screen))) > 0) best = i;
    }
    return best;
  }

  // Welch's one-sided p-value that candidate i is slower than `lead`.
  double p_slower(int i, int lead, bool screen) {
    const auto& a = samples_of(i, screen);
    const auto& b = samples_of(lead, screen);
    const auto w = welch_t_test(a, b);
    if (!w) return kNaN;
    return config_.lower_is_better ? w->p_greater : w->p_less;
  }

  void mark_out(int i, int lead, RaceStatus status, bool screen, int round) {
    RaceEntry& e = entry(i);
    e.status = status;
    e.round_out = round;
    e.p_value = p_slower(i, lead, screen);
    e.gap_pct = gap_pct(mean_of(samples_of(i, screen)), mean_of(samples_of(lead, screen)));
  }

  // Every candidate that Welch's test calls slower than the leader leaves. The screen keeps
  // the best of the rest even then, so that the full test has a runner-up to measure the
  // winner's lead against.
  void eliminate(bool screen, int round) {
    const int lead = leader(screen);
    int keep_anyway = -1;
    if (screen) {
      for (int i : alive_) {
        if (i != lead && (keep_anyway < 0 || sign() * (mean_of(samples_of(i, true)) -
                                                       mean_of(samples_of(keep_anyway, true))) > 0))
          keep_anyway = i;
      }
    }
    std::vector<int> still;
    for (int i : alive_) {
      const double p = i == lead ? kNaN : p_slower(i, lead, screen);
      if (i != keep_anyway && std::isfinite(p) && p < config_.alpha) mark_out(i, lead, RaceStatus::kSlower, screen, round);
      else still.push_back(i);
    }
    alive_ = std::move(still);
  }

  // All but the best `keep` by mean leave.
  void halve(int keep, bool screen, int round) {
    if (static_cast<int>(alive_.size()) <= keep) return;
    std::stable_sort(alive_.begin(), alive_.end(), [&](int a, int b) {
      return sign() * (mean_of(samples_of(a, screen)) - mean_of(samples_of(b, screen))) > 0;
    });
    const int lead = alive_.front();
    for (size_t k = static_cast<size_t>(keep); k < alive_.size(); ++k) {
      mark_out(alive_[k], lead, RaceStatus::kHalved, screen, round);
    }
    alive_.resize(static_cast<size_t>(keep));
    std::sort(alive_.begin(), alive_.end());
  }

  // True when the 95 % interval of every survivor's difference from the leader lies within
  // ±tie_pct of the leader's mean (Welch's standard error and degrees of freedom).
  bool all_tied() {
    const int lead = leader(false);
    const Summary l = summarize(samples_of(lead, false));
    for (int i : alive_) {
      if (i == lead) continue;
      const Summary c = summarize(samples_of(i, false));
      const auto w = welch_t_test(samples_of(i, false), samples_of(lead, false));
      if (!w || l.n < 2 || c.n < 2) return false;
      const double se = std::sqrt(c.stddev * c.stddev / static_cast<double>(c.n) +
                                  l.stddev * l.stddev / static_cast<double>(l.n));
      const double t = se == 0 ? 0 : student_t_quantile((1 + kConfidenceLevel) / 2, w->df);
      if (!std::isfinite(t)) return false;
      if (std::fabs(c.mean - l.mean) + t * se > config_.tie_pct / 100.0 * std::fabs(l.mean)) return false;
    }
    return true;
  }

  // Whether bringing the survivors to `target` full samples would overrun the budget, at the
  // time per full sample seen so far (or the screen's, scaled, before any).
  bool over_budget(int target) const {
    double per_sample = 0;
    if (full_count_ > 0) per_sample = full_seconds_ / full_count_;
    else if (screen_count_ > 0) per_sample = screen_seconds_ / screen_count_ * config_.full_to_screen_cost;
    double need = 0;
    for (int i : alive_) {
      need += std::max(0, target - static_cast<int>(result_.entries[static_cast<size_t>(i)].samples.size())) * per_sample;
    }
    return result_.seconds + need > config_.budget_s;
  }

  RaceResult finish(RaceEnd end) {
    result_.end = end;
    // The winner: the best full-test mean among the candidates still in (else none).
    std::vector<int> ran;
    for (int i : alive_) {
      if (!entry(i).samples.empty()) ran.push_back(i);
    }
    if (!ran.empty()) {
      int best = ran.front();
      for (int i : ran) {
        if (sign() * (mean_of(entry(i).samples) - mean_of(entry(best).samples)) > 0) best = i;
      }
      result_.winner = best;
      for (int i : alive_) {
        entry(i).round_out = result_.rounds;
        if (i == best) entry(i).status = RaceStatus::kWinner;
      }
      // The runner-up: the best other full-test mean, wherever it left.
      for (int i = 0; i < static_cast<int>(result_.entries.size()); ++i) {
        if (i == best || entry(i).samples.empty() || entry(i).status == RaceStatus::kFailed) continue;
        if (result_.runner_up < 0 ||
            sign() * (mean_of(entry(i).samples) - mean_of(entry(result_.runner_up).samples)) > 0)
          result_.runner_up = i;
      }
      for (int i : alive_) {
        if (i != best) {
          entry(i).p_value = p_slower(i, best, false);
          entry(i).gap_pct = gap_pct(mean_of(entry(i).samples), mean_of(entry(best).samples));
        }
      }
      if (result_.runner_up >= 0) {
        const double w = mean_of(entry(best).samples), r = mean_of(entry(result_.runner_up).samples);
        result_.lead_pct = gap_pct(w, r);
        result_.p_value = p_slower(result_.runner_up, best, false);
        entry(best).p_value = result_.p_value;
        entry(best).gap_pct = result_.lead_pct;
      }
    } else if (end == RaceEnd::kInterrupted && !alive_.empty() && !entry(alive_.front()).screen_samples.empty()) {
      // Cut short in the screen: the best so far is the screen's leader, by the screen's figures.
      result_.winner = leader(true);
      result_.screen_only = true;
      entry(result_.winner).status = RaceStatus::kWinner;
    } else if (end != RaceEnd::kInterrupted) {
      result_.end = RaceEnd::kNoneLeft;
    }
    return std::move(result_);
  }

  const RaceConfig& config_;
  const TrialFn& trial_;
  RaceResult result_;
  std::vector<int> alive_;
  double screen_seconds_ = 0, full_seconds_ = 0;
  int screen_count_ = 0, full_count_ = 0;
};

}  // namespace

RaceResult race(int n_candidates, const RaceConfig& config, const TrialFn& trial) {
  return Race(n_candidates, config, trial).run();
}

}  // namespace rigbench::measure
