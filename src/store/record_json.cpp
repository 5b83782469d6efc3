#include "store/record_json.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/knobs.h"
#include "core/noise_note.h"
#include "core/results.h"
#include "core/significance.h"
#include "core/strings.h"
#include "core/suite_stats.h"

namespace rigbench::store {

using json = Json;

namespace {

// NaN (not measured) is JSON null and back.
json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
double num_from(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : kUnmeasured;
}

// Percentiles beside the mean: `<p>_<unit>` keys (p50 is the median), docs/record.md.
void add_percentiles(json& j, const Summary& s, const std::string& unit) {
  j["p50_" + unit] = num(s.median);
  j["p90_" + unit] = num(s.p90);
  j["p95_" + unit] = num(s.p95);
  j["p99_" + unit] = num(s.p99);
}

json throughput_json(const ThroughputResult& r) {
  json j = {{"n_tokens", r.n_tokens},          {"n_samples", r.tps.n},       {"samples_ns", r.samples_ns},
            {"samples_tps", r.samples_tps},    {"avg_tps", num(r.tps.mean)}, {"stddev_tps", num(r.tps.stddev)},
            {"median_tps", num(r.tps.median)}, {"min_tps", num(r.tps.min)},  {"max_tps", num(r.tps.max)}};
  add_percentiles(j, r.tps, "tps");
  if (r.summary_only) j["summary_only"] = true;  // statistics as the source stated them, no samples
  // The 95 % interval of the mean (core/significance.h mean_interval), derived: never read back.
  const auto ci = mean_interval(r.tps);
  j["ci95_low_tps"] = ci ? num(ci->low) : json(nullptr);
  j["ci95_high_tps"] = ci ? num(ci->high) : json(nullptr);
  j["ci95_pct"] = ci ? num(ci->half_width_pct) : json(nullptr);
  if (!r.itl_ns.empty()) {  // tg: each generated token's latency
    j["itl_samples_ns"] = r.itl_ns;
    j["itl_avg_ms"] = num(r.itl_ms.mean);
    j["itl_stddev_ms"] = num(r.itl_ms.stddev);
    j["itl_min_ms"] = num(r.itl_ms.min);
    j["itl_max_ms"] = num(r.itl_ms.max);
    j["itl_p50_ms"] = num(r.itl_ms.median);
    j["itl_p90_ms"] = num(r.itl_ms.p90);
    j["itl_p95_ms"] = num(r.itl_ms.p95);
    j["itl_p99_ms"] = num(r.itl_ms.p99);
  }
  return j;
}

json latency_json(const LatencyResult& r) {
  json j = {{"n_samples", r.ms.n},      {"samples_ns", r.samples_ns}, {"avg_ms", r.ms.mean}, {"stddev_ms", r.ms.stddev},
            {"median_ms", r.ms.median}, {"min_ms", r.ms.min},         {"max_ms", r.ms.max}};
  add_percentiles(j, r.ms, "ms");
  return j;
}

// A suite's figures under `<metric>_<stat>_<unit>` keys: gen_p50_tps, gen_p95_tps, ttft_p50_ms, ...
void add_suite_figures(json& j, const SuiteFigures& f) {
  j["n_prompts"] = f.ttft_ms.n;
  j["gen_avg_tps"] = num(f.gen_tps.mean);
  j["gen_stddev_tps"] = num(f.gen_tps.stddev);
  j["gen_p50_tps"] = num(f.gen_tps.median);
  j["gen_p90_tps"] = num(f.gen_tps.p90);
  j["gen_p95_tps"] = num(f.gen_tps.p95);
  j["gen_p99_tps"] = num(f.gen_tps.p99);
  j["ttft_avg_ms"] = num(f.ttft_ms.mean);
  j["ttft_stddev_ms"] = num(f.ttft_ms.stddev);
  j["ttft_p50_ms"] = num(f.ttft_ms.median);
  j["ttft_p90_ms"] = num(f.ttft_ms.p90);
  j["ttft_p95_ms"] = num(f.ttft_ms.p95);
  j["ttft_p99_ms"] = num(f.ttft_ms.p99);
}

// The suite: its identity, each prompt's samples per run (and its medians over runs), and the
// statistics over the prompts' medians, whole suite and per category. Figures are recomputed
// from the samples on reading.
json suite_json(const SuiteResult& s) {
  json prompts = json::array();
  for (const PromptResult& p : s.prompts) {
    const SuiteFigures f = prompt_figures(p);
    prompts.push_back({{"id", p.id},
                       {"category", p.category},
                       {"n_prompt_tokens", p.n_prompt_tokens},
                       {"n_gen_asked", p.n_gen_asked},
                       {"n_generated", p.n_generated},
                       {"prefill_samples_ns", p.prefill_ns},
                       {"ttft_samples_ns", p.ttft_ns},
                       {"gen_samples_ns", p.gen_ns},
                       {"itl_samples_ns", p.itl_ns},
                       {"gen_p50_tps", num(f.gen_tps.median)},
                       {"ttft_p50_ms", num(f.ttft_ms.median)}});
  }
  json j = {{"name", s.name}, {"hash", s.hash}, {"runs", s.runs}, {"ignore_eos", s.ignore_eos}};
  add_suite_figures(j, suite_figures(s));
  json categories = json::array();
  for (const std::string& c : suite_categories(s)) {
    json cj = {{"category", c}};
    add_suite_figures(cj, suite_figures(s, c));
    categories.push_back(std::move(cj));
  }
  j["categories"] = std::move(categories);
  j["prompts"] = std::move(prompts);
  return j;
}

SuiteResult suite_from(const json& j) {
  SuiteResult s;
  s.name = j.at("name").get<std::string>();
  s.hash = j.value("hash", "");
  s.runs = j.value("runs", 0);
  s.ignore_eos = j.value("ignore_eos", false);
  for (const json& pj : j.value("prompts", json::array())) {
    PromptResult p;
    p.id = pj.at("id").get<std::string>();
    p.category = pj.value("category", "");
    p.n_prompt_tokens = pj.value("n_prompt_tokens", 0);
    p.n_gen_asked = pj.value("n_gen_asked", 0);
    p.n_generated = pj.value("n_generated", std::vector<int>{});
    p.prefill_ns = pj.value("prefill_samples_ns", std::vector<int64_t>{});
    p.ttft_ns = pj.value("ttft_samples_ns", std::vector<int64_t>{});
    p.gen_ns = pj.value("gen_samples_ns", std::vector<int64_t>{});
    p.itl_ns = pj.value("itl_samples_ns", std::vector<std::vector<int64_t>>{});
    s.prompts.push_back(std::move(p));
  }
  return s;
}

json device_json(const DeviceInfo& d) {
  return {{"name", d.name},
          {"description", d.description},
          {"type", d.type},
          {"memory_total_bytes", d.memory_total_bytes},
          {"memory_free_bytes", d.memory_free_bytes}};
}

json phase_energy_json(const PhaseEnergyInfo& p) {
  return {{"duration_s", p.duration_s},          {"energy_j", num(p.energy_j)},
          {"power_w", num(p.power_w)},           {"j_per_token", num(p.j_per_token)},
          {"start_unix_s", num(p.start_unix_s)}, {"end_unix_s", num(p.end_unix_s)}};
}

PhaseEnergyInfo phase_energy_from(const json& j) {
  PhaseEnergyInfo p;
  p.duration_s = j.value("duration_s", 0.0);
  p.energy_j = num_from(j, "energy_j");
  p.power_w = num_from(j, "power_w");
  p.j_per_token = num_from(j, "j_per_token");
  p.start_unix_s = num_from(j, "start_unix_s");
  p.end_unix_s = num_from(j, "end_unix_s");
  return p;
}

json energy_json(const EnergyInfo& e) {
  json j = {{"method", e.method},   {"meters", e.meters},
            {"domains", e.domains}, {"idle_power_w", num(e.idle_power_w)},
            {"idle_s", e.idle_s},   {"sample_rate_hz", e.sample_rate_hz}};
  if (e.pp) j["pp"] = phase_energy_json(*e.pp);
  if (e.tg) j["tg"] = phase_energy_json(*e.tg);
  json trace = json::array();
  for (const auto& [t, w] : e.power_trace) trace.push_back(json::array({t, w}));
  j["power_trace"] = trace;
  j["notes"] = e.notes;
  j["flags"] = e.flags;
  return j;
}

EnergyInfo energy_from(const json& j) {
  EnergyInfo e;
  e.method = j.value("method", "unavailable");
  e.meters = j.value("meters", std::vector<std::string>{});
  e.domains = j.value("domains", std::vector<std::string>{});
  e.idle_power_w = num_from(j, "idle_power_w");
  e.idle_s = j.value("idle_s", 0.0);
  e.sample_rate_hz = j.value("sample_rate_hz", 0.0);
  if (j.contains("pp")) e.pp = phase_energy_from(j["pp"]);
  if (j.contains("tg")) e.tg = phase_energy_from(j["tg"]);
  for (const auto& p : j.value("power_trace", json::array())) {
    if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
      e.power_trace.emplace_back(p[0].get<double>(), p[1].get<double>());
  }
  e.notes = j.value("notes", std::vector<std::string>{});
  e.flags = j.value("flags", std::vector<std::string>{});
  return e;
}

// A serve-bench latency's statistics, in the record's key order: `<metric>_<stat>_ms` after
// `<metric>_n`. One table for writing and reading.
struct SummaryMsKey {
  const char* stat;
  double Summary::*value;
};
constexpr SummaryMsKey kSummaryMsKeys[] = {
    {"mean", &Summary::mean}, {"p50", &Summary::median},    {"p90", &Summary::p90}, {"p95", &Summary::p95},
    {"p99", &Summary::p99},   {"stddev", &Summary::stddev}, {"min", &Summary::min}, {"max", &Summary::max},
};

void summary_ms_json(json& j, const char* metric, const Summary& s) {
  const std::string m = metric;
  j[m + "_n"] = s.n;
  // No samples, no figures: null, never a 0 ms that was not measured.
  for (const SummaryMsKey& k : kSummaryMsKeys) j[m + "_" + k.stat + "_ms"] = s.n > 0 ? num(s.*k.value) : json(nullptr);
}
Summary summary_ms_from(const json& j, const char* metric) {
  const std::string m = metric;
  Summary s;
  s.n = j.value(m + "_n", std::size_t{0});
  for (const SummaryMsKey& k : kSummaryMsKeys) s.*k.value = num_from(j, (m + "_" + k.stat + "_ms").c_str());
  return s;
}

// A flat field of a record struct S: its key and member, written as it is (NaN as null) and read
// back with the struct's default where the key is absent, or NaN ("not measured") for the
// figures marked so. No member (monostate): a field written by hand, at its place in the order.
template <class S>
struct FlatField {
  const char* key;
  std::variant<std::monostate, std::string S::*, int S::*, uint64_t S::*, double S::*> member;
  bool nan_when_absent = false;
};

// Writes `fields` in their order; `by_hand(key)` writes the one of each entry without a member.
template <class S, std::size_t N, class ByHand>
void put_flat(json& j, const S& s, const FlatField<S> (&fields)[N], ByHand by_hand) {
  for (const FlatField<S>& f : fields) {
    std::visit(
        [&](auto m) {
          if constexpr (std::is_same_v<decltype(m), std::monostate>) {
            by_hand(f.key);
          } else if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.*m)>, double>) {
            j[f.key] = num(s.*m);
          } else {
            j[f.key] = s.*m;
          }
        },
        f.member);
  }
}

