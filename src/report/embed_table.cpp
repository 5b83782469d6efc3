#include "report/embed_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

#include "core/noise_note.h"
#include "core/strings.h"
#include "report/escape.h"

namespace rigbench::report {

namespace {

std::string mean_sd(double mean, double sd, int decimals) {
  if (!std::isfinite(mean)) return "-";
  char buf[64];
  if (std::isfinite(sd) && sd > 0) std::snprintf(buf, sizeof buf, "%.*f ± %.*f", decimals, mean, decimals, sd);
  else std::snprintf(buf, sizeof buf, "%.*f", decimals, mean);
  return buf;
}

// The model as people tell files apart: name, file type, and "(synthetic)" for a generated file;
// a server's (serve-bench --embeddings) with "@ cN" and the server, as compare labels it.
std::string model_label(const RunRecord& r) {
  const ModelInfo& m = r.model;
  std::string s = m.name;
  if (!m.file_type.empty()) s += " " + m.file_type;
  if (m.synthetic) s += " (synthetic)";
  if (r.server) {
    s += " @ c" + std::to_string(r.server->concurrency) + " " +
         (r.server->software.empty() ? r.server->url : r.server->software);
  }
  return s;
}

}  // namespace

bool has_embeddings(std::span<const RunRecord> records) {
  for (const auto& r : records)
    if (r.results.embedding) return true;
  return false;
}

namespace {

// texts/s, which may break before its "± sd" where the table would pass 120 columns (a second
// machine's column made it 123).
TableColumn texts_per_s_column() {
  TableColumn c{"texts_per_s", "texts/s", Align::kRight};
  c.wrap = true;
  return c;
}

}  // namespace

Table embedding_table(std::span<const RunRecord> records) {
  // One machine: named above the table, not in a column of its own (a long hostname made the
  // table 142 columns wide); csv and json keep the column.
  std::set<std::string> machines;
  for (const RunRecord& r : records)
    if (r.results.embedding) machines.insert(r.machine.hostname);
  Table t({{"machine", "machine", Align::kLeft, false, machines.size() == 1},
           {"model", "model"},  // whole on its row, as in every md table (never wrapped: report/table.h)
           {"pooling", "pooling"},
           {"n_threads", "threads", Align::kRight},
           {"test", "test"},
           {"batch_size", "batch", Align::kRight, false, true},
           {"n_samples", "samples", Align::kRight, false, true},
           {"latency_p50_ms", "p50 ms", Align::kRight},
           {"latency_p90_ms", "p90 ms", Align::kRight, false, true},
           {"latency_p95_ms", "p95 ms", Align::kRight},
           {"latency_p99_ms", "p99 ms", Align::kRight},
           texts_per_s_column(),
           {"stddev_texts_per_s", "sd texts/s", Align::kRight, false, true},
           {"avg_tps", "t/s", Align::kRight, true},  // tokens/s: --wide (texts/s is the figure a search service reads)
           {"stddev_tps", "sd t/s", Align::kRight, false, true}});
  if (machines.size() == 1) t.add_preamble("on " + *machines.begin());
  // Per model, then machine and threads: the machines side by side under each model.
  std::vector<const RunRecord*> sorted;
  for (const RunRecord& r : records)
    if (r.results.embedding) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(), [](const RunRecord* a, const RunRecord* b) {
    return std::tie(a->model.name, a->model.fingerprint, a->machine.hostname, a->params.n_threads) <
           std::tie(b->model.name, b->model.fingerprint, b->machine.hostname, b->params.n_threads);
  });
  for (const RunRecord* rp : sorted) {
    const RunRecord& r = *rp;
    const EmbeddingResult& e = *r.results.embedding;
    auto head = [&](std::string test, int batch, std::size_t n) {
      return std::vector<TableCell>{TableCell::str(r.machine.hostname),
                                    TableCell::str(model_label(r)),
                                    TableCell::str(e.pooling),
                                    TableCell::integer(r.params.n_threads),
                                    TableCell::str(std::move(test)),
                                    TableCell::integer(batch),
                                    TableCell::count(n)};
    };
    const Summary& l = e.latency.ms;
    if (l.n > 0) {
      auto row = head("latency b1", 1, l.n);
      for (double v : {l.median, l.p90, l.p95, l.p99}) row.push_back(TableCell::number(v, 2));
      for (int i = 0; i < 4; ++i) row.push_back(TableCell::absent(""));
      t.add_row(std::move(row));
    }
    for (const EmbedThroughput& b : e.throughput) {
      auto row = head("batch " + std::to_string(b.batch_size), b.batch_size, b.texts_per_s.n);
      for (int i = 0; i < 4; ++i) row.push_back(TableCell::absent(""));
      TableCell texts = TableCell::number_text(b.texts_per_s.mean, mean_sd(b.texts_per_s.mean, b.texts_per_s.stddev, 1));
      texts.pieces = mean_sd_pieces(texts.text);
      row.push_back(std::move(texts));
      row.push_back(TableCell::number(b.texts_per_s.stddev, 2));
      row.push_back(
          TableCell::number_text(b.tokens_per_s.mean, mean_sd(b.tokens_per_s.mean, b.tokens_per_s.stddev, 1)));
      row.push_back(TableCell::number(b.tokens_per_s.stddev, 2));
      t.add_row(std::move(row));
    }
  }
  // Per run, once: why its figures are in doubt (a busy machine, steal, ...), and a -r auto run
  // that stopped before its intervals were within the target.
  for (const RunRecord* rp : sorted) {
    const std::string run = rp->machine.hostname + " " + model_label(*rp) + " -t " + std::to_string(rp->params.n_threads);
    for (const NoiseNote& n : rp->noise) t.add_note(run + ": " + noise_note_text(n));
    const Precision& p = rp->precision;
    if (p.repetitions_mode == "auto" && !p.reached && (p.stopped_by == "max_time" || p.stopped_by == "cap")) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": -r auto stopped at its %s before every phase's interval was within \u00b1%g %%",
                    p.stopped_by == "cap" ? "cap of passes" : "--max-time", p.ci_target_pct);
      t.add_note(run + buf + " (a longer --max-time, or a quieter machine)");
    }
  }
  t.add_footer(
      "latency b1: one query per llama.cpp call, p50/p95/p99 over every query and repetition; batch N: the whole "
      "query set in calls of N texts, mean ± sd over repetitions; the model's own pooling");
  if (std::any_of(sorted.begin(), sorted.end(), [](const RunRecord* r) { return r->server.has_value(); })) {
    t.add_footer(
        "@ cN: serve-bench --embeddings, one HTTP request per call with N in flight, timed by the client (request "
        "written to answer read); t/s from the server's usage, 0 where it reports none");
  }
  return t;
}

std::string embedding_section_html(std::span<const RunRecord> records) {
  if (!has_embeddings(records)) return "";
  const Table t = embedding_table(records);
  std::string h = "<section id=\"embeddings\"><h2>Embeddings</h2><p class=\"note\">" +
                  html_escape(t.footers().front()) + "</p><div class=\"table\"><table><thead><tr>";
  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < t.columns().size(); ++c) {
    // The page has room for every percentile (p90 too); the sd columns repeat the mean ± sd cells.
    if (t.columns()[c].data_only && t.columns()[c].key.rfind("latency_p", 0) != 0) continue;
    shown.push_back(c);
    h += "<th>" + html_escape(t.columns()[c].header) + "</th>";
  }
  h += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows()) {
    h += "<tr>";
    for (std::size_t c : shown) {
      const bool right = t.columns()[c].align == Align::kRight;
      h +=
          std::string(right ? "<td class=\"num\">" : "<td>") + html_escape(c < row.size() ? row[c].text : "") + "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</tbody></table></div></section>\n";
}

void add_serve_embed_notes(Table& table, std::span<const RunRecord> records, std::span<const int64_t> texts) {
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
}

}  // namespace rigbench::report
