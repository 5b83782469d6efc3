#include "cost/model_costs.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace rigbench::cost {

std::string cost_machine(const RunRecord& r) { return r.machine.hostname.empty() ? r.machine.cpu : r.machine.hostname; }

std::optional<CostInputs> stored_price(std::span<const RunRecord> records) {
  const RunRecord* latest = nullptr;
  for (const RunRecord& r : records) {
    if (!r.cost || !given(r.cost->price_per_kwh)) continue;
    if (!latest || r.test_time > latest->test_time) latest = &r;
  }
  if (!latest) return std::nullopt;
  CostInputs in;
  in.price_per_kwh = latest->cost->price_per_kwh;
  if (!latest->cost->currency.empty()) in.currency = latest->cost->currency;
  in.utilization = latest->cost->utilization;
  in.price_source = "stored with the run of " + latest->test_time;
  return in;
}

namespace {

std::string machine_name(const RunRecord& r) { return cost_machine(r); }

std::string model_label(const ModelInfo& m) {
  return m.name + (m.file_type.empty() ? "" : " " + m.file_type) + (m.synthetic ? " (synthetic)" : "");
}

// "7.62 B params"-like, short: "7.6 B", "292.8 K".
std::string params_text(uint64_t n) {
  char buf[32];
  if (n >= 1'000'000'000ull) std::snprintf(buf, sizeof buf, "%.3g B", n / 1e9);
  else if (n >= 1'000'000ull) std::snprintf(buf, sizeof buf, "%.3g M", n / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3g K", n / 1e3);
  return buf;
}

std::string money(double v, const std::string& currency) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g %s/Mtok", v, currency.c_str());
  return buf;
}

}  // namespace

Result<ModelCosts> model_costs(std::span<const RunRecord> records, const CostInputs& shared) {
  std::set<std::string> machines;
  for (const RunRecord& r : records) machines.insert(machine_name(r));
  if (machines.size() > 1) {
    std::string names;
    for (const auto& m : machines) names += (names.empty() ? "" : ", ") + m;
    return fail(ErrorCode::kInvalidInput,
                "runs of " + std::to_string(machines.size()) + " machines (" + names + "): choose one with --machine");
  }
  ModelCosts out;
  out.at_utilization = given(shared.utilization);
  // The model key: what it is and which file (its fingerprint, else its path).
  std::map<std::string, ModelCost> by_model;
  for (const RunRecord& r : records) {
    if (!r.results.tg || !r.refused.empty()) continue;
    out.machine = machine_name(r);
    const std::string key =
        model_label(r.model) + '\x1f' + (r.model.fingerprint.empty() ? r.model.path : r.model.fingerprint);
    ModelCost& m = by_model[key];
    m.n_runs += std::max(r.runs, 1);  // a pooled record stands for r.runs stored runs
    if (!m.record_id.empty() && r.test_time < m.test_time) continue;  // keep the latest
    m.model = model_label(r.model);
    m.n_params = r.model.n_params;
    m.size_bytes = r.model.size_bytes;
    m.record_id = r.record_id;
    m.test_time = r.test_time;
    m.figures = run_figures(r);
  }
  if (by_model.empty()) return fail(ErrorCode::kInvalidInput, "no stored run with a tg result to price");
  for (auto& [key, m] : by_model) {
    CostInputs in = shared;
    in.tokens_per_s = m.figures.tokens_per_s;
    in.rate_source = m.figures.rate_source;
    in.seconds_per_token = m.figures.seconds_per_token;
    in.active_power_w = m.figures.active_power_w;
    if (!given(shared.idle_power_w)) in.idle_power_w = m.figures.idle_power_w;
    in.power_method = given(in.active_power_w) ? m.figures.power_method : "none";
    in.power_input = kPerModelPowerInput;  // --watts is refused here: each run gives its own
    m.report = estimate_cost(in);
    m.sort_per_mtok = out.at_utilization ? m.report.at_utilization.cost_per_mtok : m.report.gross.cost_per_mtok;
    out.models.push_back(std::move(m));
  }
  std::stable_sort(out.models.begin(), out.models.end(), [](const ModelCost& a, const ModelCost& b) {
    const bool ga = given(a.sort_per_mtok), gb = given(b.sort_per_mtok);
    if (ga != gb) return ga;
    if (ga && a.sort_per_mtok != b.sort_per_mtok) return a.sort_per_mtok < b.sort_per_mtok;
    return a.model < b.model;
  });
  // The sentence: the cheapest against the smallest, among the models priced with a parameter count.
  std::vector<const ModelCost*> priced;
  for (const ModelCost& m : out.models) {
    if (given(m.sort_per_mtok) && m.n_params > 0) priced.push_back(&m);
  }
  if (priced.size() >= 2) {
    const ModelCost* cheapest = priced.front();
    const ModelCost* smallest = *std::min_element(priced.begin(), priced.end(), [](auto* a, auto* b) {
      // Fewer parameters; of one parameter count (two quantizations), the smaller file.
      return a->n_params != b->n_params ? a->n_params < b->n_params : a->size_bytes < b->size_bytes;
    });
    const std::string& cur = shared.currency;
    const std::string basis = out.at_utilization ? "" : " (gross)";
    if (cheapest != smallest) {
      out.sentence = "The cheapest is not the smallest: " + cheapest->model + " (" + params_text(cheapest->n_params) +
                     " params) costs " + money(cheapest->sort_per_mtok, cur) + basis + ", " + smallest->model + " (" +
                     params_text(smallest->n_params) + " params) " + money(smallest->sort_per_mtok, cur) + ".";
    } else {
      out.cheapest_is_smallest = true;
      out.sentence = "The cheapest is the smallest: " + cheapest->model + " (" + params_text(cheapest->n_params) +
                     " params) at " + money(cheapest->sort_per_mtok, cur) + basis + ".";
    }
  }
  return out;
}

}  // namespace rigbench::cost
