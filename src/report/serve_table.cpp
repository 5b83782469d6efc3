#include "report/serve_table.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/noise_note.h"
#include "core/strings.h"
#include "report/model_cost_printer.h"

namespace rigbench::report {

namespace {

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

// The table's columns: md shows the headline ones (within 120 columns), --wide and the data
// formats every one.
std::vector<TableColumn> serve_columns(bool slo, bool models) {
  std::vector<TableColumn> c = {
      {"model", "model", Align::kLeft, false, !models},  // whole on its row (never wrapped: report/table.h)
      {"server_url", "server", Align::kLeft, false, true},
      {"server_software", "software", Align::kLeft, false, true},
      {"server_version", "version", Align::kLeft, false, true},
      {"api", "api", Align::kLeft, false, true},
      {"concurrency", "c", Align::kRight},
      {"rate_rps", "rate req/s", Align::kRight, true},
      {"burstiness", "burstiness", Align::kRight, true},
      {"prefix_tokens", "prefix tok", Align::kRight, true},
      {"prefix_share", "prefix share", Align::kRight, true},
      {"trace", "trace", Align::kLeft, true},
      {"trace_scale", "trace x", Align::kRight, true},
      {"turns", "turns", Align::kRight, true},
      {"think_time_s", "think s", Align::kRight, true},
      {"seed", "seed", Align::kRight, true},
      {"requests", "req", Align::kRight, true},
      {"completed", "ok", Align::kRight, true},
      {"failed", "err", Align::kRight},
      {"load_replies", "load replies", Align::kRight, true},
      {"duration_s", "s", Align::kRight, true},
      {"request_throughput_rps", "req/s", Align::kRight},
      {"output_tps", "out t/s", Align::kRight},
      {"total_tps", "total t/s", Align::kRight, true},
      {"goodput_rps", "good req/s", Align::kRight, !slo},
      {"input_tokens_mean", "in tok", Align::kRight, true},
      {"output_tokens_mean", "out tok", Align::kRight, true},
  };
  for (const char* m : {"ttft", "tpot", "itl", "e2e", "ttft_content", "ttft_later_turns"}) {
    const std::string name = std::string(m) == "e2e"                ? "E2E"
                             : std::string(m) == "ttft_content"     ? "TTFT content"
                             : std::string(m) == "ttft_later_turns" ? "TTFT later turns"
                                                                    : upper(m);
    for (const char* p : {"mean", "p50", "p90", "p95", "p99"}) {
      const std::string stat = p;
      // md: p50 and p99 of TTFT and TPOT, p50 of ITL and E2E. To keep within 120 columns, E2E
      // p50 goes to --wide with the model column (several models), ITL and E2E p50 with the
      // SLO's columns (a capacity sweep: 136 columns with them).
      const bool tail = std::string(m) == "e2e" || std::string(m) == "itl";
      const bool shown = (stat == "p50" && !(models && std::string(m) == "e2e") && !(slo && tail) &&
                          std::string(m).rfind("ttft_", 0) != 0) ||
                         (stat == "p99" && (std::string(m) == "ttft" || std::string(m) == "tpot"));
      c.push_back({std::string(m) + "_" + stat + "_ms", name + " " + stat + " ms", Align::kRight, !shown});
    }
  }
  for (const char* kind : {"refused", "http_status", "malformed_stream", "cut_mid_stream", "timeout"}) {
    c.push_back({std::string("errors_") + kind, std::string("err ") + kind, Align::kRight, false, true});
  }
  c.push_back({"server_tg_tps", "server tg t/s", Align::kRight, true});
  c.push_back({"client_tg_tps", "client tg t/s", Align::kRight, true});
  c.push_back({"tg_tps_diff_pct", "tg diff %", Align::kRight, true});
  c.push_back({"server_prompt_p50_ms", "server prompt p50 ms", Align::kRight, true});
  c.push_back({"server_prompt_tps", "server pp t/s", Align::kRight, true});
  c.push_back({"server_prompt_n_mean", "server prompt tok", Align::kRight, true});
  c.push_back({"server_cache_n_mean", "server cached tok", Align::kRight, true});
  c.push_back({"server_draft_accepted_pct", "draft accepted %", Align::kRight, true});
  c.push_back({"server_load_p50_ms", "server load p50 ms", Align::kRight, true});
  c.push_back({"sweep", "sweep", Align::kLeft, true});
  c.push_back({"slo_met", "SLO met", Align::kLeft, !slo});
  c.push_back({"slo_miss", "SLO missed", Align::kLeft, true});
  c.push_back({"capacity", "capacity", Align::kLeft, true});
  c.push_back({"capacity_load", "capacity load", Align::kRight, true});
  c.push_back({"output_short", "short", Align::kRight, false, true});
  c.push_back({"client_cpu_pct", "client CPU %", Align::kRight, true});
  c.push_back({"energy_method", "energy", Align::kLeft, false, true});
  c.push_back({"idle_power_w", "idle W", Align::kRight, false, true});
  c.push_back({"tg_power_w", "loaded W", Align::kRight, false, true});
  c.push_back({"tg_j_per_token", "J/tok", Align::kRight, false, true});
  c.push_back({"cost_gross_per_mtok", "cost/Mtok", Align::kRight, false, true});
  c.push_back({"currency", "currency", Align::kLeft, false, true});
  c.push_back({"interrupted", "interrupted", Align::kLeft, false, true});
  c.push_back({"record_id", "record", Align::kLeft, false, true});
  return c;
}

std::vector<TableCell> serve_row(const RunRecord& rec) {
  const ServerRun& s = *rec.server;
  std::vector<TableCell> r = {
      TableCell::str(rec.model.name),
      TableCell::str(s.url),
      TableCell::str(s.software),
      TableCell::str(s.version),
      TableCell::str(s.api),
      TableCell::integer(s.concurrency),
      std::isinf(s.rate_rps) ? TableCell::str("inf")
      : s.rate_rps > 0       ? TableCell::number(s.rate_rps, 2)
                             : TableCell::absent("-"),
      std::isinf(s.burstiness) ? TableCell::str("inf") : TableCell::number(s.burstiness, 2),
      TableCell::integer(s.prefix_tokens),
      TableCell::number(s.prefix_share, 2),
      TableCell::str(s.trace),
      TableCell::number(s.trace_scale, 2),
      TableCell::integer(s.turns),
      TableCell::number(s.think_time_s, 2),
      TableCell::count(s.seed),
      TableCell::integer(s.requests),
      TableCell::integer(s.completed),
      TableCell::integer(s.failed),
      TableCell::integer(s.load_replies),
      TableCell::number(s.duration_s, 2),
      TableCell::number(s.request_throughput_rps, 2),
      TableCell::number(s.output_tps, 1),
      TableCell::number(s.total_tps, 1),
      TableCell::number(s.goodput_rps, 2),
      TableCell::number(s.input_tokens_mean, 1),
      TableCell::number(s.output_tokens_mean, 1),
  };
  for (const Summary* m : {&s.ttft_ms, &s.tpot_ms, &s.itl_ms, &s.e2e_ms, &s.ttft_content_ms, &s.ttft_later_turns_ms}) {
    const bool none = m->n == 0;
    for (double v : {m->mean, m->median, m->p90, m->p95, m->p99}) r.push_back(TableCell::number(none ? NAN : v, 2));
  }
  for (const char* kind : {"refused", "http_status", "malformed_stream", "cut_mid_stream", "timeout"}) {
    int n = 0;
    for (const auto& [k, v] : s.errors) {
      if (k == kind) n = v;
    }
    r.push_back(TableCell::integer(n));
  }
  r.push_back(TableCell::number(s.server_tg_tps, 1));
  r.push_back(TableCell::number(s.client_tg_tps, 1));
  const double diff = std::isfinite(s.server_tg_tps) && s.server_tg_tps > 0
                          ? 100.0 * (s.client_tg_tps - s.server_tg_tps) / s.server_tg_tps
                          : NAN;
  r.push_back(TableCell::number(diff, 1));
  r.push_back(TableCell::number(s.server_prompt_p50_ms, 2));
  r.push_back(TableCell::number(s.server_prompt_tps, 1));
  r.push_back(TableCell::number(s.server_prompt_n_mean, 1));
  r.push_back(TableCell::number(s.server_cache_n_mean, 1));
  r.push_back(TableCell::number(s.server_draft_accepted_pct, 1));
  r.push_back(TableCell::number(s.server_load_p50_ms, 2));
  r.push_back(s.sweep.empty() ? TableCell::absent("-") : TableCell::str(s.sweep));
  r.push_back(s.slo_met < 0 ? TableCell::absent("-") : TableCell::boolean(s.slo_met == 1));
  r.push_back(s.slo_miss.empty() ? TableCell::absent("-") : TableCell::str(s.slo_miss));
  r.push_back(s.capacity.empty() ? TableCell::absent("-") : TableCell::str(s.capacity));
  r.push_back(TableCell::number(s.capacity_load, 2));
  r.push_back(TableCell::integer(s.output_short));
  r.push_back(TableCell::number(s.client_cpu_pct, 2));
  const bool measured = rec.energy.method != "unavailable";
  r.push_back(measured ? TableCell::str(rec.energy.method) : TableCell::absent());
  r.push_back(TableCell::number(rec.energy.idle_power_w, 2));
  r.push_back(TableCell::number(rec.energy.tg ? rec.energy.tg->power_w : NAN, 2));
  r.push_back(TableCell::number(rec.energy.tg ? rec.energy.tg->j_per_token : NAN, 4));
  r.push_back(TableCell::number(rec.cost ? rec.cost->gross_per_mtok : NAN, 4));
  r.push_back(rec.cost ? TableCell::str(rec.cost->currency) : TableCell::absent());
  r.push_back(TableCell::boolean(rec.interrupted));
  r.push_back(TableCell::str(rec.record_id));
  return r;
}

// A client above this share of one core is said to be near its own limit: its one event loop
// (net/stream_loop.h) runs on one core.
constexpr double kClientBusyPct = 50;

// Footer lines of one run: errors by kind, the server's timings beside the client's, an
// output length the server did not honour.
void add_serve_footers(Table& table, const RunRecord& rec, int n_gen) {
  const ServerRun& s = *rec.server;
  const std::string at = "c=" + std::to_string(s.concurrency) + ": ";
  if (rec.interrupted) {
    table.add_footer(at + "interrupted after " + std::to_string(s.requests) + " requests ended: the figures are theirs");
  }
  if (s.failed > 0) {
    std::string kinds;
    for (const auto& [k, n] : s.errors) kinds += (kinds.empty() ? "" : ", ") + k + " " + std::to_string(n);
    table.add_footer(at + std::to_string(s.failed) + " of " + std::to_string(s.requests) + " requests failed (" +
                     kinds + "; first: " + s.first_error + ")");
  }
  if (s.turns > 1 && s.ttft_later_turns_ms.n > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "%d-turn chats (think time %.2f s): TTFT p50 %.2f ms over every turn, %.2f ms over turns 2-%d "
                  "(each re-sends its history)",
                  s.turns, s.think_time_s, s.ttft_ms.median, s.ttft_later_turns_ms.median, s.turns);
    table.add_footer(at + line);
  }
  // This machine while the run loaded the server (measure::client_machine_notes).
  for (const NoiseNote& n : rec.noise) table.add_note(at + noise_note_text(n));
  if (s.load_replies > 0) {
    table.add_footer(at + std::to_string(s.load_replies) +
                     " answers were the server's model load/unload replies (done_reason load/unload), not counted");
  }
  if (s.ttft_content_ms.n > 0 && s.ttft_content_ms.median > s.ttft_ms.median) {
    char line[200];
    std::snprintf(line, sizeof line, "reasoning first: TTFT p50 %.2f ms to the first token, %.2f ms to the first content token",
                  s.ttft_ms.median, s.ttft_content_ms.median);
    table.add_footer(at + line);
  }
  if (std::isfinite(s.server_tg_tps)) {
    char line[320];
    std::snprintf(line, sizeof line,
                  "server-reported tg %.1f t/s, client %.1f t/s (%+.1f %%, each sum of tokens / sum of generation "
                  "time); server prompt p50 %.2f ms, client TTFT p50 %.2f ms",
                  s.server_tg_tps, s.client_tg_tps, 100.0 * (s.client_tg_tps - s.server_tg_tps) / s.server_tg_tps,
                  s.server_prompt_p50_ms, s.ttft_ms.median);
    table.add_footer(at + line);
  }
  if (std::isfinite(s.server_prompt_tps) || std::isfinite(s.server_cache_n_mean)) {
    // Each figure the server reported, none it did not (a server without a prompt cache read "nan").
    std::string line = "server prompt:";
    if (std::isfinite(s.server_prompt_n_mean))
      line += " " + format_fixed(s.server_prompt_n_mean, 1) + " tokens evaluated a request";
    if (std::isfinite(s.server_prompt_tps)) line += " at " + format_fixed(s.server_prompt_tps, 1) + " t/s";
    if (std::isfinite(s.server_cache_n_mean))
      line += std::string(line.ends_with(':') ? "" : ",") + " " + format_fixed(s.server_cache_n_mean, 1) +
              " from its cache";
    table.add_footer(at + line);
  }
  if (std::isfinite(s.server_draft_accepted_pct)) {
    table.add_footer(at + "speculative decoding: " + format_fixed(s.server_draft_accepted_pct, 1) +
                     " % of drafted tokens accepted");
  }
  if (!s.capacity.empty()) table.add_footer("capacity (" + s.sweep + " sweep, SLO " + s.slo + "): " + s.capacity);
  if (rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token)) {
    char line[256];
    std::snprintf(line, sizeof line, "energy (%s): idle %.1f W, loaded %.1f W, %.4f J per output token",
                  rec.energy.method.c_str(), rec.energy.idle_power_w, rec.energy.tg->power_w,
                  rec.energy.tg->j_per_token);
    std::string text = at + line;
    if (rec.cost && std::isfinite(rec.cost->gross_per_mtok)) {
      std::snprintf(line, sizeof line, "; %.4f %s per Mtok (electricity, gross)", rec.cost->gross_per_mtok,
                    rec.cost->currency.c_str());
      text += line;
    }
    table.add_footer(text);
  }
  if (std::isfinite(s.client_cpu_pct) && s.client_cpu_pct >= kClientBusyPct) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "the client itself used %.0f %% of one core while the requests ran (c=%d): near 100 %% it, not "
                  "the server, sets the pace; lower --concurrency or run serve-bench on another machine",
                  s.client_cpu_pct, s.concurrency);
    table.add_note(line);
  }
  if (s.output_short > 0) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "the server did not honour the output length on %d of %d requests (asked %d, got %.1f on "
                  "average): TPOT and tokens/s are over the tokens it sent",
                  s.output_short, s.completed, n_gen, s.output_tokens_mean);
    table.add_note(line);
  }
}

