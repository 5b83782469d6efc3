#include "cli/repetition_flags.h"

#include "cli/args.h"

namespace rigbench::cli {

void add_repetition_flags(CLI::App& cmd, std::string& repetitions, double& ci_target_pct, double& max_time_s,
                          const std::string& what, const std::string& per) {
  cmd.add_option("-r,--repetitions", repetitions,
                 "timed repetitions per " + per + ": auto (the default: until the 95 % interval of " + what +
                     " is within --ci-target, at least 3, at most --max-time) or a number N (exactly N, as "
                     "llama-bench)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            if (s == "auto") return {};
            return int_range(1, 1000000)(s);
          },
          "auto|INT in [1, 1000000]"))
      ->capture_default_str()
      ->take_last();
  cmd.add_option("--ci-target", ci_target_pct,
                 "-r auto: repeat until the 95 % confidence interval of " + what + " is within ± this % of it")
      ->check(range(0.01, 100.0))
      ->capture_default_str()
      ->take_last();
  cmd.add_option("--max-time", max_time_s,
                 "-r auto: seconds of repetitions per " + per +
                     " before it stops short of --ci-target (the record says so)")
      ->check(range(0.0, 86400.0))
      ->capture_default_str()
      ->take_last();
}

RepetitionRule repetition_rule(const std::string& repetitions, double ci_target_pct, double max_time_s) {
  RepetitionRule rule;
  rule.automatic = repetitions == "auto";
  rule.repetitions = rule.automatic ? kAutoMinRepetitions : std::stoi(repetitions);  // checked by the validator
  rule.ci_target_pct = ci_target_pct;
  rule.max_time_s = max_time_s;
  return rule;
}

}  // namespace rigbench::cli