template <class S, std::size_t N>
void get_flat(const json& j, S& s, const FlatField<S> (&fields)[N]) {
  for (const FlatField<S>& f : fields) {
    std::visit(
        [&](auto m) {
          if constexpr (std::is_same_v<decltype(m), std::monostate>) {
            return;  // read by hand
          } else if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.*m)>, double>) {
            const double v = num_from(j, f.key);
            if (!std::isnan(v) || f.nan_when_absent) s.*m = v;
          } else {
            s.*m = j.value(f.key, s.*m);
          }
        },
        f.member);
  }
}

constexpr bool kNan = true;  // FlatField::nan_when_absent

// serve-bench's run: identity (url, software, version, api, load) and its figures, flat, units
// in the keys (ttft_p95_ms, ...). The fields below go as they are; the rest are written and read
// by hand (infinite rates, the error counts, the SLO verdict, the latency summaries).
const FlatField<ServerRun> kServerFields[] = {
    {"url", &ServerRun::url},
    {"software", &ServerRun::software},
    {"version", &ServerRun::version},
    {"api", &ServerRun::api},
    {"model_id", &ServerRun::model_id},
    {"concurrency", &ServerRun::concurrency},
    {"rate_rps", {}},
    {"burstiness", {}},
    {"prefix_tokens", &ServerRun::prefix_tokens},
    {"prefix_share", &ServerRun::prefix_share},
    {"trace", &ServerRun::trace},
    {"trace_scale", &ServerRun::trace_scale},
    {"seed", &ServerRun::seed},
    {"requests", &ServerRun::requests},
    {"completed", &ServerRun::completed},
    {"failed", &ServerRun::failed},
    {"errors", {}},
    {"first_error", &ServerRun::first_error},
    {"duration_s", &ServerRun::duration_s, kNan},
    {"load_replies", &ServerRun::load_replies},
    {"turns", &ServerRun::turns},
    {"think_time_s", &ServerRun::think_time_s},
    {"input_tokens_mean", &ServerRun::input_tokens_mean, kNan},
    {"output_tokens_mean", &ServerRun::output_tokens_mean, kNan},
    {"request_throughput_rps", &ServerRun::request_throughput_rps, kNan},
    {"output_tps", &ServerRun::output_tps, kNan},
    {"total_tps", &ServerRun::total_tps, kNan},
    {"slo", &ServerRun::slo},
    {"goodput_rps", &ServerRun::goodput_rps, kNan},
    {"output_short", &ServerRun::output_short},
    {"server_tg_tps", &ServerRun::server_tg_tps, kNan},
    {"client_tg_tps", &ServerRun::client_tg_tps, kNan},
    {"server_prompt_p50_ms", &ServerRun::server_prompt_p50_ms, kNan},
    {"server_prompt_tps", &ServerRun::server_prompt_tps, kNan},
    {"server_prompt_n_mean", &ServerRun::server_prompt_n_mean, kNan},
    {"server_cache_n_mean", &ServerRun::server_cache_n_mean, kNan},
    {"server_draft_accepted_pct", &ServerRun::server_draft_accepted_pct, kNan},
    {"server_load_p50_ms", &ServerRun::server_load_p50_ms, kNan},
    {"sweep", &ServerRun::sweep},
    {"slo_met", {}},
    {"slo_miss", &ServerRun::slo_miss},
    {"capacity", &ServerRun::capacity},
    {"capacity_load", &ServerRun::capacity_load, kNan},
    {"client_cpu_pct", &ServerRun::client_cpu_pct, kNan},
};

