#include "cli/cost_command.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "cost/tariff.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

namespace {

bool given(double v) { return !std::isnan(v); }

std::string num(double v, const char* format = "%.4g") {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return "never";
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A range check that names the flag: "--utilization 1.5: must be in (0, 1]".
Status check(const char* flag, double v, bool ok, const char* rule) {
  if (!given(v) || (std::isfinite(v) && ok)) return {};
  return fail(ErrorCode::kUsage, std::string(flag) + " " + num(v, "%g") + ": must be " + rule);
}

// JSON number, or null for a figure that is missing (NaN) or never reached (inf).
nlohmann::ordered_json jnum(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); }

// `j` may already hold what comes first (the priced run).
void print_json(const cost::CostReport& r, nlohmann::ordered_json j) {
  const auto& in = r.inputs;
  const std::string per = "_" + to_lower(in.currency) + "_per_mtok";
  j["currency"] = in.currency;
  j["inputs"] = {{"tokens_per_s", jnum(in.tokens_per_s)},     {"active_power_w", jnum(in.active_power_w)},
                 {"idle_power_w", jnum(in.idle_power_w)},     {"power_method", in.power_method},
                 {"psu_efficiency", in.psu_efficiency},       {"rest_w", in.rest_w},
                 {"price_per_kwh", jnum(in.price_per_kwh)},   {"price_source", in.price_source},
                 {"utilization", jnum(in.utilization)},       {"api" + per, jnum(in.api_price_per_mtok)}};
  if (in.has_hardware) {
    j["inputs"]["hardware_price"] = in.hardware.price;
    j["inputs"]["residual_value"] = in.hardware.residual;
    j["inputs"]["upkeep"] = in.hardware.upkeep;
    j["inputs"]["lifetime_s"] = in.hardware.lifetime_s;
  }
  j["wall_active_w"] = jnum(r.wall_active_w);
  j["wall_idle_w"] = jnum(r.wall_idle_w);
  j["energy"] = {{"gross_j_per_token", jnum(r.gross.j)},
                 {"marginal_j_per_token", jnum(r.marginal.j)},
                 {"at_utilization_j_per_token", jnum(r.at_utilization.j)}};
  j["electricity"] = {{"gross" + per, jnum(r.gross.cost_per_mtok)},
                      {"marginal" + per, jnum(r.marginal.cost_per_mtok)},
                      {"at_utilization" + per, jnum(r.at_utilization.cost_per_mtok)}};
  j["hardware" + per] = jnum(r.hardware_per_mtok);
  j["total" + per] = jnum(r.total_per_mtok);
  j["break_even_utilization"] = jnum(r.break_even_utilization);
  j["break_even_never"] = std::isinf(r.break_even_utilization);
  j["price_per_memory_gb"] = jnum(r.price_per_memory_gb);
  j["notes"] = r.notes;
  std::cout << j.dump(2) << "\n";
}

void print_markdown(const cost::CostReport& r) {
  const auto& in = r.inputs;
  const std::string cur = in.currency;
  const std::string u = num(in.utilization, "%g");
  std::printf("| figure | J/token | %s/Mtok |\n|---|---:|---:|\n", cur.c_str());
  auto row = [](const std::string& name, double j, double c) {
    std::printf("| %s | %s | %s |\n", name.c_str(), num(j).c_str(), num(c).c_str());
  };
  row("electricity, gross", r.gross.j, r.gross.cost_per_mtok);
  row("electricity, marginal (above idle)", r.marginal.j, r.marginal.cost_per_mtok);
  if (given(in.utilization)) row("electricity, at utilization " + u, r.at_utilization.j, r.at_utilization.cost_per_mtok);
  if (in.has_hardware) row("hardware, at utilization " + u, NAN, r.hardware_per_mtok);
  if (given(r.total_per_mtok)) row("total, at utilization " + u, NAN, r.total_per_mtok);
  if (given(in.api_price_per_mtok)) row("API price", NAN, in.api_price_per_mtok);
  std::printf("\n");
  if (given(in.api_price_per_mtok)) {
    const double b = r.break_even_utilization;
    if (std::isinf(b)) std::printf("break-even: never (the marginal electricity alone costs the API price or more)\n");
    else if (given(b)) std::printf("break-even utilization: %s (%s %%)%s\n", num(b, "%.3g").c_str(), num(100 * b, "%.3g").c_str(),
                                   b > 1 ? ": above 1, the API is cheaper even at full use" : "");
  }
  if (given(r.price_per_memory_gb)) std::printf("hardware price per GB of memory: %s %s\n", num(r.price_per_memory_gb).c_str(), cur.c_str());
  if (given(in.active_power_w) || given(in.idle_power_w)) {
    std::printf("inputs: %s tokens/s; %s W active, %s W idle at the wall (power %s)", num(in.tokens_per_s, "%g").c_str(),
                num(r.wall_active_w, "%g").c_str(), num(r.wall_idle_w, "%g").c_str(), in.power_method.c_str());
  } else {
    std::printf("inputs: %s tokens/s; no power given or measured", num(in.tokens_per_s, "%g").c_str());
  }
  if (given(in.price_per_kwh)) std::printf("; %s %s/kWh (%s)", num(in.price_per_kwh, "%.4g").c_str(), cur.c_str(), in.price_source.c_str());
  std::printf("\n");
  for (const auto& n : r.notes) std::printf("note: %s\n", n.c_str());
}

}  // namespace

