#include "power/amdgpu.h"

#include <cerrno>

#include "power/integrator.h"
#include "power/sysfs.h"

namespace rigbench::power {

namespace {

struct Card {
  std::string power_path;   // power1_input or power1_average
  std::string energy_path;  // energy1_input, "" when absent
  uint64_t first_uj = 0;
  PowerIntegrator integrator;
};

class AmdgpuMeter final : public Meter {
 public:
  AmdgpuMeter(std::vector<Card> cards, std::vector<DomainInfo> domains, std::vector<std::string> notes)
      : cards_(std::move(cards)), domains_(std::move(domains)), notes_(std::move(notes)) {}

  std::string_view kind() const override { return "amdgpu"; }
  const std::vector<DomainInfo>& domains() const override { return domains_; }
  std::vector<std::string> notes() const override { return notes_; }
  double sample_period_s() const override { return 0.05; }

  std::vector<DomainReading> read(const TimePoint& now) override {
    std::vector<DomainReading> out(cards_.size());
    for (std::size_t i = 0; i < cards_.size(); ++i) {
      Card& c = cards_[i];
      DomainReading& r = out[i];
      if (auto uw = read_u64_attribute(c.power_path)) {
        r.power_w = static_cast<double>(*uw) * 1e-6;
      } else {
        r.error = c.power_path + ": " + errno_text(uw.error());
      }
      c.integrator.add(now.steady_ns, r.power_w);
      if (c.integrator.started()) r.integrated_j = c.integrator.joules();
      if (!c.energy_path.empty()) {
        // Reported as read (no unwrapping): a counter that goes back is caught by summarize().
        if (auto uj = read_u64_attribute(c.energy_path)) {
          r.counter_j = (static_cast<double>(*uj) - static_cast<double>(c.first_uj)) * 1e-6;
        } else {
          r.error += (r.error.empty() ? "" : "; ") + c.energy_path + ": " + errno_text(uj.error());
        }
      }
    }
    return out;
  }

 private:
  std::vector<Card> cards_;
  std::vector<DomainInfo> domains_;
  std::vector<std::string> notes_;
};

}  // namespace

MeterOpen open_amdgpu(const std::string& root) {
  auto entries = list_directory(root);
  if (!entries)
    return std::unexpected(
        Unavailable{"no amdgpu hwmon device (" + root + ": " + errno_text(entries.error()) + ")", ""});
  std::vector<Card> cards;
  std::vector<DomainInfo> domains;
  std::vector<std::string> notes;
  std::string last_error;
  for (const auto& e : *entries) {
    const std::string dir = root + "/" + e;
    auto name = read_attribute(dir + "/name");
    if (!name || *name != "amdgpu") continue;
    Card c;
    std::string kind;
    for (const char* file : {"power1_input", "power1_average"}) {
      auto uw = read_u64_attribute(dir + "/" + file);
      if (uw) {
        c.power_path = dir + "/" + file;
        kind = file;
        break;
      }
      if (last_error.empty() || uw.error() != ENOENT) last_error = dir + "/" + file + ": " + errno_text(uw.error());
    }
    if (c.power_path.empty()) {
      notes.push_back(e + " (amdgpu): no readable power1_input or power1_average (" + last_error + ")");
      continue;
    }
    DomainInfo d;
    d.name = "amdgpu:" + e;
    d.source = "amdgpu hwmon " + kind + " (uW) integrated, " + dir;
    if (auto uj = read_u64_attribute(dir + "/energy1_input")) {
      c.energy_path = dir + "/energy1_input";
      c.first_uj = *uj;
      d.source = "amdgpu hwmon energy1_input counter (uJ), checked against " + kind + " (uW) x time, " + dir;
    }
    cards.push_back(std::move(c));
    domains.push_back(std::move(d));
  }
  if (cards.empty()) {
    if (!last_error.empty()) return std::unexpected(Unavailable{"amdgpu: " + last_error, ""});
    return std::unexpected(
        Unavailable{"no amdgpu hwmon device under " + root + " (no AMD GPU, or no amdgpu driver)", ""});
  }
  return std::make_unique<AmdgpuMeter>(std::move(cards), std::move(domains), std::move(notes));
}

}  // namespace rigbench::power