// The latency summaries of a run, by key prefix.
constexpr std::pair<const char*, Summary ServerRun::*> kServerSummaries[] = {
    {"ttft", &ServerRun::ttft_ms},
    {"tpot", &ServerRun::tpot_ms},
    {"itl", &ServerRun::itl_ms},
    {"e2e", &ServerRun::e2e_ms},
    {"ttft_content", &ServerRun::ttft_content_ms},
    {"ttft_later_turns", &ServerRun::ttft_later_turns_ms},
};

json server_json(const ServerRun& r) {
  json j = json::object();
  put_flat(j, r, kServerFields, [&](const std::string& key) {
    if (key == "rate_rps") j[key] = std::isinf(r.rate_rps) ? json("inf") : json(r.rate_rps);
    if (key == "burstiness") j[key] = std::isinf(r.burstiness) ? json("inf") : num(r.burstiness);
    if (key == "slo_met") j[key] = r.slo_met < 0 ? json(nullptr) : json(r.slo_met == 1);
    if (key == "errors") {
      json errors = json::object();
      for (const auto& [kind, n] : r.errors) errors[kind] = n;
      j[key] = std::move(errors);
    }
  });
  for (const auto& [metric, summary] : kServerSummaries) summary_ms_json(j, metric, r.*summary);
  return j;
}

