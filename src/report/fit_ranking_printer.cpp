#include "report/fit_ranking_printer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "fit/host_cost.h"
#include "fit/usable.h"
#include "report/fit_printer.h"
#include "report/prediction_columns.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

TableCell gib(uint64_t bytes) { return TableCell::count(bytes, format_fixed(static_cast<double>(bytes) / kGiB, 2)); }

TableCell money(const std::optional<double>& v, int decimals) {
  return v ? TableCell::number_text(*v, format_fixed(*v, decimals)) : TableCell::absent("-");
}

std::string order_text(fit::RankBy by) {
  switch (by) {
    case fit::RankBy::kPrice: return "price (cheapest first)";
    case fit::RankBy::kTps: return "tg bound (fastest first)";
    case fit::RankBy::kUsablePrice: return "USD per usable GiB (lowest first)";
  }
  return "";
}

}  // namespace

Table fit_ranking_table(const FitRankingReport& r) {
  std::vector<TableColumn> cols = {
      {"rank", "#", Align::kRight},
      {"device", "device"},
      {"count", "count", Align::kRight, false, true},
      {"kind", "kind", Align::kLeft, false, true},
      {"verdict", "verdict", Align::kLeft, false, true},
      // n_ctx is the ranking's, said above the md table: with it the table was 137 columns wide.
      {"n_ctx", "n_ctx", Align::kRight, false, true},
      {"needed_bytes", "needed GiB", Align::kRight},
      {"memory_bytes", "memory GiB", Align::kRight},
      {"usable_bytes", "usable GiB", Align::kRight},
      {"tg_bound_tps", "tg bound t/s", Align::kRight},
      {"price_usd", "USD", Align::kRight},
      {"host_usd", "host USD", Align::kRight, false, true},
      {"usd_per_gib", "USD/GiB", Align::kRight, false, true},  // md: USD per usable GiB alone
      {"usd_per_usable_gib", "USD/usable GiB", Align::kRight}};
  // The predictions after the tg bound, md with --wide (the table keeps to 120 columns).
  constexpr std::size_t kAfterBound = 10;
  const bool predicted = !r.tg_predicted.empty() || !r.pp_predicted.empty();
  if (predicted) {
    const std::vector<TableColumn> pred = prediction_columns(true);
    cols.insert(cols.begin() + kAfterBound, pred.begin(), pred.end());
  }
  Table t(std::move(cols));
  std::size_t rank = 0;
  for (const fit::BuyOption& o : r.ranking.ranked) {
    const bool partial = o.verdict == fit::Verdict::kPartial;
    // needed: a partial option's is the device's part (the rest is in host RAM), said in the cell.
    TableCell needed = gib(o.needed_bytes);
    if (partial) needed.text += " (device)";
    std::vector<TableCell> cells = {TableCell::integer(static_cast<int64_t>(rank) + 1),
                                    TableCell::str(fit::option_name(o)),
                                    TableCell::integer(o.count),
                                    TableCell::str(o.kind),
                                    TableCell::str(fit::verdict_name(o.verdict)),
                                    TableCell::integer(o.n_ctx),
                                    std::move(needed),
                                    gib(o.total_memory_bytes),
                                    gib(o.usable_memory_bytes),
                                    o.tg_bound_tps > 0 ? TableCell::number(o.tg_bound_tps, 1) : TableCell::absent("-"),
                                    money(o.price_usd, 0),
                                    TableCell::number(o.host_usd, 0),
                                    money(o.usd_per_gib_total, 2),
                                    money(o.usd_per_gib_usable, 2)};
    if (predicted) {
      const std::vector<TableCell> pred = prediction_cells(r.tg_predicted, r.pp_predicted, rank);
      cells.insert(cells.begin() + kAfterBound, pred.begin(), pred.end());
    }
    t.add_row(std::move(cells));
    ++rank;
  }
  // --vs asks of two devices: the catalog's other devices are not its notes (json: not_fitting, left_out).
  if (!r.vs && !r.ranking.not_fitting.empty()) {
    // Each name whole on its line.
    std::string names;
    for (const std::string& d : r.ranking.not_fitting) names += (names.empty() ? "" : ", ") + keep_whole(d);
    t.add_note("does not fit: " + names);
  }
  for (const std::string& d : r.ranking.dropped) t.add_note("below --min-tps: " + d);
  if (!r.vs && !r.ranking.left_out.empty()) {
    std::vector<std::string> names;
    for (const std::string& d : r.ranking.left_out) names.push_back(keep_whole(d));
    t.add_note("left out: " + join(names, ", ") + " (" + fit::kLeftOutReason + ")");
  }
  if (r.ranking.n_ctx_asked > 0 && r.ranking.n_ctx_asked != r.ranking.n_ctx) {  // the planner's words (fit's table)
    t.add_note("n_ctx " + std::to_string(r.ranking.n_ctx_asked) + " padded to " + std::to_string(r.ranking.n_ctx) +
               ", as llama.cpp allocates it");
  }
  t.add_note(fit::usable_definition() +
             ", as in fit's table; needed (the backend's runtime overhead included) must stay "
             "within it; USD/GiB (csv, json) counts all installed memory");
  const bool generates = r.ranking.ranked.empty() || r.ranking.ranked.front().results.empty() ||
                         r.ranking.ranked.front().results.front().generates;
  if (generates) {
    t.add_note(
        "tg bound = bandwidth / bytes read per token: an upper bound, not a measurement; N\u00d7 = that many GPUs, "
        "layers split equally; prices are launch prices (data/devices.json)");
  } else {
    t.add_note(kNoGenerationNote);
    t.add_note("N\u00d7 = that many GPUs, layers split equally; prices are launch prices (data/devices.json)");
  }
  const auto& ranked = r.ranking.ranked;
  if (std::any_of(ranked.begin(), ranked.end(), [](const fit::BuyOption& o) { return o.host_usd > 0; }))
    t.add_note(fit::kHostCostAssumption);
  if (std::any_of(ranked.begin(), ranked.end(),
                  [](const fit::BuyOption& o) { return o.verdict == fit::Verdict::kPartial; })) {
    t.add_note(
        "partial offload: one GPU holds the layers that fit, the host's RAM the rest (needed GiB is the device's "
        "part); its tg bound counts the host's bandwidth for those layers");
  }
  for (const std::string& n : r.notes) t.add_note(n);
  return t;
}

