#include "report/comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "core/strings.h"
#include "report/byte_signature.h"
#include "report/unique_labels.h"

namespace rigbench::report {

namespace {

// What tells a comparison's rows apart (and orders them): the labels of the identities that are
// not the columns, by build the knobs, then the metric and its test.
struct RowKey {
  std::string model, machine, build, knobs;
  int metric = 0, n = 0, depth = 0;
  std::string test, server;
  // The rows' order: tests in natural order ("tg8 @ c2" before "tg8 @ c16").
  bool operator<(const RowKey& o) const {
    if (const auto c = std::tie(model, machine, build, knobs, metric, n, depth) <=>
                       std::tie(o.model, o.machine, o.build, o.knobs, o.metric, o.n, o.depth);
        c != 0)
      return c < 0;
    if (const int c = natural_compare(test, o.test); c != 0) return c < 0;
    return server < o.server;
  }
};

}  // namespace

std::vector<std::string> row_servers(const Comparison& cmp) {
  std::vector<std::string> servers;
  for (const Row& row : cmp.rows) {
    if (!row.server.empty() && std::find(servers.begin(), servers.end(), row.server) == servers.end())
      servers.push_back(row.server);
  }
  return servers;
}

std::string server_legend(const std::vector<std::string>& servers, std::size_t i) {
  return "S" + std::to_string(i + 1) + ": the server " + servers[i] + " (serve-bench; @ cN: N requests in flight)";
}

std::string tagged_test(const Row& row, const std::vector<std::string>& servers) {
  const auto s = std::find(servers.begin(), servers.end(), row.server);
  const std::string suffix = " " + row.server;
  if (row.server.empty() || s == servers.end() || !row.test.ends_with(suffix)) return row.test;
  return row.test.substr(0, row.test.size() - suffix.size()) + " · S" + std::to_string(s - servers.begin() + 1);
}

bool comparable_columns(const Comparison& cmp, std::size_t a, std::size_t b) {
  return cmp.column_n_params.empty() || cmp.column_n_params[a] == cmp.column_n_params[b];
}

Result<Comparison> compare(std::span<const RunRecord> records, const CompareOptions& options) {
  return compare(records, options, RecordIdentities(records));
}

Result<Comparison> compare(std::span<const RunRecord> records, const CompareOptions& options,
                           const RecordIdentities& ids) {
  if (records.empty()) return fail(ErrorCode::kInvalidInput, "no records to compare");
  // By machine, a machine whose records come from builds of several backends (a CPU and a
  // Vulkan build) gets a column per build, "box-a (Vulkan)", in the rows of the other machines:
  // the backends go with the column, the row's build is the sources' (tool and commit) alone.
  const bool backends_in_column = options.by == CompareBy::kMachine;
  auto row_build_of = [&](const RecordIdentities::Entry& e) -> const Identity& {
    return backends_in_column ? e.sources_build : e.build;
  };
  auto row_commit_of = [&](const RecordIdentities::Entry& e) -> const Identity& {
    return backends_in_column ? e.sources_commit : e.commit;
  };
  UniqueLabels machines, models, builds, backends, row_builds, row_commits;
  std::set<std::string> tools;
  for (const RecordIdentities::Entry& e : ids.entries()) {
    machines.add(e.machine);
    models.add(e.model);
    builds.add(e.build);
    backends.add(e.backend);
    row_builds.add(row_build_of(e));
    row_commits.add(row_commit_of(e));
    tools.insert(e.tool.key);
  }
  for (UniqueLabels* u : {&machines, &models, &builds, &backends, &row_builds, &row_commits}) u->finish();
  // Several tools (rigbench, llama-bench imports) by machine, model or backend: the tool goes
  // with the column, the commit alone with the row, so one commit's runs line up side by side.
  const bool tool_columns = options.by != CompareBy::kBuild && tools.size() > 1;
  auto plain_column = [&](const RecordIdentities::Entry& e) -> Identity {
    switch (options.by) {
      case CompareBy::kMachine:
        if (e.backends_apart.empty()) return {e.machine.key, machines.of(e.machine.key)};
        return {e.machine.key + '\x1f' + e.backends_apart, machines.of(e.machine.key) + " (" + e.backends_apart + ")"};
      case CompareBy::kModel: return {e.model.key, models.of(e.model.key)};
      case CompareBy::kBuild: return {e.build.key, builds.of(e.build.key)};
      case CompareBy::kBackend: break;
    }
    return {e.backend.key, backends.of(e.backend.key)};
  };
  auto column_identity = [&](const RecordIdentities::Entry& e) {
    Identity c = plain_column(e);
    if (tool_columns) c = {c.key + '\x1e' + e.tool.key, c.label + " \u00b7 " + e.tool.label};
    return c;
  };
  UniqueLabels tooled;
  for (const RecordIdentities::Entry& e : ids.entries()) tooled.add(column_identity(e));
  tooled.finish();

  Comparison cmp;
  cmp.by = options.by;
  cmp.alpha = options.alpha;
  cmp.same_name_notes = same_name_notes(machines, models);
  const UniqueLabels& column_labels = tooled;
  cmp.columns = column_labels.sorted();
  std::map<std::string, std::size_t> column_of;
  for (std::size_t i = 0; i < cmp.columns.size(); ++i) column_of[cmp.columns[i]] = i;
  if (options.by == CompareBy::kModel && !options.across_sizes) {
    cmp.column_n_params.assign(cmp.columns.size(), 0);
    for (const RecordIdentities::Entry& e : ids.entries())
      cmp.column_n_params[column_of.at(tooled.of(column_identity(e).key))] = records[e.first].model.n_params;
  }
  auto baseline = find_baseline(cmp.columns, options.baseline, options.by);
  if (!baseline) return std::unexpected(baseline.error());
  cmp.baseline = *baseline;

  // Per row: its cells' configurations per column, and by build the knobs of the row.
  struct RowCells {
    std::vector<CellConfigs> columns;
    KnobSettings knobs;
  };
  std::map<RowKey, RowCells> table;
  // Where a record's values go (metric -> pooled values of its row, column and
  // configuration), found once per setup and shape of results: the records that share both
  // go to the same cells.
  struct Destination {
    Metric metric;
    PooledValues* values;
  };
  std::unordered_map<std::string, std::vector<Destination>> destinations;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const RunRecord& rec = records[r];
    std::string where = results_shape(rec);
    append_raw(where, ids.setup(r));
    auto [dest, fresh] = destinations.try_emplace(std::move(where));
    if (fresh) {
      const RecordIdentities::Entry& id = ids.of(r);
      const std::string& machine = machines.of(id.machine.key);
      const std::string& model = models.of(id.model.key);
      const std::string& build = builds.of(id.build.key);
      const std::string& sources_build = row_builds.of(row_build_of(id).key);
      const std::size_t col = column_of.at(tooled.of(column_identity(id).key));
      // The row's build: the commit alone where the tool is the column's.
      const std::string& row_build = tool_columns ? row_commits.of(row_commit_of(id).key) : sources_build;
      // By backend, a cell pools the backend's runs on every machine: each machine is a configuration
      // of it (the best one is shown, and says which machine).
      const std::string config = options.by == CompareBy::kBuild ? id.knobs
                                 : options.by == CompareBy::kBackend
                                     ? id.knobs + " build=" + build + " machine=" + machine
                                     : id.knobs + " build=" + build;
      for (const Metric metric : all_metrics()) {
        auto c = metric_values(rec, metric);
        // A refused run has no samples: its pp and tg rows say "won't fit" for this column.
        if (!rec.refused.empty()) {
          if (auto refused = wont_fit_values(rec, metric)) c = std::move(refused);
        }
        if (!c) continue;
        // By build the knobs are part of the row: builds are compared like for like.
        RowKey key{options.by == CompareBy::kModel ? "" : model,
                   options.by == CompareBy::kMachine || options.by == CompareBy::kBackend ? "" : machine,
                   options.by == CompareBy::kBuild ? "" : row_build,
                   options.by == CompareBy::kBuild ? id.knobs : "",
                   static_cast<int>(metric),
                   c->n,
                   c->depth,
                   c->test,
                   c->server};
        RowCells& row = table[key];
        if (row.columns.empty()) {
          row.columns.resize(cmp.columns.size());
          if (options.by == CompareBy::kBuild) row.knobs = id.knob_settings;
        }
        ConfigValues& cv = row.columns[col][rec.refused.empty() ? config : std::string(kRefusedConfig)];
        cv.knobs = id.knobs;
        cv.knob_settings = id.knob_settings;
        dest->second.push_back({metric, &cv.values});
      }
    }
    for (const Destination& d : dest->second) {
      // A refused run adds no values to its pp and tg rows (their cell says "won't fit").
      if (!rec.refused.empty() && (d.metric == Metric::kPp || d.metric == Metric::kTg)) continue;
      d.values->add_values_of(rec, d.metric);
    }
  }