ServerRun server_from(const json& j) {
  ServerRun r;
  get_flat(j, r, kServerFields);
  const auto inf_or = [&](const char* key, double absent) {
    if (j.contains(key) && j[key] == "inf") return std::numeric_limits<double>::infinity();
    const double v = num_from(j, key);
    return std::isnan(v) ? absent : v;
  };
  r.rate_rps = inf_or("rate_rps", 0);
  r.burstiness = inf_or("burstiness", 1);
  if (j.contains("errors") && j["errors"].is_object()) {
    for (const auto& [kind, n] : j["errors"].items()) r.errors.emplace_back(kind, n.get<int>());
  }
  if (j.contains("slo_met") && j["slo_met"].is_boolean()) r.slo_met = j["slo_met"].get<bool>() ? 1 : 0;
  for (const auto& [metric, summary] : kServerSummaries) r.*summary = summary_ms_from(j, metric);
  return r;
}

// Cost keys are fixed; the currency is its own field. Records written before 2026-11-30 named
// the currency in the keys (`gross_eur_per_mtok`): those still read.
json cost_json(const CostInfo& c) {
  return {{"currency", c.currency},
          {"price_per_kwh", num(c.price_per_kwh)},
          {"gross_per_mtok", num(c.gross_per_mtok)},
          {"marginal_per_mtok", num(c.marginal_per_mtok)},
          {"utilization", num(c.utilization)},
          {"at_utilization_per_mtok", num(c.at_utilization_per_mtok)},
          {"hardware_per_mtok", num(c.hardware_per_mtok)},
          {"total_per_mtok", num(c.total_per_mtok)},
          {"notes", c.notes}};
}

