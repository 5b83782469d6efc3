#include "cli/serve_bench_embed.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdio>
#include <iostream>

#include "cli/build_info.h"
#include "cli/interrupt.h"
#include "cli/progress_flags.h"
#include "core/model_name.h"
#include "core/strings.h"
#include "measure/job.h"
#include "measure/serve_energy.h"
#include "measure/queries.h"
#include "measure/serve_embed.h"
#include "report/embed_table.h"
#include "report/printer.h"

namespace rigbench::cli {

std::string embeddings_refusal(const ServeBenchOptions& o) {
  const auto refused = [](const char* flag) {
    return std::string(flag) + ": a generation setting; --embeddings measures latency per text and texts/s per -b";
  };
  if (o.rate > 0) return refused("--rate");
  if (!o.prompts_file.empty()) return refused("--prompts") + " (give the texts with --queries)";
  if (!o.slo.empty()) return refused("--slo");
  if (!o.save_responses.empty()) return refused("--save-responses");
  if (o.duration_s > 0) return refused("--duration-seconds");
  if (o.num_requests > 0) return refused("--num-requests") + " (the query set times -r sets the count)";
  return "";
}

Status run_serve_embeddings(const ServeBenchOptions& o, const net::Url& url, const net::ServerInfo& server, bool ollama,
                            const std::vector<std::string>& models, const std::vector<int>& concurrency,
                            const net::ClientOptions& client, store::SqliteStore* db, report::OutputFormat format,
                            const std::optional<measure::EnergyConfig>& energy) {
  // The texts: embed's query set (the built-in one or --queries).
  const std::string query_path = o.queries.empty() ? measure::builtin_queries_path() : o.queries;
  auto queries = measure::read_queries(query_path);
  if (!queries) return std::unexpected(queries.error());
  // -b and -r are checked as they are parsed (serve_bench_command.cpp's int_range).

  const std::atomic<bool>& stop = install_interrupt_flag();
  auto progress_shown = show_progress(o.progress, o.no_progress, isatty(STDERR_FILENO) != 0);
  if (!progress_shown) return std::unexpected(progress_shown.error());
  const bool show_progress = *progress_shown;
  MachineInfo machine = machine_info();
  if (!trim(o.machine).empty()) machine.hostname = trim(o.machine);  // --machine, as bench
  const BuildInfo build = build_info();
  auto printer = (format == report::OutputFormat::kJson || format == report::OutputFormat::kJsonl)
                     ? report::make_printer(format, std::cout)
                     : nullptr;
  if (printer) printer->begin();
  std::vector<RunRecord> records;
  std::vector<int64_t> texts;  // per record: the texts its counted requests embedded (J per text)
  int stored = 0;
  bool interrupted = false;
  for (const std::string& model : models) {
    for (const int c : concurrency) {
      if (interrupted) break;
      measure::ServeEmbedSpec spec;
      spec.url = url;
      spec.client = client;
      spec.ollama = ollama;
      spec.model = model;
      spec.queries = *queries;
      spec.query_set = o.queries.empty() ? "builtin" : o.queries;
      spec.batch_sizes = o.batch_sizes;
      spec.repetitions = o.repetitions;
      spec.warmup = o.warmup;
      spec.concurrency = c;
      spec.stop = &stop;
      const std::string at = model + " c=" + std::to_string(c);
      // Energy: the idle window (the server idle, model loaded), then the counted requests as "pp".
      auto meters = measure::open_serve_energy(energy, stop);
      if (!meters) {
        if (printer) printer->end();
        return std::unexpected(meters.error());
      }
      if (meters->session) spec.on_counting = [&meters](bool on) { meters->mark(on ? "pp" : ""); };
      auto outcome = measure::run_serve_embed(spec, [&](const std::string& line) {
        if (show_progress) std::fprintf(stderr, "rigbench: %s: %s\n", at.c_str(), line.c_str());
      });
      if (!outcome) {
        if (printer) printer->end();
        return std::unexpected(outcome.error());
      }
      RunRecord rec;
      rec.record_id = measure::new_record_id();
      rec.test_time = measure::utc_now_iso8601();
      rec.machine = machine;
      rec.build = build;
      rec.model.name = served_model_name(model);  // as bench names the file (llama-server's id is its path)
      rec.params.n_prompt = 0;
      rec.params.n_gen = 0;
      rec.params.n_threads = 0;
      rec.params.repetitions = o.repetitions;
      rec.params.warmup = o.warmup;
      rec.params.embeddings = 1;
      rec.params.n_batch = rec.params.n_ubatch = *std::max_element(o.batch_sizes.begin(), o.batch_sizes.end());
      rec.tags = o.tags;
      rec.interrupted = outcome->interrupted;
      rec.results.embedding = std::move(outcome->result);
      // J per input token and per text over the loaded window, and the cost per Mtok of input tokens.
      if (energy) {
        rec.energy = meters->finish(Results{}, *energy);
        if (rec.energy.pp) {
          PhaseEnergyInfo& pp = *rec.energy.pp;
          const double tokens = outcome->tokens_known ? static_cast<double>(outcome->tokens) : 0;
          if (std::isfinite(pp.energy_j) && tokens > 0) pp.j_per_token = pp.energy_j / tokens;
          if (!(tokens > 0)) rec.energy.notes.push_back("the server did not state the input tokens: no J per token");
          if (energy->pricing) rec.cost = measure::price_phase(rec.energy, pp, tokens, *energy->pricing);
        }
      }
      ServerRun s;
      s.url = url.redacted();
      s.software = server.software;
      s.version = server.version;
      s.model_id = model;
      s.api = ollama ? "ollama-embed" : "openai-embeddings";
      s.concurrency = c;
      s.requests = outcome->requests;
      s.failed = outcome->failed;
      s.completed = outcome->requests - outcome->failed;
      for (const auto& [kind, n] : outcome->errors) s.errors.emplace_back(kind, n);
      s.first_error = outcome->first_error;
      s.duration_s = outcome->duration_s;
      s.e2e_ms = rec.results.embedding->latency.ms;  // a request's whole time: its latency
      rec.server = s;
      if (s.completed == 0 && !rec.interrupted) rec.failed = "every request failed: " + s.first_error;
      if (s.failed > 0 && show_progress) {
        std::fprintf(stderr, "rigbench: %s: %d of %d requests failed (first: %s)\n", at.c_str(), s.failed, s.requests,
                     s.first_error.c_str());
      }
      if (s.requests > 0) {
        if (db) {
          if (Status st = db->save(rec); !st) return st;
          ++stored;
        }
        if (printer) printer->add(rec);
        records.push_back(std::move(rec));
        texts.push_back(outcome->texts);
      }
      interrupted = stop.load();
    }
  }
  if (printer) printer->end();
  else {
    report::Table table = report::embedding_table(records);
    // Energy where the run measured it: one note per run (json/jsonl: the records' energy and cost).
    for (std::size_t i = 0; i < records.size(); ++i) {
      const RunRecord& r = records[i];
      if (!r.energy.pp || !std::isfinite(r.energy.pp->energy_j)) continue;
      const PhaseEnergyInfo& pp = *r.energy.pp;
      const double j_per_text = texts[i] > 0 ? pp.energy_j / static_cast<double>(texts[i]) : kUnmeasured;
      const auto fig = [](double v, int decimals) {
        return std::isfinite(v) ? format_fixed(v, decimals) : std::string("-");
      };
      std::string note = r.model.name + " @ c" + std::to_string(r.server->concurrency) + ": " + fig(pp.j_per_token, 6) +
                         " J per input token, " + fig(j_per_text, 4) + " J per text, " + fig(pp.power_w, 1) +
                         " W loaded, " + fig(r.energy.idle_power_w, 1) + " W idle (" + r.energy.method + ")";
      if (r.cost && std::isfinite(r.cost->gross_per_mtok)) {
        note += "; " + fig(r.cost->gross_per_mtok, 4) + " " + r.cost->currency + " per Mtok of input at " +
                fig(r.cost->price_per_kwh, 3) + " " + r.cost->currency + "/kWh";
      }
      table.add_note(note);
    }
    report::render(table, format, std::cout);
  }
  if (db && stored > 0) {
    std::fprintf(stderr, "rigbench: %d record%s stored in %s\n", stored, stored == 1 ? "" : "s", db->path().c_str());
  }
  if (interrupted) return fail(ErrorCode::kInterrupted, "interrupted: finished samples kept");
  for (const RunRecord& r : records) {
    if (!r.failed.empty()) return fail(ErrorCode::kRuntime, url.redacted() + ": " + r.failed);
  }
  return {};
}

}  // namespace rigbench::cli