void add_price_flags(CLI::App& cmd, CostOptions& o) {
  auto* price = cmd.add_option("--price", o.price, "electricity price per kWh");
  auto* tariff = cmd.add_option("--tariff", o.tariff, "time-of-use tariff, e.g. day=0.30@07-23,night=0.18 (hour-weighted mean)");
  price->excludes(tariff);
  cmd.add_option("--currency", o.currency, "currency of the prices")->capture_default_str();
  cmd.add_option("--psu-efficiency", o.psu_efficiency, "power supply efficiency (0, 1]: wall = watts / efficiency + rest")
      ->capture_default_str();
  cmd.add_option("--rest-watts", o.rest_watts, "W no meter sees (fans, disks, board), added at the wall")->capture_default_str();
  cmd.add_option("--utilization", o.utilization, "share of the time the machine generates, (0, 1]");
  cmd.add_option("--hardware-price", o.hardware_price, "purchase price of the machine");
  cmd.add_option("--residual-value", o.residual_value, "resale value at the end of its life")->capture_default_str();
  cmd.add_option("--upkeep", o.upkeep, "repairs and other costs over its life (not electricity)")->capture_default_str();
  cmd.add_option("--lifetime-years", o.lifetime_years, "years the hardware is written off over");
  cmd.add_option("--api-price", o.api_price, "a cloud API's price per million output tokens (break-even)");
  cmd.add_option("--memory-gb", o.memory_gb, "memory of the machine for models, GB (hardware price per GB)");
}

CLI::App* add_cost_command(CLI::App& app, CostOptions& o) {
  CLI::App* cmd = app.add_subcommand("cost", "Energy per token and cost per million output tokens, from given figures");
  cmd->add_option("--run", o.run, "a stored run: its record_id (or a unique prefix) or 'latest'; its tg speed and "
                                   "measured watts are used unless --tps/--watts/--idle-watts are given");
  cmd->add_option("--db", o.db_path, "the database holding --run (default: $XDG_DATA_HOME/rigbench/results.db)");
  cmd->add_option("--tps", o.tps, "output tokens per second while generating (tg); required without --run");
  cmd->add_option("--watts", o.watts, "average power while generating, W (components; see --psu-efficiency)");
  cmd->add_option("--idle-watts", o.idle_watts, "idle power with the model loaded, W");
  add_price_flags(*cmd, o);
  cmd->add_option("-o,--output", o.output, "md or json")->check(CLI::IsMember({"md", "json"}))->capture_default_str();
  return cmd;
}

Result<cost::CostInputs> cost_inputs(const CostOptions& o, bool require_tps) {
  for (const Status& s : {check("--tps", o.tps, o.tps > 0, "> 0"), check("--watts", o.watts, o.watts >= 0, ">= 0"),
                          check("--idle-watts", o.idle_watts, o.idle_watts >= 0, ">= 0"),
                          check("--price", o.price, o.price >= 0, ">= 0"),
                          check("--psu-efficiency", o.psu_efficiency, o.psu_efficiency > 0 && o.psu_efficiency <= 1, "in (0, 1]"),
                          check("--rest-watts", o.rest_watts, o.rest_watts >= 0, ">= 0"),
                          check("--utilization", o.utilization, o.utilization > 0 && o.utilization <= 1, "in (0, 1]"),
                          check("--hardware-price", o.hardware_price, o.hardware_price >= 0, ">= 0"),
                          check("--residual-value", o.residual_value, o.residual_value >= 0, ">= 0"),
                          check("--upkeep", o.upkeep, o.upkeep >= 0, ">= 0"),
                          check("--lifetime-years", o.lifetime_years, o.lifetime_years > 0, "> 0"),
                          check("--api-price", o.api_price, o.api_price >= 0, ">= 0"),
                          check("--memory-gb", o.memory_gb, o.memory_gb > 0, "> 0")}) {
    if (!s) return std::unexpected(s.error());
  }
  if (require_tps && !given(o.tps)) return fail(ErrorCode::kUsage, "cost: --tps is required");
  if (given(o.hardware_price) != given(o.lifetime_years)) {
    return fail(ErrorCode::kUsage, "cost: --hardware-price and --lifetime-years go together");
  }
  if (o.currency.empty() || o.currency.size() > 8 ||
      o.currency.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != std::string::npos) {
    return fail(ErrorCode::kUsage, "--currency '" + o.currency + "': expected 1 to 8 letters, e.g. EUR");
  }
  cost::CostInputs in;
  in.tokens_per_s = o.tps;
  in.active_power_w = o.watts;
  in.idle_power_w = o.idle_watts;
  in.power_method = given(o.watts) || given(o.idle_watts) ? o.power_method : "none";  // never "stated" for no figure
  in.psu_efficiency = o.psu_efficiency;
  in.rest_w = o.rest_watts;
  in.currency = o.currency;
  in.utilization = o.utilization;
  in.api_price_per_mtok = o.api_price;
  in.memory_gb = o.memory_gb;
  if (given(o.price)) {
    in.price_per_kwh = o.price;
    in.price_source = "--price";
  } else if (!o.tariff.empty()) {
    auto tariff = cost::parse_tariff(o.tariff);
    if (!tariff) return fail(ErrorCode::kUsage, "--tariff: " + tariff.error().message);
    in.price_per_kwh = tariff->mean_price_per_kwh;
    in.price_source = "hour-weighted mean of tariff " + o.tariff;
  }
  if (given(o.hardware_price)) {
    in.has_hardware = true;
    in.hardware = {o.hardware_price, o.residual_value, o.upkeep, o.lifetime_years * cost::kSecondsPerYear};
  }
  return in;
}