CostInfo cost_from(const json& j) {
  CostInfo c;
  c.currency = j.value("currency", "EUR");
  const std::string old = "_" + to_lower(c.currency) + "_per_mtok";  // the older key's tail
  auto figure = [&](const std::string& name) {
    const std::string key = name + "_per_mtok";
    return j.contains(key) ? num_from(j, key.c_str()) : num_from(j, (name + old).c_str());
  };
  c.price_per_kwh = num_from(j, "price_per_kwh");
  c.gross_per_mtok = figure("gross");
  c.marginal_per_mtok = figure("marginal");
  c.utilization = num_from(j, "utilization");
  c.at_utilization_per_mtok = figure("at_utilization");
  c.hardware_per_mtok = figure("hardware");
  c.total_per_mtok = figure("total");
  c.notes = j.value("notes", std::vector<std::string>{});
  return c;
}

json precision_json(const Precision& p) {
  return {
      {"repetitions_mode", p.repetitions_mode}, {"ci_level", kConfidenceLevel}, {"ci_target_pct", num(p.ci_target_pct)},
      {"max_time_s", num(p.max_time_s)},        {"reached", p.reached},         {"stopped_by", p.stopped_by}};
}

Precision precision_from(const json& j) {
  Precision p;
  p.repetitions_mode = j.value("repetitions_mode", "fixed");
  p.ci_target_pct = num_from(j, "ci_target_pct");
  p.max_time_s = num_from(j, "max_time_s");
  p.reached = j.value("reached", false);
  p.stopped_by = j.value("stopped_by", "");
  return p;
}

json noise_json(const std::vector<NoiseNote>& notes) {
  json out = json::array();
  for (const auto& n : notes)
    out.push_back({{"code", n.code}, {"phase", n.phase}, {"note", n.text}, {"remedy", n.remedy}});
  return out;
}

std::vector<NoiseNote> noise_from(const json& j) {
  std::vector<NoiseNote> out;
  if (!j.is_array()) return out;
  for (const auto& n : j) {
    if (!n.is_object()) continue;
    const std::string phase = n.value("phase", "");
    // Earlier builds began the note with its phase, which is a field of its own.
    out.push_back(
        {n.value("code", ""), phase, noise_text_without_phase(phase, n.value("note", "")), n.value("remedy", "")});
  }
  return out;
}

// Statistics are recomputed from the raw samples, so an imported record cannot carry
// figures that disagree with its samples.
ThroughputResult throughput_from(const json& j) {
  if (j.value("summary_only", false)) {  // no samples: the statistics are the record's
    return make_summary_throughput(j.at("n_tokens").get<int>(), j.value("n_samples", std::size_t{0}),
                                   num_from(j, "avg_tps"), num_from(j, "stddev_tps"));
  }
  return make_throughput(j.at("n_tokens").get<int>(), j.at("samples_ns").get<std::vector<int64_t>>(),
                         j.value("itl_samples_ns", std::vector<int64_t>{}));
}

LatencyResult latency_from(const json& j) { return make_latency(j.at("samples_ns").get<std::vector<int64_t>>()); }

// `rigbench embed`: raw samples kept, percentiles beside them (keys `_p50_ms` ..., units in
// the names); statistics are recomputed from the samples on reading.
json embedding_json(const EmbeddingResult& e) {
  const Summary& l = e.latency.ms;
  json lat = {{"n_samples", l.n},        {"samples_ns", e.latency.samples_ns},
              {"avg_ms", num(l.mean)},   {"stddev_ms", num(l.stddev)},
              {"p50_ms", num(l.median)}, {"p90_ms", num(l.p90)},
              {"p95_ms", num(l.p95)},    {"p99_ms", num(l.p99)},
              {"min_ms", num(l.min)},    {"max_ms", num(l.max)}};
  json sweep = json::array();
  for (const EmbedThroughput& t : e.throughput) {
    sweep.push_back({{"batch_size", t.batch_size},
                     {"n_texts", t.n_texts},
                     {"n_tokens", t.n_tokens},
                     {"samples_ns", t.samples_ns},
                     {"avg_texts_per_s", num(t.texts_per_s.mean)},
                     {"stddev_texts_per_s", num(t.texts_per_s.stddev)},
                     {"avg_tps", num(t.tokens_per_s.mean)},
                     {"stddev_tps", num(t.tokens_per_s.stddev)}});
  }
  return {{"pooling", e.pooling},     {"query_set", e.query_set},
          {"n_queries", e.n_queries}, {"n_query_tokens", e.n_query_tokens},
          {"latency", lat},           {"throughput", sweep}};
}

