#include "cli/knob_flags.h"

#include "core/knobs.h"
#include "core/strings.h"

namespace rigbench::cli {

void add_knob_list_flags(CLI::App& cmd, std::map<std::string, std::vector<std::string>>& knobs,
                         const std::set<std::string>& skip) {
  for (const Knob& k : rigbench::knobs()) {
    if (k.flags.empty() || skip.count(k.key) > 0) continue;  // recorded from other sources, or the subcommand's own
    const std::string help = k.help + (k.whole_value ? " (repeat the flag for a list)" : ", list") +
                             (k.choices.empty() ? "" : " of " + join(k.choices, "|"));
    CLI::Option* opt = cmd.add_option(k.flags, knobs[k.key], help);
    if (!k.whole_value) opt->delimiter(',');
    if (k.key != "n_threads") opt->default_str(knob_default(k));
  }
}

Status normalize_knob_lists(std::map<std::string, std::vector<std::string>>& lists) {
  for (const Knob& k : rigbench::knobs()) {
    auto it = lists.find(k.key);
    if (it == lists.end()) continue;
    for (std::string& v : it->second) {
      auto canonical = normalize_knob(k, v);
      if (!canonical) return std::unexpected(canonical.error());
      v = *canonical;
    }
    if (it->second.empty()) lists.erase(it);
  }
  return {};
}

}  // namespace rigbench::cli
