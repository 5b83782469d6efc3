#include "cli/report_command.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cli/fit_command.h"
#include "cost/estimate.h"
#include "fit/kv_cache.h"
#include "fit/ranking.h"
#include "measure/job.h"
#include "model/model_file.h"
#include "model/model_shape.h"
#include "model/preset.h"
#include "model/tensor_layout.h"
#include "synth/synthesis.h"
#include "report/comparison.h"
#include "report/html_assets.h"
#include "report/html_report.h"
#include "store/record_sources.h"
#include "store/writable.h"

namespace rigbench::cli {

namespace {

constexpr const char* kOutputFileHint = "name the HTML file to write, or - for standard output";

// The context a run had: n_ctx as created, else what llama-bench sizes (depth + prompt + gen).
int run_context(const RunRecord& r) {
  return r.params.n_ctx > 0 ? r.params.n_ctx : r.params.n_depth + r.params.n_prompt + r.params.n_gen;
}

// The shape of a preset of `m`'s architecture whose parameter count is within 1 % of `m`'s, at
// `m`'s file type (written header-only to a temporary file and read back, as `fit --preset`
// does); `preset` names it. nullopt when none is alike or it cannot be written.
std::optional<model::ModelShape> preset_shape(const ModelInfo& m, std::string& preset) {
  if (m.n_params == 0 || m.arch.empty() || m.file_type.empty()) return std::nullopt;
  for (const model::Preset& p : model::presets()) {
    if (p.arch != m.arch) continue;
    uint64_t n = 0;
    for (const auto& t : model::tensor_layout(p)) n += t.n_elements();
    if (std::fabs(static_cast<double>(n) - static_cast<double>(m.n_params)) > 0.01 * static_cast<double>(m.n_params))
      continue;
    const std::string tmp = (std::filesystem::temp_directory_path() /
                             ("rigbench-report-" + std::to_string(::getpid()) + ".gguf"))
                                .string();
    auto written = synth::synthesize(p, m.file_type, tmp, /*header_only=*/true);
    std::optional<model::ModelShape> shape;
    if (written) {
      auto read = model::read_shape(tmp);
      if (read) shape = std::move(*read);
    }
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    if (shape) preset = p.name;
    return shape;
  }
  return std::nullopt;
}

// What to buy for each stored model (report/answers_html.h BuyAnswer): its shape from its file
// at a stored path when that file is here and has the fingerprint that ran, else from the
// preset alike (same architecture, parameter count within 1 %, at its file type), said so; the catalog ranked
// by price at `ctx_size` (0: the largest context the model ran at, with that run's KV types,
// flash attention and batch sizes), -ngl auto, as `rigbench fit MODEL -c N --rank price` ranks it.
// What fails (no file, another file, an unreadable catalog) is the answer's note, never the report's error.
std::vector<report::BuyAnswer> buy_answers(std::span<const RunRecord> records, int ctx_size) {
  const report::RecordIdentities ids(records);  // the models as the report names them
  struct Model {
    std::string label;
    std::vector<const RunRecord*> runs;
  };
  std::map<std::string, Model> by_label;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const report::Identity& id = ids.of(i).model;
    Model& m = by_label[id.label];
    m.label = id.label;
    m.runs.push_back(&records[i]);
  }
  std::optional<CatalogPlan> plan;
  std::string catalog_error;
  std::vector<report::BuyAnswer> out;
  for (const auto& [label, m] : by_label) {
    report::BuyAnswer answer;
    answer.model = label;
    const RunRecord* widest = m.runs.front();
    for (const RunRecord* r : m.runs) {
      if (run_context(*r) > run_context(*widest)) widest = r;
    }
    // The model's file: the first stored path that is here with the fingerprint that ran.
    std::optional<model::ModelFile> file;
    std::string path, why;
    std::set<std::string> tried;
    for (const RunRecord* r : m.runs) {
      if (r->model.path.empty() || !tried.insert(r->model.path).second) continue;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(r->model.path, ec)) continue;
      auto f = model::check_model_file(r->model.path, !r->model.fingerprint.empty());
      if (!f) {
        why = f.error().message;
        continue;
      }
      if (!r->model.fingerprint.empty() && f->info.fingerprint != r->model.fingerprint) {
        why = "the file at " + r->model.path + " is not the one that ran (" + f->info.fingerprint + ", not " +
              r->model.fingerprint + ")";
        continue;
      }
      file = std::move(*f);
      path = r->model.path;
      break;
    }
    const int n_ctx = ctx_size > 0 ? ctx_size : run_context(*widest);
    // Without the file: the shape of the preset alike (architecture and parameter count), said so.
    std::string preset;
    std::optional<model::ModelShape> shape = file ? std::optional(file->shape) : preset_shape(widest->model, preset);
    if (!shape) {
      answer.note = (!why.empty()      ? why
                     : tried.empty() ? std::string("its runs store no model file (a served model)")
                                     : "its file (" + join({tried.begin(), tried.end()}, ", ") + ") is not on this machine") +
                    " (n_ctx " + std::to_string(n_ctx) + ")";
      out.push_back(std::move(answer));
      continue;
    }
    fit::ContextParams ctx;
    ctx.n_ctx = n_ctx;
    ctx.n_batch = widest->params.n_batch;
    ctx.n_ubatch = widest->params.n_ubatch;
    ctx.type_k = widest->params.type_k;
    ctx.type_v = widest->params.type_v;
    ctx.flash_attn = widest->params.flash_attn != "off";
    if (Status s = fit::check_cache_types(*shape, ctx); !s) {
      answer.note = s.error().message;
      out.push_back(std::move(answer));
      continue;
    }
    if (!plan && catalog_error.empty()) {
      auto p = catalog_plan(0, 0, machine_info());
      if (p) plan = std::move(*p);
      else catalog_error = p.error().message;
    }
    if (!plan) {  // the report is still written, without this answer
      answer.note = "the device catalog cannot be read: " + catalog_error;
      out.push_back(std::move(answer));
      continue;
    }
    report::FitRankingReport rep;
    rep.model = preset.empty() ? label : label + " (the shape of the preset " + preset + ")";
    rep.model_path = preset.empty() ? path : "preset " + preset + " " + widest->model.file_type;
    rep.n_ctx = n_ctx;
    rep.ranking = fit::rank_devices(
        *shape, plan->catalog, [&](const hw::CatalogDevice& d) { return plan->target(d); }, ctx,
        /*n_gpu_layers=*/-2, /*depth=*/0, fit::RankBy::kPrice, 0);
    answer.ranking = std::move(rep);
    out.push_back(std::move(answer));
  }
  return out;
}

}  // namespace