EmbeddingResult embedding_from(const json& j) {
  EmbeddingResult e;
  e.pooling = j.value("pooling", "");
  e.query_set = j.value("query_set", "");
  e.n_queries = j.value("n_queries", 0);
  e.n_query_tokens = j.value("n_query_tokens", 0);
  e.latency = latency_from(j.at("latency"));
  for (const json& t : j.value("throughput", json::array())) {
    e.throughput.push_back(make_embed_throughput(t.at("batch_size").get<int>(), t.at("n_texts").get<int>(),
                                                 t.at("n_tokens").get<int>(),
                                                 t.at("samples_ns").get<std::vector<int64_t>>()));
  }
  return e;
}

// The run's settings: the tests' token counts, every knob (core/knobs.h) under its key, and
// the repetition settings.
json params_json(const BenchParams& p) {
  json out = {{"n_prompt", p.n_prompt}, {"n_gen", p.n_gen}};
  for (const Knob& k : knobs()) {
    if (k.type == Knob::Type::kInt) out[k.key] = p.*k.int_field;
    else out[k.key] = p.*k.text_field;
  }
  out["repetitions"] = p.repetitions;
  out["warmup"] = p.warmup;
  out["delay_s"] = p.delay_s;
  return out;
}

// A knob absent from the JSON (a record from before it existed) keeps BenchParams' default,
// which is what those runs used.
Status params_from(const json& j, BenchParams& p) {
  p.n_prompt = j.at("n_prompt").get<int>();
  p.n_gen = j.at("n_gen").get<int>();
  for (const Knob& k : knobs()) {
    if (!j.contains(k.key) || j[k.key].is_null()) continue;
    if (k.type == Knob::Type::kInt) p.*k.int_field = j[k.key].get<int>();
    else p.*k.text_field = j[k.key].get<std::string>();
  }
  p.repetitions = j.value("repetitions", 0);
  p.warmup = j.value("warmup", 0);
  p.delay_s = j.value("delay_s", 0.0);
  return {};
}

}  // namespace