const fit::BuyOption* cheapest_fit(const fit::Ranking& r) {
  const fit::BuyOption* cheapest = nullptr;
  for (const fit::BuyOption& o : r.ranked) {
    if (o.verdict != fit::Verdict::kPartial && o.price_usd && (!cheapest || *o.price_usd < *cheapest->price_usd))
      cheapest = &o;
  }
  return cheapest;
}

std::string buy_sentence(const FitRankingReport& r) {
  const std::string at = r.model + " at n_ctx " + std::to_string(r.ranking.n_ctx);  // as the table's rows
  if (r.ranking.ranked.empty()) {
    return "No catalog option fits " + at +
           (r.ranking.min_tps > 0 ? " with a tg bound of " + shortest(r.ranking.min_tps) + " t/s" : "") + " (up to " +
           std::to_string(fit::kMaxRankCount) + " GPUs of a kind).";
  }
  const fit::BuyOption* cheapest = cheapest_fit(r.ranking);
  const fit::BuyOption* per_usable = nullptr;
  const fit::BuyOption* fastest = nullptr;
  const fit::BuyOption* partial = nullptr;  // the cheapest single GPU with partial offload
  for (const fit::BuyOption& o : r.ranking.ranked) {
    if (o.verdict == fit::Verdict::kPartial) {
      if (o.price_usd && (!partial || *o.price_usd < *partial->price_usd)) partial = &o;
      continue;
    }
    if (o.usd_per_gib_usable && (!per_usable || *o.usd_per_gib_usable < *per_usable->usd_per_gib_usable))
      per_usable = &o;
    if (!fastest || o.tg_bound_tps > fastest->tg_bound_tps) fastest = &o;
  }
  auto name = [](const fit::BuyOption& o) {
    return o.count > 1 ? std::to_string(o.count) + "\u00d7 " + o.device : o.device;
  };
  // "; with partial offload, one RTX 3090 for $1499 (tg bound 2.1 t/s)", cheaper than the cheapest full fit.
  const std::string partial_text =
      partial && (!cheapest || *partial->price_usd < *cheapest->price_usd)
          ? "; with partial offload (layers in the host's RAM), one " + partial->device + " for $" +
                format_fixed(*partial->price_usd, 0) +
                (partial->tg_bound_tps > 0 ? " (tg bound " + format_fixed(partial->tg_bound_tps, 1) + " t/s)" : "")
          : "";
  if (!cheapest && !partial_text.empty()) {
    return "For " + at + ", no catalog option holds the model entirely in device memory" + partial_text + ".";
  }
  if (!fastest) {  // only unpriced partial options
    return "For " + at + ", no catalog option holds the model entirely in device memory; " +
           std::to_string(r.ranking.ranked.size()) + " hold it with partial offload, none with a list price.";
  }
  if (!cheapest) {
    return "For " + at + ", " + std::to_string(r.ranking.ranked.size()) +
           " catalog options fit, none with a list price" +
           (fastest->tg_bound_tps > 0 ? "; the highest tg bound is " + name(*fastest) + "'s, " +
                                            format_fixed(fastest->tg_bound_tps, 1) + " t/s."
                                      : std::string("."));
  }
  std::string s = "For " + at + ", the cheapest catalog option that fits is " + name(*cheapest) + ", $" +
                  format_fixed(*cheapest->price_usd, 0) +
                  (cheapest->tg_bound_tps > 0 ? " (tg bound " + format_fixed(cheapest->tg_bound_tps, 1) + " t/s)" : "");
  if (per_usable) {
    s += (per_usable == cheapest ? std::string("; it is also the lowest price per usable GiB, $")
                                 : "; of the options that hold it whole, the lowest price per usable GiB is " +
                                       name(*per_usable) + "'s, $") +
         format_fixed(*per_usable->usd_per_gib_usable, 2) + " ($" + format_fixed(*per_usable->usd_per_gib_total, 2) +
         " per installed GiB)";
  }
  return s + partial_text + ".";
}

