#include "report/served_overhead.h"

#include <cmath>
#include <map>
#include <tuple>

#include "core/stats.h"
#include "core/strings.h"
#include "report/metric_values.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

// A served run that compares with in-process: one request at a time of random prompts.
bool plain_served(const RunRecord& rec) {
  const ServerRun& s = *rec.server;
  return s.concurrency == 1 && s.rate_rps == 0 && s.turns == 1 && s.prefix_tokens == 0 && s.trace.empty() &&
         rec.results.tg && rec.failed.empty();
}

}  // namespace

std::vector<ServedOverhead> served_overheads(std::span<const RunRecord> records, const RecordIdentities& ids) {
  // In-process tg means and TTFT medians per (machine, model, tokens), each configuration apart.
  using Key = std::tuple<std::string, std::string, int>;
  // -> knobs -> tg means: runs a user chose, and tune's trials (a candidate raced at -t 1 is no
  // reference for a server: its pair takes them only where no other run is there).
  std::map<Key, std::map<std::string, std::vector<double>>> tg, tune_tg;
  std::map<Key, std::vector<double>> ttft;                       // (machine, model, n_prompt) -> medians
  struct Served {
    ServedOverhead pair;
    Key key;
    int n_prompt = 0;
    std::vector<double> tps, client_tps, ttft_ms;
  };
  std::vector<Served> served;
  std::map<std::string, std::size_t> served_at;  // machine, model, n_gen, server -> index into served
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RunRecord& rec = records[i];
    const RecordIdentities::Entry& id = ids.of(i);
    if (!rec.server) {
      if (!rec.failed.empty() || rec.params.n_depth != 0) continue;
      if (rec.results.tg && rec.results.tg->n_tokens > 0 && std::isfinite(rec.results.tg->tps.mean)) {
        (is_tune_trial(rec) ? tune_tg : tg)[{id.machine.key, id.model.key, rec.results.tg->n_tokens}][id.knobs]
            .push_back(rec.results.tg->tps.mean);
      }
      if (rec.results.ttft && rec.results.ttft->ms.n > 0 && rec.params.n_prompt > 0)
        ttft[{id.machine.key, id.model.key, rec.params.n_prompt}].push_back(rec.results.ttft->ms.median);
      continue;
    }
    if (!plain_served(rec)) continue;
    const ServerRun& s = *rec.server;
    const int n = rec.results.tg->n_tokens;
    const std::string where = id.machine.key + '\x1f' + id.model.key + '\x1f' + std::to_string(n) + '\x1f' +
                              server_label(s) + '\x1f' + std::to_string(rec.params.n_prompt);
    auto [it, fresh] = served_at.emplace(where, served.size());
    if (fresh) {
      Served one;
      one.pair.machine = id.machine.label;
      one.pair.model = id.model.label;
      one.pair.test = "tg" + std::to_string(n);
      one.pair.server = server_label(s);
      one.key = {id.machine.key, id.model.key, n};
      one.n_prompt = rec.params.n_prompt;
      served.push_back(std::move(one));
    }
    Served& one = served[it->second];
    one.tps.push_back(rec.results.tg->tps.mean);
    if (std::isfinite(s.client_tg_tps)) one.client_tps.push_back(s.client_tg_tps);
    if (s.ttft_ms.n > 0) one.ttft_ms.push_back(s.ttft_ms.median);
  }
  const auto mean = [](const std::vector<double>& v) { return v.empty() ? std::nan("") : summarize(v).mean; };
  std::vector<ServedOverhead> out;
  for (Served& one : served) {
    const std::map<std::string, std::vector<double>>* configs = nullptr;
    if (const auto in = tg.find(one.key); in != tg.end()) configs = &in->second;
    else if (const auto trial = tune_tg.find(one.key); trial != tune_tg.end()) configs = &trial->second;
    if (!configs) continue;
    double best = std::nan("");
    for (const auto& [knobs, means] : *configs) {
      const double m = mean(means);
      if (!(best >= m)) best = m;
    }
    ServedOverhead p = one.pair;
    p.in_process_tps = best;
    p.served_tps = mean(one.tps);
    p.served_client_tg_tps = mean(one.client_tps);
    p.overhead_pct = 100.0 * (p.in_process_tps - p.served_tps) / p.in_process_tps;
    p.decode_overhead_pct = 100.0 * (p.in_process_tps - p.served_client_tg_tps) / p.in_process_tps;
    const auto t = ttft.find({std::get<0>(one.key), std::get<1>(one.key), one.n_prompt});
    if (t != ttft.end()) p.in_process_ttft_ms = mean(t->second);
    p.served_ttft_ms = mean(one.ttft_ms);
    out.push_back(std::move(p));
  }
  return out;
}

Table served_overhead_table(const std::vector<ServedOverhead>& pairs) {
  // Like for like first: bench's tg and the served tg after the first token (the decode alone);
  // the whole request's t/s and overhead, and the TTFT pair, in the footers in md (the table
  // was 151 columns wide with them); csv and json keep them.
  Table table({{"machine", "machine"},
               {"model", "model"},
               {"test", "test"},
               {"server", "server", Align::kLeft, false, true},
               {"in_process_tps", "in-process t/s", Align::kRight},
               {"served_client_tg_tps", "served tg after 1st t/s", Align::kRight},
               {"decode_overhead_pct", "decode overhead %", Align::kRight},
               {"served_tps", "served t/s", Align::kRight},
               {"overhead_pct", "request overhead %", Align::kRight, true},
               {"in_process_ttft_ms", "in-process TTFT ms", Align::kRight, true},
               {"served_ttft_ms", "served TTFT ms", Align::kRight, true}});
  table.add_preamble(
      "In-process against served (the same model file and output length, serve-bench at c=1): bench's tg against the "
      "served tg after the first token, the decode alone, like for like; served t/s is every output token over each "
      "request's wall time (the prompt, the first token and HTTP inside)");
  const auto pct = [](double v) {
    return format_fixed(std::abs(v), 1) + " % " + (v >= 0 ? "slower" : "faster");
  };
  const auto ms = [](double v) { return std::isfinite(v) ? format_fixed(v, 2) : std::string("-"); };
  for (const ServedOverhead& p : pairs) {
    table.add_row({TableCell::str(p.machine), TableCell::str(p.model), TableCell::str(p.test), TableCell::str(p.server),
                   TableCell::number(p.in_process_tps, 2), TableCell::number(p.served_client_tg_tps, 2),
                   TableCell::number(p.decode_overhead_pct, 1), TableCell::number(p.served_tps, 2),
                   TableCell::number(p.overhead_pct, 1), TableCell::number(p.in_process_ttft_ms, 2),
                   TableCell::number(p.served_ttft_ms, 2)});
    const std::string decode = std::isfinite(p.decode_overhead_pct)
                                   ? "the server's decode is " + pct(p.decode_overhead_pct) + " than in-process"
                                   : "the server reported no tg after the first token";
    const std::string in_ttft = std::isfinite(p.in_process_ttft_ms) ? ms(p.in_process_ttft_ms) + " ms in-process"
                                                                     : "no in-process TTFT of its prompt length";
    table.add_footer(p.model + " on " + p.machine + ", " + p.test + " (" + p.server + "): " + decode +
                     "; per whole request " + pct(p.overhead_pct) + "; TTFT " + ms(p.served_ttft_ms) + " ms served, " +
                     in_ttft);
  }
  return table;
}

nlohmann::ordered_json served_overhead_json(const std::vector<ServedOverhead>& pairs) {
  return table_rows_json(served_overhead_table(pairs));
}

}  // namespace rigbench::report