  for (const auto& [key, cells] : table) {
    Row row;
    row.machine = key.machine;
    row.model = key.model;
    row.build = key.build;
    row.knobs = key.knobs;
    row.knob_settings = cells.knobs;
    row.metric = static_cast<Metric>(key.metric);
    row.test = key.test;
    row.server = key.server;
    row.n = key.n;
    const MetricInfo& info = metric_info(row.metric);
    for (const CellConfigs& configs : cells.columns) row.cells.push_back(make_cell(configs, info));
    row.knobs_differ = knobs_differ(row, options.by);
    rank_row(row, info, cmp.alpha);
    if (!cmp.column_n_params.empty()) keep_to_one_size(row, cmp.column_n_params);
    cmp.rows.push_back(std::move(row));
  }
  // The default baseline is a column with results: the first that measured a ranked row (a
  // model that fit nowhere, every cell "does not fit", made every ratio "-").
  if (options.baseline.empty()) cmp.baseline = default_baseline(cmp.rows, cmp.columns.size());
  for (Row& row : cmp.rows) {
    set_ratios(row, metric_info(row.metric), cmp.baseline);
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (!comparable_columns(cmp, c, cmp.baseline)) row.cells[c].ratio = std::nan("");
    }
  }
  for (const Row& row : cmp.rows) {
    cmp.several_builds = cmp.several_builds || row.build != cmp.rows.front().build;
    cmp.several_knobs = cmp.several_knobs || row.knob_settings != cmp.rows.front().knob_settings;
  }
  if (cmp.several_knobs) set_knobs_shown(cmp.rows);
  return cmp;
}

}  // namespace rigbench::report