CLI::App* add_report_command(CLI::App& app, ReportOptions& o) {
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report with charts of the stored results");
  cmd->add_option("--output-file", o.output_file, "the HTML file to write; - for standard output")
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "format: html (the only one)")
      ->check(output_format({"html"}))
      ->capture_default_str();
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("--title", o.title, "title of the page")->capture_default_str();
  cmd->add_option("--alpha", o.alpha, "significance level of the regression test (Welch's t-test, one-sided)")
      ->check(CLI::Range(1e-9, 0.5))
      ->capture_default_str();
  cmd->add_option("-c,--ctx-size", o.ctx_size,
                  "context of the what-to-buy answers (default: the largest each model ran at)")
      ->check(CLI::Range(1, 1 << 24));
  cmd->add_option("--price", o.price,
                  "electricity price per kWh of the cost-per-model answers (default: the price each machine's "
                  "latest priced run was stored with)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--currency", o.currency, "currency of --price")->capture_default_str();
  cmd->add_option("--utilization", o.utilization,
                  "share of the time the machine generates, (0, 1]: the cost answers include the idle hours")
      ->check(CLI::Range(1e-9, 1.0));
  cmd->footer(
      "Examples:\n"
      "  rigbench report                                   # rigbench-report.html from the default database\n"
      "  rigbench report --db a.db --db b.db --model llama --output-file llama.html\n"
      "  rigbench report --output-file - > report.html\n"
      "  rigbench report -c 8192 --price 0.30 --utilization 0.25   # what to buy at 8192; cost per model\n"
      "Exit codes: 0 written; 1 no database, no matching record, or the file cannot be written; 2 a bad flag or "
      "value.\n");
  return cmd;
}

Status run_report_command(const ReportOptions& o) {
  const bool to_stdout = o.output_file == "-";
  std::optional<cost::CostInputs> price_answers;  // --price: the cost answers' price (else the stored ones)
  if (!std::isnan(o.price)) {
    if (o.currency.empty() || o.currency.size() > 8 ||
        o.currency.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != std::string::npos) {
      return fail(ErrorCode::kUsage, "--currency '" + o.currency + "': expected 1 to 8 letters, e.g. EUR");
    }
    cost::CostInputs price;
    price.price_per_kwh = o.price;
    price.currency = o.currency;
    price.utilization = o.utilization;
    price.price_source = "--price";
    price_answers = price;
  } else if (!std::isnan(o.utilization)) {
    return fail(ErrorCode::kUsage, "--utilization: give the price it applies to with --price");
  }
  // A path that cannot be written fails before anything is read or rendered.
  if (!to_stdout) {
    if (Status s = store::check_writable("--output-file", o.output_file, kOutputFileHint); !s) return s;
  }
  auto records = store::load_records(o.db_paths, o.filter, store::RecordView::kReport, store::Pooling::kRepetitions);
  if (!records) return std::unexpected(records.error());
  auto assets = report::load_report_assets();
  if (!assets) return std::unexpected(assets.error());
  report::HtmlReportOptions options;
  options.title = o.title;
  options.generated_at = measure::utc_now_iso8601();
  options.alpha = o.alpha;
  options.answers.buy = buy_answers(*records, o.ctx_size);
  options.answers.price = price_answers;
  auto html = report::render_html_report(*records, *assets, options);
  if (!html) return std::unexpected(html.error());
  if (to_stdout) {
    std::cout << *html << std::flush;
    if (!std::cout) return fail(ErrorCode::kRuntime, "--output-file -: cannot write to standard output");
    return {};
  }
  if (Status s = store::write_whole("--output-file", o.output_file, *html, kOutputFileHint); !s) return s;
  std::printf("%s\n", o.output_file.c_str());
  return {};
}

}  // namespace rigbench::cli
