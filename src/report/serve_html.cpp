#include "report/serve_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "core/short_commit.h"
#include "cost/model_costs.h"
#include "report/escape.h"
#include "report/model_cost_printer.h"
#include "report/table.h"

namespace rigbench::report {

using html::chart_spec;
using html::Json;
using html::section_html;
using html::table_html;
using html::Tr;

std::string serve_section_html(std::span<const RunRecord> records, Json& charts) {
  struct Point {
    int concurrency;
    const RunRecord* rec;
  };
  std::map<std::string, std::vector<Point>> groups;  // "model · server (api)" -> runs
  for (const RunRecord& rec : records) {
    if (!rec.server || rec.server->completed == 0 || rec.results.embedding) continue;  // embeddings: their own section
    const ServerRun& s = *rec.server;
    std::string server = s.url;
    if (!s.software.empty()) server += " " + s.software + (s.version.empty() ? "" : " " + short_commit(s.version));
    groups[rec.model.name + " · " + server + " (" + s.api + ")"].push_back({s.concurrency, &rec});
  }
  if (groups.empty()) return "";
  Json datasets = Json::array();
  std::vector<Tr> rows;
  const auto ms = [](double v) {
    if (!std::isfinite(v)) return std::string("-");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return std::string(buf);
  };
  // Energy and cost where the run measured them (the third study's figures: one server, several models).
  const auto jtok = [](const RunRecord& r) {
    if (!r.energy.tg || !std::isfinite(r.energy.tg->j_per_token)) return std::string("-");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", r.energy.tg->j_per_token);
    return std::string(buf);
  };
  const auto cost = [](const RunRecord& r) {
    if (!r.cost || !std::isfinite(r.cost->gross_per_mtok)) return std::string("-");
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.4f %s", r.cost->gross_per_mtok, r.cost->currency.c_str());
    return std::string(buf);
  };
  for (auto& [label, points] : groups) {
    std::stable_sort(points.begin(), points.end(),
                     [](const Point& a, const Point& b) { return a.concurrency < b.concurrency; });
    struct Series {
      const char* name;
      double (*get)(const ServerRun&);
      bool dashed;
    };
    const Series series[] = {
        {"TTFT p50", [](const ServerRun& s) { return s.ttft_ms.median; }, false},
        {"TTFT p90", [](const ServerRun& s) { return s.ttft_ms.p90; }, false},
        {"TTFT p99", [](const ServerRun& s) { return s.ttft_ms.p99; }, false},
        {"TPOT p50", [](const ServerRun& s) { return s.tpot_ms.median; }, true},
        {"TPOT p90", [](const ServerRun& s) { return s.tpot_ms.p90; }, true},
        {"TPOT p99", [](const ServerRun& s) { return s.tpot_ms.p99; }, true},
    };
    for (const Series& se : series) {
      Json data = Json::array();
      for (const Point& p : points) {
        const double v = se.get(*p.rec->server);
        if (std::isfinite(v)) data.push_back({{"x", p.concurrency}, {"y", v}});
      }
      datasets.push_back({{"label", label + " · " + se.name}, {"data", data}, {"dashed", se.dashed}});
    }
    // The capacity a concurrency sweep found, marked on its TTFT p99 line (the latest sweep's).
    const RunRecord* sweep_end = nullptr;
    for (const Point& p : points) {
      const ServerRun& s = *p.rec->server;
      if (!s.capacity.empty() && s.sweep == "concurrency" && (!sweep_end || p.rec->test_time > sweep_end->test_time))
        sweep_end = p.rec;
    }
    if (sweep_end && sweep_end->server->capacity_load > 0) {
      const double at = sweep_end->server->capacity_load;
      for (const Point& p : points) {
        if (p.concurrency == at && std::isfinite(p.rec->server->ttft_ms.p99) && p.rec->server->slo_met == 1) {
          datasets.push_back({{"label", label + " · capacity " + shortest(at) + " (SLO met)"},
                              {"data", Json::array({{{"x", at}, {"y", p.rec->server->ttft_ms.p99}}})},
                              {"dashed", false},
                              {"marker", true}});
          break;
        }
      }
    }
    for (const Point& p : points) {
      const ServerRun& s = *p.rec->server;
      rows.push_back({{p.rec->model.name},
                      {s.url + " (" + s.api + ")"},
                      {std::to_string(s.concurrency), false, true},
                      {std::to_string(s.completed) + "/" + std::to_string(s.requests), false, true},
                      {ms(s.request_throughput_rps), false, true},
                      {ms(s.goodput_rps), false, true},
                      {s.slo_met == 1 ? "met" : s.slo_met == 0 ? "missed: " + s.slo_miss : "-"},
                      {ms(s.output_tps), false, true},
                      {ms(s.ttft_ms.median), false, true},
                      {ms(s.ttft_ms.p90), false, true},
                      {ms(s.ttft_ms.p99), false, true},
                      {ms(s.tpot_ms.median), false, true},
                      {ms(s.tpot_ms.p99), false, true},
                      {ms(s.itl_ms.p99), false, true},
                      {ms(s.e2e_ms.median), false, true},
                      {s.ttft_later_turns_ms.n > 0 ? ms(s.ttft_later_turns_ms.median) : "-", false, true},
                      {ms(s.server_cache_n_mean), false, true},
                      {jtok(*p.rec), false, true},
                      {cost(*p.rec), false, true}});
    }
  }
  // Several models served on one machine by one server, priced: the third study's table per
  // server (cost --per-model on these runs, at the price they were stored with), after the runs.
  std::string per_model;
  std::map<std::pair<std::string, std::string>, std::vector<RunRecord>> served;  // (machine, url) -> runs
  for (const auto& [label, points] : groups) {
    for (const Point& p : points) {
      if (p.rec->results.tg && p.rec->refused.empty()) {
        served[{cost::cost_machine(*p.rec), p.rec->server->url}].push_back(*p.rec);
      }
    }
  }
  for (const auto& [where, runs] : served) {
    const auto shared = cost::stored_price(runs);
    if (!shared) continue;
    auto costs = cost::model_costs(runs, *shared);
    if (!costs || costs->models.size() < 2) continue;
    per_model += "<h3>" +
                 html_escape("Cost per model: " + where.second + " on " + where.first + " (" + shared->price_source +
                             ")") +
                 "</h3><div class=\"table\">" + table_html(model_costs_table(*costs, *shared)) + "</div>";
    if (!costs->sentence.empty()) per_model += "<p class=\"note\">" + html_escape(costs->sentence) + "</p>";
    per_model += "\n";
  }
  Json spec =
      chart_spec("chart-serve", "Server latency against concurrency", "ms", "ms", false, Json::array(), datasets);
  spec["type"] = "line";
  spec["x_title"] = "concurrency (requests in flight)";
  charts.push_back(std::move(spec));
  std::string section = section_html(
      "serve", "Server latency against concurrency",
      "rigbench serve-bench runs: time to first token (solid) and time per output token after the first (dashed) "
      "at their 50th, 90th and 99th percentiles, per server, model and API, measured by the client; the capacity a "
      "concurrency sweep found (serve-bench --capacity: the largest load that met its SLO) marked by a triangle on "
      "its TTFT p99 line, and each run's goodput (requests per second that met the SLO) and verdict in the table; "
      "for multi-turn chats the TTFT of the turns after the first (each re-sends its history) and the prompt tokens "
      "the server's cache gave a request (llama-server's timings.cache_n), so runs with its prompt cache on and off "
      "stand side by side; J per output token and electricity cost per million output tokens where the run measured "
      "energy (idle window included).",
      "chart-serve",
      table_html({"model", "server", "c", "ok", "req/s", "good req/s", "SLO", "out t/s", "TTFT p50 ms", "TTFT p90 ms", "TTFT p99 ms",
                  "TPOT p50 ms", "TPOT p99 ms", "ITL p99 ms", "E2E p50 ms", "later turns TTFT p50 ms",
                  "cached tok", "J/tok", "cost/Mtok"},
                 rows));
  if (!per_model.empty()) section.insert(section.rfind("</section>"), per_model);
  return section;
}

}  // namespace rigbench::report
