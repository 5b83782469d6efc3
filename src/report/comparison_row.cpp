#include "report/comparison_row.h"

#include <algorithm>
#include <utility>

#include "core/knobs.h"

namespace rigbench::report {

namespace {

// A cell's knobs without the ones its column's identity implies: by backend, where the layers
// ran (-ngl: CPU at 0, a GPU above) is the column, not a difference of setup.
KnobSettings knobs_beyond_column(const KnobSettings& settings, CompareBy by) {
  if (by != CompareBy::kBackend) return settings;
  const Knob* ngl = find_knob("n_gpu_layers");
  KnobSettings out;
  for (const KnobSetting& s : settings) {
    if (!ngl || s.name != ngl->header) out.push_back(s);
  }
  return out;
}

}  // namespace

std::vector<std::string> noise_codes(const Cell& cell) {
  std::vector<std::string> codes;
  for (const NoiseNote& n : cell.noise) {
    if (std::find(codes.begin(), codes.end(), n.code) == codes.end()) codes.push_back(n.code);
  }
  std::sort(codes.begin(), codes.end());  // one order in every cell and answer ("first_repetition, high_cv")
  return codes;
}

std::optional<MeanInterval> cell_interval(Metric metric, const Cell& cell) {
  if (cell.state != CellState::kMeasured || !metric_info(metric).per_repetition) return std::nullopt;
  return mean_interval(cell.summary);
}

Cell make_cell(const CellConfigs& configs, const MetricInfo& info) {
  Cell cell;
  if (configs.empty()) return cell;
  if (configs.size() == 1 && configs.count(kRefusedConfig)) {
    cell.state = CellState::kWontFit;  // refused, and nothing else of this column ran it
    return cell;
  }
  const std::pair<const std::string, ConfigValues>* best = nullptr;
  Summary best_summary;
  for (const auto& entry : configs) {
    if (entry.first == kRefusedConfig) continue;
    const Summary summary = entry.second.values.summary();
    if (!best || (info.higher_is_better ? summary.mean > best_summary.mean : summary.mean < best_summary.mean)) {
      best = &entry;
      best_summary = summary;
    }
  }
  cell.state = CellState::kMeasured;
  cell.config = best->first;
  cell.knobs = best->second.knobs;
  cell.knob_settings = best->second.knob_settings;
  const PooledValues& shown = best->second.values;
  cell.samples = shown.samples;
  cell.summary = best_summary;
  cell.summary_only = shown.summary_only();
  cell.energy_flags = shown.flags;
  cell.noise = shown.noise;
  cell.noise_more = shown.noise_more;
  cell.ci_target_pct = shown.ci_target_pct;
  cell.n_configs = configs.size();
  return cell;
}

bool knobs_differ(const Row& row, CompareBy by) {
  std::optional<KnobSettings> first;
  for (const Cell& c : row.cells) {
    if (c.state != CellState::kMeasured) continue;
    KnobSettings k = knobs_beyond_column(c.knob_settings, by);
    if (first && k != *first) return true;
    if (!first) first = std::move(k);
  }
  return false;
}

// Row::knobs_shown: each row's knobs among those that differ between the rows, in the order
// knobs_label first names them; a knob knobs_label leaves out at its default is named at that
// default (every row has every knob), a source's setting a row lacks as "-".
void set_knobs_shown(std::vector<Row>& rows) {
  std::vector<std::string> names;  // in the order the rows' labels first name them
  for (const Row& row : rows) {
    for (const KnobSetting& s : row.knob_settings) {
      if (s.in_label && std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
    }
  }
  auto value_of = [&](std::size_t i, const std::string& name) {
    const KnobSettings& settings = rows[i].knob_settings;
    const auto it =
        std::find_if(settings.begin(), settings.end(), [&](const KnobSetting& s) { return s.name == name; });
    return it != settings.end() ? it->value : std::string("-");  // a setting another llama-bench version recorded
  };
  for (const std::string& name : names) {
    bool varies = false;
    for (std::size_t i = 1; i < rows.size() && !varies; ++i) varies = value_of(i, name) != value_of(0, name);
    if (!varies) continue;
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i].knobs_shown += (rows[i].knobs_shown.empty() ? "" : " ") + name + "=" + value_of(i, name);
  }
}

}  // namespace rigbench::report