Table serve_job_table(const std::string& url, const std::string& api, const std::vector<std::string>& models,
                      const ServeWorkload& load, bool slo) {
  Table table(serve_columns(slo, models.size() > 1));
  const std::string prompts =
      !load.trace.empty()
          ? ", the trace " + load.trace + " at its times" + (load.trace_scale != 1 ? " x " + shortest(load.trace_scale) : "")
      : !load.prompts_file.empty()
          ? ", prompts from " + load.prompts_file
          : ", " + std::to_string(load.n_prompt) + " prompt + " + std::to_string(load.n_gen) + " output tokens";
  const std::string prefix =
      load.prompts_file.empty() && load.prefix_tokens > 0
          ? " after a shared " + std::to_string(load.prefix_tokens) + "-token prefix" +
                (load.prefix_share < 1 ? " on " + shortest(100 * load.prefix_share) + "% of the requests" : "")
          : "";
  const double rate = load.rate;
  table.add_preamble("serve-bench " + url + " (" + api + "), model" + (models.size() > 1 ? "s " : " ") +
                     join(models, ", ") + prompts + prefix +
                     (std::isinf(rate) ? ", every request at once (rate inf)"
                      : rate > 0       ? ", " + shortest(rate) + " req/s " +
                                       (load.burstiness == 1 ? std::string("Poisson")
                                                             : "gamma (burstiness " + shortest(load.burstiness) + ")")
                                       : ""));
  return table;
}

void print_serve_job(const Table& table, const std::optional<cost::ModelCosts>& costs,
                     const cost::CostInputs* pricing, OutputFormat format, bool wide, std::ostream& out) {
  switch (format) {
    case OutputFormat::kJson: {
      std::ostringstream rows, priced;
      render(table, format, rows, {wide});
      if (costs) print_model_costs(*costs, *pricing, format, priced);
      const nlohmann::ordered_json both = {
          {"runs", nlohmann::ordered_json::parse(rows.str())},
          {"model_costs", costs ? nlohmann::ordered_json::parse(priced.str()) : nlohmann::ordered_json()}};
      out << both.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
      break;
    }
    case OutputFormat::kJsonl:
      if (costs) {
        std::ostringstream priced;
        print_model_costs(*costs, *pricing, format, priced);
        std::istringstream lines(priced.str());
        for (std::string line; std::getline(lines, line);) {
          if (!line.empty()) out << "{\"model_cost\": " << line << "}\n";
        }
      }
      break;
    default:
      render(table, format, out, {wide});
      if (costs) {
        out << "\n";
        print_model_costs(*costs, *pricing, format, out);
      }
      break;
  }
}

}  // namespace rigbench::report
