#include "report/buy_answers.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/strings.h"
#include "fit/kv_cache.h"
#include "fit/ranking.h"
#include "measure/speed_predict_job.h"
#include "model/model_file.h"
#include "model/model_shape.h"
#include "model/preset.h"
#include "model/tensor_layout.h"
#include "report/comparison.h"
#include "store/llama_bench_record.h"
#include "synth/synthesis.h"

namespace rigbench::report {

namespace {

// The context a run had: n_ctx as created, else what llama-bench sizes (depth + prompt + gen).
int run_context(const RunRecord& r) {
  return r.params.n_ctx > 0 ? r.params.n_ctx : r.params.n_depth + r.params.n_prompt + r.params.n_gen;
}

// The shape of a preset of `m`'s architecture whose parameter count is within 1 % of `m`'s, at
// `m`'s file type (written header-only to a temporary file and read back, as `fit --preset`
// does); `preset` names it. nullopt when none is alike, the presets cannot be read or it cannot be
// written.
std::optional<model::ModelShape> preset_shape(const ModelInfo& m, std::string& preset) {
  if (m.n_params == 0 || m.arch.empty() || m.file_type.empty()) return std::nullopt;
  const auto& all = model::presets();
  if (!all) return std::nullopt;
  for (const model::Preset& p : *all) {
    if (p.arch != m.arch) continue;
    uint64_t n = 0;
    for (const auto& t : model::tensor_layout(p)) n += t.n_elements();
    if (std::fabs(static_cast<double>(n) - static_cast<double>(m.n_params)) > 0.01 * static_cast<double>(m.n_params))
      continue;
    auto written = synth::PresetHeader::write(p, m.file_type);
    std::optional<model::ModelShape> shape;
    if (written) {
      auto read = model::read_shape(written->path());
      if (read) shape = std::move(*read);
    }
    if (shape) preset = p.name;
    return shape;
  }
  return std::nullopt;
}

}  // namespace

std::vector<BuyAnswer> buy_answers(std::span<const RunRecord> records, int ctx_size,
                                   const std::function<Result<fit::CatalogPlan>()>& catalog) {
  const RecordIdentities ids(records);  // the models as the report names them
  struct Model {
    std::string label;
    std::vector<const RunRecord*> runs;
    std::set<std::string> machines;
  };
  std::map<std::string, Model> by_label;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Identity& id = ids.of(i).model;
    Model& m = by_label[id.label];
    m.label = id.label;
    m.runs.push_back(&records[i]);
    if (std::string(run_status(records[i])) == "ok") m.machines.insert(ids.of(i).machine.label);
  }
  std::optional<fit::CatalogPlan> plan;
  std::optional<measure::SpeedBasis> speed_basis;  // read once, with the catalog
  std::string catalog_error;
  std::vector<BuyAnswer> out;
  for (const auto& [label, m] : by_label) {
    BuyAnswer answer;
    answer.model = label;
    answer.measured_on.assign(m.machines.begin(), m.machines.end());
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
    // fit's default context, a context a user would run: the model's n_ctx_train (as llama-server
    // and fit without -c), not the stored runs' (bench's defaults make n_ctx 256 of pp128 + tg128).
    const uint32_t train = widest->model.n_ctx_train;
    int n_ctx = ctx_size > 0 ? ctx_size : train > 0 ? static_cast<int>(train) : run_context(*widest);
    // Without the file: the shape of the preset alike (architecture and parameter count), said so.
    std::string preset;
    std::optional<model::ModelShape> shape = file ? std::optional(file->shape) : preset_shape(widest->model, preset);
    if (shape && ctx_size <= 0 && shape->n_ctx_train > 0) n_ctx = static_cast<int>(shape->n_ctx_train);
    if (!shape) {
      // A relative path: an earlier bench's (kept as typed: relative to the folder it ran in) or
      // llama-bench's model_filename in an import (relative to where llama-bench ran).
      bool relative_bench = false, relative_import = false;
      for (const RunRecord* r : m.runs) {
        if (r->model.path.empty() || !std::filesystem::path(r->model.path).is_relative()) continue;
        const bool imported = std::find(r->tags.begin(), r->tags.end(), store::kLlamaBenchTag) != r->tags.end();
        (imported ? relative_import : relative_bench) = true;
      }
      const std::string relative = relative_bench    ? "; a relative path, as an earlier bench stored it: run report "
                                                       "from the folder bench ran in"
                                   : relative_import ? "; llama-bench's path, relative to the folder it ran in"
                                                     : "";
      answer.note = (!why.empty()    ? why
                     : tried.empty() ? std::string("its runs store no model file (a served model)")
                                     : "its file (" + join({tried.begin(), tried.end()}, ", ") +
                                           ") is not on this machine (n_ctx " + std::to_string(n_ctx) + relative + ")");
      if (!why.empty() || tried.empty()) answer.note += " (n_ctx " + std::to_string(n_ctx) + ")";
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
      auto p = catalog();
      if (p) plan = std::move(*p);
      else catalog_error = p.error().message;
    }
    if (!plan) {  // the report is still written, without this answer
      answer.note = "the device catalog cannot be read: " + catalog_error;
      out.push_back(std::move(answer));
      continue;
    }
    FitRankingReport rep;
    rep.model = preset.empty() ? label : label + " (the shape of the preset " + preset + ")";
    rep.model_path = preset.empty() ? path : "preset " + preset + " " + widest->model.file_type;
    rep.ranking = fit::rank_devices(
        *shape, plan->catalog, [&](const hw::CatalogDevice& d) { return plan->target(d); }, ctx,
        /*n_gpu_layers=*/-2, /*depth=*/0, fit::RankBy::kPrice, 0);
    // Any file type, as fit --rank predicts for a GGUF file (a preset's type is fit's --quant).
    if (!speed_basis) speed_basis = measure::load_speed_basis(plan->catalog);
    measure::predict_ranking(rep, *speed_basis, *shape, "", plan->catalog);
    answer.ranking = std::move(rep);
    out.push_back(std::move(answer));
  }
  return out;
}

}  // namespace rigbench::report
