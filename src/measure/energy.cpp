#include "measure/energy.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "core/strings.h"
#include "cost/run_figures.h"
#include "power/stated.h"

namespace rigbench::measure {

namespace {

// Energy of one phase: a whole-system domain alone if one was read, else the sum of the
// component domains read.
PhaseEnergyInfo phase_info(const power::PhaseEnergy& p, const std::vector<power::DomainInfo>& domains, double tokens) {
  PhaseEnergyInfo out;
  out.duration_s = p.duration_s;
  if (p.last_end_unix_ns > 0) {
    out.start_unix_s = static_cast<double>(p.first_start_unix_ns) / 1e9;
    out.end_unix_s = static_cast<double>(p.last_end_unix_ns) / 1e9;
  }
  double whole = NAN, parts = 0;
  bool any_part = false;
  for (std::size_t i = 0; i < p.domains.size() && i < domains.size(); ++i) {
    const double e = p.domains[i].energy_j;
    if (!std::isfinite(e)) continue;
    if (domains[i].whole_system) whole = std::isfinite(whole) ? whole : e;
    else {
      parts += e;
      any_part = true;
    }
  }
  out.energy_j = std::isfinite(whole) ? whole : (any_part ? parts : kUnmeasured);
  if (std::isfinite(out.energy_j) && p.duration_s > 0) out.power_w = out.energy_j / p.duration_s;
  if (std::isfinite(out.energy_j) && tokens > 0) out.j_per_token = out.energy_j / tokens;
  return out;
}

std::string fmt_w(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g W", w);
  return buf;
}

// The domain of --estimate-power's model (power/stated.h open_utilization_estimate).
bool is_utilization_estimate(const power::DomainInfo& d) { return d.name == power::kUtilizationEstimateDomain; }

double tokens_of(const std::optional<ThroughputResult>& t) {
  return t ? static_cast<double>(t->n_tokens) * static_cast<double>(t->samples_ns.size()) : 0;
}

}  // namespace

EnergySession::EnergySession(power::OpenedMeters meters) {
  for (const auto& m : meters.meters) kinds_.emplace_back(m->kind());
  sampler_ = std::make_unique<power::Sampler>(std::move(meters.meters));
}

std::unique_ptr<EnergySession> EnergySession::open(const power::MeterConfig& config,
                                                   std::vector<power::MeterStatus>* status) {
  power::OpenedMeters opened = power::open_meters(config);
  if (status) *status = opened.status;
  if (opened.meters.empty()) return nullptr;
  return std::unique_ptr<EnergySession>(new EnergySession(std::move(opened)));
}

Status EnergySession::start() { return sampler_->start(); }

void EnergySession::mark(const std::string& phase) { sampler_->mark(phase); }

EnergyInfo EnergySession::finish(const Results& results, double idle_s, double stated_idle_w,
                                 const std::optional<PhaseTokens>& marked) {
  const power::EnergyReport r = sampler_->stop();
  EnergyInfo e;
  std::set<std::string> methods;
  for (std::size_t i = 0; i < r.domains.size(); ++i) {
    e.domains.push_back(r.domains[i].name);
    if (i < r.methods.size() && r.methods[i] != power::Method::kUnavailable) {
      std::string m(power::method_name(r.methods[i]));
      if (r.domains[i].whole_system && r.methods[i] == power::Method::kEstimated &&
          r.domains[i].name.rfind("stated:", 0) == 0)
        m = "stated";
      methods.insert(m);
    }
  }
  e.method = methods.empty() ? "unavailable" : join(std::vector<std::string>(methods.begin(), methods.end()), "+");
  e.meters = kinds_;
  e.idle_s = std::isnan(stated_idle_w) ? idle_s : 0;
  e.sample_rate_hz = r.sample_rate_hz;
  double idle = 0;
  bool any_idle = false, whole_idle = false, modelled_idle = false;
  for (std::size_t i = 0; i < r.idle.size() && i < r.domains.size(); ++i) {
    if (!std::isfinite(r.idle[i].power_w)) continue;
    // --estimate-power's TDP x CPU utilization models the load only: with nothing running it
    // reads about 0 W, not the machine's idle draw. It gives no idle figure.
    if (is_utilization_estimate(r.domains[i])) {
      modelled_idle = true;
      continue;
    }
    if (r.domains[i].whole_system) {
      idle = r.idle[i].power_w;
      whole_idle = any_idle = true;
    } else if (!whole_idle) {
      idle += r.idle[i].power_w;
      any_idle = true;
    }
  }
  if (any_idle) e.idle_power_w = idle;
  e.notes = r.notes;
  e.flags = r.flags;
  if (modelled_idle && !any_idle && std::isnan(stated_idle_w)) {
    e.notes.push_back(
        "idle power unknown: --estimate-power's TDP x CPU utilization reads about 0 W with nothing running, not the "
        "machine's idle draw; give --idle-watts W (the idle draw with the model loaded) for the marginal cost and the "
        "cost at a utilization");
  }
  if (!std::isnan(stated_idle_w)) {
    e.idle_power_w = stated_idle_w;
    e.flags.push_back("idle_stated");
    e.notes.push_back("idle power " + fmt_w(stated_idle_w) + " stated (--idle-watts), not measured");
  }
  // A prompt suite marks its prefills "pp" and its generations "tg" (run_suite) and counts the
  // tokens of the windows it kept: the same windows as the energy.
  const double pp_tokens = marked ? marked->pp : tokens_of(results.pp);
  const double tg_tokens = marked ? marked->tg : tokens_of(results.tg);
  if (const auto* p = r.phase("pp")) e.pp = phase_info(*p, r.domains, pp_tokens);
  if (const auto* p = r.phase("tg")) e.tg = phase_info(*p, r.domains, tg_tokens);
  // At most kTracePoints points: consecutive points averaged in groups.
  constexpr std::size_t kTracePoints = 240;
  const std::size_t group = (r.trace.size() + kTracePoints - 1) / kTracePoints;
  for (std::size_t i = 0; group > 0 && i < r.trace.size(); i += group) {
    double t = 0, w = 0;
    std::size_t n = 0;
    for (std::size_t k = i; k < std::min(i + group, r.trace.size()); ++k, ++n) {
      t += r.trace[k].t_s;
      w += r.trace[k].power_w;
    }
    e.power_trace.emplace_back(t / static_cast<double>(n), w / static_cast<double>(n));
  }
  // Idle above a phase: a measuring problem (or the stated idle is wrong), never a silent
  // negative marginal figure downstream.
  bool above = false;
  for (const auto& [name, ph] : {std::pair{"pp", &e.pp}, std::pair{"tg", &e.tg}}) {
    if (!*ph || !std::isfinite((*ph)->power_w) || !std::isfinite(e.idle_power_w)) continue;
    if (e.idle_power_w > (*ph)->power_w * (1 + 1e-9)) {
      above = true;
      e.notes.push_back(std::string(name) + ": " + fmt_w((*ph)->power_w) + " is below the idle power " +
                        fmt_w(e.idle_power_w) + ": a measuring problem; no marginal figure");
    }
  }
  if (above) e.flags.push_back("idle_above_active");
  return e;
}

EnergyInfo unavailable_energy(const std::vector<power::MeterStatus>& status) {
  EnergyInfo e;
  for (const auto& s : status) {
    if (s.available || s.detail.empty()) continue;
    e.notes.push_back(s.kind + ": " + s.detail + (s.fix.empty() ? "" : " (fix: " + s.fix + ")"));
  }
  return e;
}

namespace {

CostInfo cost_info(const cost::CostInputs& in) {
  const cost::CostReport r = cost::estimate_cost(in);
  CostInfo c;
  c.currency = in.currency;
  c.price_per_kwh = in.price_per_kwh;
  c.gross_per_mtok = r.gross.cost_per_mtok;
  c.marginal_per_mtok = r.marginal.cost_per_mtok;
  c.utilization = in.utilization;
  c.at_utilization_per_mtok = r.at_utilization.cost_per_mtok;
  c.hardware_per_mtok = r.hardware_per_mtok;
  c.total_per_mtok = r.total_per_mtok;
  c.notes = r.notes;
  return c;
}

}  // namespace

std::optional<CostInfo> price_run(const RunRecord& rec, cost::CostInputs in) {
  const EnergyInfo& energy = rec.energy;
  if (!std::isfinite(in.price_per_kwh) || !energy.tg || !std::isfinite(energy.tg->power_w) || !rec.results.tg)
    return std::nullopt;
  const cost::RunFigures f = cost::run_figures(rec);
  if (!std::isfinite(f.tokens_per_s) || !std::isfinite(f.active_power_w)) return std::nullopt;
  in.tokens_per_s = f.tokens_per_s;
  in.rate_source = f.rate_source;
  in.seconds_per_token = f.seconds_per_token;
  in.active_power_w = f.active_power_w;
  in.idle_power_w = f.idle_power_w;
  in.power_method = f.power_method;
  return cost_info(in);
}

std::optional<CostInfo> price_phase(const EnergyInfo& energy, const PhaseEnergyInfo& phase, double tokens,
                                    cost::CostInputs in) {
  if (!std::isfinite(in.price_per_kwh) || !std::isfinite(phase.power_w) || !(tokens > 0) || !(phase.duration_s > 0))
    return std::nullopt;
  in.tokens_per_s = tokens / phase.duration_s;
  in.active_power_w = phase.power_w;
  in.idle_power_w = energy.idle_power_w;
  in.power_method = energy.method;
  return cost_info(in);
}

}  // namespace rigbench::measure