json to_json(const RunRecord& rec) {
  json gpus = json::array();
  for (const auto& d : rec.machine.gpus) gpus.push_back(device_json(d));
  json buffers = json::array();
  for (const auto& b : rec.memory.buffers) {
    buffers.push_back({{"device", b.device},
                       {"buffer_type", b.buffer_type},
                       {"model_bytes", b.model_bytes},
                       {"context_bytes", b.context_bytes},
                       {"compute_bytes", b.compute_bytes}});
  }
  json results = json::object();
  if (rec.results.pp) results["pp"] = throughput_json(*rec.results.pp);
  if (rec.results.tg) results["tg"] = throughput_json(*rec.results.tg);
  if (rec.results.ttft) results["ttft"] = latency_json(*rec.results.ttft);
  if (rec.results.embedding) results["embedding"] = embedding_json(*rec.results.embedding);
  if (rec.results.suite) results["suite"] = suite_json(*rec.results.suite);

  const auto& m = rec.machine;
  const auto& p = rec.params;
  json out = {
      {"schema_version", rec.schema_version},
      {"record_id", rec.record_id},
      {"test_time", rec.test_time},
      {"machine",
       {{"hostname", m.hostname},
        {"cpu", m.cpu},
        {"cores", m.cores},
        {"threads", m.threads},
        {"ram_bytes", m.ram_bytes},
        {"os", m.os},
        {"kernel", m.kernel},
        {"backends", m.backends},
        {"gpus", gpus}}},
      {"build",
       {{"rigbench_version", rec.build.rigbench_version},
        {"llama_cpp_commit", rec.build.llama_cpp_commit},
        {"llama_cpp_source", rec.build.llama_cpp_source},
        {"build_type", rec.build.build_type}}},
      {"model",
       {{"path", rec.model.path},
        {"name", rec.model.name},
        {"arch", rec.model.arch},
        {"n_params", rec.model.n_params},
        {"size_bytes", rec.model.size_bytes},
        {"file_type", rec.model.file_type},
        {"fingerprint", rec.model.fingerprint},
        {"n_ctx_train", rec.model.n_ctx_train},
        {"synthetic", rec.model.synthetic},
        {"synthetic_values", rec.model.synthetic_values},
        {"synthetic_seed", rec.model.synthetic_seed}}},
      {"params", params_json(p)},
      {"devices_used", rec.devices_used},
      {"results", results},
      {"memory", {{"buffers", buffers}, {"peak_rss_bytes", rec.memory.peak_rss_bytes}}},
      {"roofline",
       {{"tg_bound_tps", rec.roofline.tg_bound_tps},
        {"bandwidth_gbps", rec.roofline.bandwidth_gbps},
        {"bytes_per_token", rec.roofline.bytes_per_token},
        {"estimate_bytes", rec.roofline.estimate_bytes},
        {"is_measurement", false}}},
      {"energy", energy_json(rec.energy)},
      {"cost", rec.cost ? cost_json(*rec.cost) : json(nullptr)},
      {"precision", precision_json(rec.precision)},
      {"noise", noise_json(rec.noise)},
      {"status", run_status(rec)},
      {"interrupted", rec.interrupted},
      {"refused", rec.refused.empty() ? json(nullptr) : json(rec.refused)},
      {"failed", rec.failed.empty() ? json(nullptr) : json(rec.failed)},
      {"tags", rec.tags},
  };
  if (!rec.source_fields.empty()) out["source_fields"] = rec.source_fields;
  // The two terms of a split run's bound (bench --rpc only).
  if (rec.roofline.memory_bound_tps > 0 || rec.roofline.network_ms_per_token > 0) {
    out["roofline"]["memory_bound_tps"] = rec.roofline.memory_bound_tps;
    out["roofline"]["network_ms_per_token"] = rec.roofline.network_ms_per_token;
  }
  if (rec.server) out["server"] = server_json(*rec.server);  // serve-bench runs only
  if (!rec.topology.empty()) {                               // bench --rpc only
    json topo = json::array();
    for (const TopologyDevice& t : rec.topology) {
      topo.push_back({{"endpoint", t.endpoint.empty() ? json(nullptr) : json(t.endpoint)},
                      {"device", t.device},
                      {"memory_total_bytes", t.memory_total_bytes},
                      {"memory_free_bytes", t.memory_free_bytes},
                      {"n_layers", t.n_layers},
                      {"output_layer", t.output_layer},
                      {"rtt_ms", num(t.rtt_ms)}});
    }
    out["topology"] = topo;
  }
  return out;
}