void print_fit_ranking(const FitRankingReport& r, OutputFormat format, std::ostream& out, RenderOptions options) {
  const Table t = fit_ranking_table(r);
  if (format == OutputFormat::kJson) {
    Json vs = nullptr;
    if (r.vs) {
      vs = {{"a", r.vs->a},
            {"b", r.vs->b},
            {"memory_ratio", json_number(r.vs->memory_ratio)},
            {"usable_ratio", json_number(r.vs->usable_ratio)},
            {"usd_per_gib_total_ratio", json_number(r.vs->usd_per_gib_total_ratio)},
            {"usd_per_gib_usable_ratio", json_number(r.vs->usd_per_gib_usable_ratio)},
            {"a_tg_predicted_tps", r.vs->tg_a.has_basis ? json_number(r.vs->tg_a.mean_tps) : Json(nullptr)},
            {"b_tg_predicted_tps", r.vs->tg_b.has_basis ? json_number(r.vs->tg_b.mean_tps) : Json(nullptr)},
            {"sentence", r.vs->sentence}};
    }
    Json left_out = Json::array();
    for (const std::string& d : r.ranking.left_out)
      left_out.push_back({{"device", d}, {"reason", fit::kLeftOutReason}});
    Json j = {{"model", r.model},
              {"model_path", r.model_path},
              {"rank_by", fit::rank_by_name(r.ranking.by)},
              {"min_tps", r.ranking.min_tps > 0 ? Json(r.ranking.min_tps) : Json(nullptr)},
              {"n_ctx", r.ranking.n_ctx},
              {"sentence", buy_sentence(r)},
              {"options", table_rows_json(t)},
              {"not_fitting", r.ranking.not_fitting},
              {"dropped", r.ranking.dropped},
              {"left_out", left_out},
              {"vs", vs},
              {"notes", as_written(t.notes())}};
    out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
    return;
  }
  if (format != OutputFormat::kMarkdown) {
    render(t, format, out, options);
    return;
  }
  std::string head =
      "model: " + r.model + " at n_ctx " + std::to_string(r.ranking.n_ctx) + "; ranked by " + order_text(r.ranking.by);
  if (r.ranking.min_tps > 0) head += "; tg bound >= " + shortest(r.ranking.min_tps) + " t/s";
  out << paragraph_lines(head) << "\n";
  if (r.vs) {
    // The question asked (--vs A,B) first, then the options of A and B alone (any count, a partial
    // offload), at their places in the ranking: the whole ranking of 30-odd rows buried the answer.
    out << paragraph_lines(r.vs->sentence) << "\n";
    Table pair(t.columns());
    for (std::size_t i = 0; i < r.ranking.ranked.size() && i < t.rows().size(); ++i) {
      const std::string& d = r.ranking.ranked[i].device;
      if (d == r.vs->a || d == r.vs->b) pair.add_row(t.rows()[i]);
    }
    if (!pair.rows().empty()) out << markdown_table(pair, options.wide) << "\n";
    const std::size_t others = r.ranking.ranked.size() - pair.rows().size();
    if (others > 0)
      out << paragraph_lines(std::to_string(others) + " other catalog options fit (-o json lists them; without --vs, " +
                             "fit ranks them all)")
          << "\n";
  } else if (!r.ranking.ranked.empty()) {
    out << markdown_table(t, options.wide) << "\n";
  }
  out << paragraph_lines(buy_sentence(r)) << "\n";
  for (const auto& n : t.notes()) out << note_lines(n);
  out << std::flush;
}

}  // namespace rigbench::report