namespace {

// The stored run that was priced, said in the output: which record, model, machine and time.
struct PricedRun {
  std::string record_id, model, machine, test_time;
};

// Fills tps and watts the user did not give from a stored run's measurements.
Result<PricedRun> fill_from_run(CostOptions& o) {
  std::string path = o.db_path;
  if (path.empty()) {
    auto p = store::default_db_path();
    if (!p) return std::unexpected(p.error());
    path = *p;
  }
  if (!std::filesystem::exists(path)) return fail(ErrorCode::kNotFound, "database '" + path + "': no such file");
  auto db = store::SqliteStore::open_readonly(path);  // reading only: the file is not changed
  if (!db) return std::unexpected(db.error());
  auto all = (*db)->load_all();
  if (!all) return std::unexpected(all.error());
  const RunRecord* found = nullptr;
  int matches = 0;
  for (const auto& r : *all) {
    if (o.run == "latest" || r.record_id.rfind(o.run, 0) == 0) {
      found = &r;
      ++matches;
    }
  }
  if (!found) return fail(ErrorCode::kNotFound, "--run '" + o.run + "': no such run in '" + path + "'");
  if (o.run != "latest" && matches > 1) return fail(ErrorCode::kUsage, "--run '" + o.run + "': matches " + std::to_string(matches) + " runs");
  if (!found->results.tg) return fail(ErrorCode::kInvalidInput, "--run '" + o.run + "': the run has no tg result");
  if (!given(o.tps)) o.tps = found->results.tg->tps.mean;
  if (!given(o.watts) && found->energy.tg) {
    o.watts = found->energy.tg->power_w;
    o.power_method = found->energy.method;
  }
  if (!given(o.idle_watts) && given(found->energy.idle_power_w)) {
    o.idle_watts = found->energy.idle_power_w;
    if (!found->energy.tg) o.power_method = found->energy.method;  // the run's, never a default "stated"
  }
  PricedRun run;
  run.record_id = found->record_id;
  run.model = found->model.name + (found->model.file_type.empty() ? "" : " " + found->model.file_type) +
              (found->model.synthetic ? " (synthetic)" : "");
  const MachineInfo& m = found->machine;
  run.machine = !m.hostname.empty() ? m.hostname : m.cpu;
  run.test_time = found->test_time;
  return run;
}

}  // namespace

Status run_cost_command(const CostOptions& options) {
  CostOptions opts = options;
  std::optional<PricedRun> run;
  if (!opts.run.empty()) {
    auto priced = fill_from_run(opts);
    if (!priced) return std::unexpected(priced.error());
    run = std::move(*priced);
  }
  auto inputs = cost_inputs(opts);
  if (!inputs) return std::unexpected(inputs.error());
  const cost::CostReport report = cost::estimate_cost(*inputs);
  if (opts.output == "json") {
    nlohmann::ordered_json j;
    if (run) j["run"] = {{"record_id", run->record_id}, {"model", run->model}, {"machine", run->machine}, {"test_time", run->test_time}};
    print_json(report, j);
  } else {
    if (run) {
      std::printf("run %s: %s on %s, tested %s\n\n", run->record_id.c_str(), run->model.c_str(), run->machine.c_str(),
                  run->test_time.c_str());
    }
    print_markdown(report);
  }
  return {};
}

}  // namespace rigbench::cli