Result<RunRecord> from_json(const json& j) {
  try {
    RunRecord rec;
    rec.schema_version = j.at("schema_version").get<int>();
    rec.record_id = j.at("record_id").get<std::string>();
    rec.test_time = j.at("test_time").get<std::string>();
    const json& m = j.at("machine");
    rec.machine.hostname = m.value("hostname", "");
    rec.machine.cpu = m.at("cpu").get<std::string>();
    rec.machine.cores = m.value("cores", 0);
    rec.machine.threads = m.value("threads", 0);
    rec.machine.ram_bytes = m.value("ram_bytes", uint64_t{0});
    rec.machine.os = m.value("os", "");
    rec.machine.kernel = m.value("kernel", "");
    rec.machine.backends = m.value("backends", std::vector<std::string>{});
    for (const auto& d : m.value("gpus", json::array())) {
      rec.machine.gpus.push_back({d.at("name").get<std::string>(), d.value("description", ""), d.value("type", ""),
                                  d.value("memory_total_bytes", uint64_t{0}),
                                  d.value("memory_free_bytes", uint64_t{0})});
    }
    const json& b = j.at("build");
    rec.build = {b.value("rigbench_version", ""), b.value("llama_cpp_commit", ""), b.value("llama_cpp_source", ""),
                 b.value("build_type", "")};
    const json& mo = j.at("model");
    rec.model.path = mo.value("path", "");
    rec.model.name = mo.at("name").get<std::string>();
    rec.model.arch = mo.value("arch", "");
    rec.model.n_params = mo.value("n_params", uint64_t{0});
    rec.model.size_bytes = mo.value("size_bytes", uint64_t{0});
    rec.model.file_type = mo.value("file_type", "");
    rec.model.fingerprint = mo.value("fingerprint", "");
    rec.model.n_ctx_train = mo.value("n_ctx_train", 0u);
    rec.model.synthetic = mo.value("synthetic", false);
    // Records from before these fields: synthetic files then were recipe 1, seed 42.
    rec.model.synthetic_values = mo.value("synthetic_values", rec.model.synthetic ? 1u : 0u);
    rec.model.synthetic_seed = mo.value("synthetic_seed", rec.model.synthetic ? uint64_t{42} : uint64_t{0});
    const json& p = j.at("params");
    auto& rp = rec.params;
    if (Status st = params_from(p, rp); !st) return std::unexpected(st.error());
    rec.devices_used = j.value("devices_used", std::vector<std::string>{});
    for (const auto& t : j.value("topology", json::array())) {
      TopologyDevice d;
      if (t.contains("endpoint") && t.at("endpoint").is_string()) d.endpoint = t.at("endpoint").get<std::string>();
      d.device = t.value("device", "");
      d.memory_total_bytes = t.value("memory_total_bytes", uint64_t{0});
      d.memory_free_bytes = t.value("memory_free_bytes", uint64_t{0});
      d.n_layers = t.value("n_layers", 0);
      d.output_layer = t.value("output_layer", false);
      d.rtt_ms = num_from(t, "rtt_ms");
      rec.topology.push_back(std::move(d));
    }
    const json& r = j.at("results");
    if (r.contains("pp")) rec.results.pp = throughput_from(r.at("pp"));
    if (r.contains("tg")) rec.results.tg = throughput_from(r.at("tg"));
    if (r.contains("ttft")) rec.results.ttft = latency_from(r.at("ttft"));
    if (r.contains("embedding")) rec.results.embedding = embedding_from(r.at("embedding"));
    if (r.contains("suite")) rec.results.suite = suite_from(r.at("suite"));
    const json& mem = j.value("memory", json::object());
    for (const auto& bj : mem.value("buffers", json::array())) {
      rec.memory.buffers.push_back({bj.value("device", ""), bj.value("buffer_type", ""),
                                    bj.value("model_bytes", uint64_t{0}), bj.value("context_bytes", uint64_t{0}),
                                    bj.value("compute_bytes", uint64_t{0})});
    }
    rec.memory.peak_rss_bytes = mem.value("peak_rss_bytes", uint64_t{0});
    const json& roof = j.value("roofline", json::object());
    rec.roofline.tg_bound_tps = roof.value("tg_bound_tps", 0.0);
    rec.roofline.bandwidth_gbps = roof.value("bandwidth_gbps", 0.0);
    rec.roofline.bytes_per_token = roof.value("bytes_per_token", uint64_t{0});
    rec.roofline.estimate_bytes = roof.value("estimate_bytes", uint64_t{0});
    rec.roofline.memory_bound_tps = roof.value("memory_bound_tps", 0.0);
    rec.roofline.network_ms_per_token = roof.value("network_ms_per_token", 0.0);
    if (j.contains("energy") && j["energy"].is_object()) rec.energy = energy_from(j["energy"]);
    if (j.contains("cost") && j["cost"].is_object()) rec.cost = cost_from(j["cost"]);
    if (j.contains("precision") && j["precision"].is_object()) rec.precision = precision_from(j["precision"]);
    if (j.contains("noise")) rec.noise = noise_from(j["noise"]);
    rec.interrupted = j.value("interrupted", false);
    if (j.contains("refused") && j["refused"].is_string()) rec.refused = j["refused"].get<std::string>();
    if (j.contains("failed") && j["failed"].is_string()) rec.failed = j["failed"].get<std::string>();
    rec.tags = j.value("tags", std::vector<std::string>{});
    if (auto f = j.find("source_fields"); f != j.end() && f->is_object()) {
      for (const auto& [key, value] : f->items()) {
        if (value.is_string()) rec.source_fields[key] = value.get<std::string>();
      }
    }
    if (j.contains("server") && j["server"].is_object()) rec.server = server_from(j["server"]);
    return rec;
  } catch (const json::exception& e) {
    return fail(ErrorCode::kInvalidInput, std::string("record JSON: ") + e.what());
  }
}

}  // namespace rigbench::store
