#include "model/preset.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/data_dir.h"
#include "core/strings.h"

namespace rigbench::model {

// A preset's JSON object: its fields by their names in Preset; a field left out keeps its
// default.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(
    Preset, name, arch, source, vocab_file, n_vocab, n_ctx_train, n_embd, n_layer, n_head, n_head_kv, n_ff, head_dim,
    n_rot, rope_theta, rope_theta_swa, rope_sections, norm_eps, tied_embeddings, qkv_bias, fused_qkv, rope_freqs,
    qk_norm, attn_output_gate, n_swa, attn_softcap, final_softcap, n_expert, n_expert_used, n_ff_exp, n_expert_shared,
    n_layer_dense_lead, n_ff_shexp, q_lora_rank, kv_lora_rank, qk_nope_dim, qk_rope_dim, v_head_dim, n_token_types,
    ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_dt_rank, ssm_n_group, ssm_dt_b_c_rms, full_attention_interval)

namespace {

// What `value` should be and is not, as the default `like` of its field is: a string, true or
// false, a whole number >= 0 (the counts), a number, or an array of as many whole numbers;
// nullptr when it is one.
const char* kind_mismatch(const nlohmann::json& like, const nlohmann::json& value) {
  if (like.is_string()) return value.is_string() ? nullptr : "a string";
  if (like.is_boolean()) return value.is_boolean() ? nullptr : "true or false";
  if (like.is_number_unsigned()) return value.is_number_unsigned() ? nullptr : "a whole number >= 0";
  if (like.is_number()) return value.is_number() ? nullptr : "a number";
  const bool ints =
      value.is_array() && value.size() == like.size() &&
      std::all_of(value.begin(), value.end(), [](const nlohmann::json& v) { return v.is_number_integer(); });
  return ints ? nullptr : "an array of 4 whole numbers";
}

}  // namespace

Result<std::vector<Preset>> load_presets(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    return fail(ErrorCode::kNotFound,
                "presets '" + path + "': cannot open the file (RIGBENCH_DATA_DIR names rigbench's data/ folder)");
  const auto doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_array())
    return fail(ErrorCode::kInvalidInput, "presets '" + path + "': not a JSON array");
  const nlohmann::json known = Preset{};
  std::vector<Preset> out;
  std::set<std::string> names;
  for (size_t i = 0; i < doc.size(); ++i) {
    const std::string where = "presets '" + path + "': entry " + std::to_string(i + 1) + ": ";
    if (!doc[i].is_object()) return fail(ErrorCode::kInvalidInput, where + "not a JSON object");
    for (const auto& [key, value] : doc[i].items()) {
      if (!known.contains(key)) return fail(ErrorCode::kInvalidInput, where + "unknown field '" + key + "'");
      if (const char* want = kind_mismatch(known[key], value))
        return fail(ErrorCode::kInvalidInput, where + "field '" + key + "' is not " + want);
    }
    out.push_back(doc[i].get<Preset>());
    if (out.back().name.empty() || out.back().arch.empty())
      return fail(ErrorCode::kInvalidInput, where + "no name or no arch");
    if (!names.insert(to_lower(out.back().name)).second)
      return fail(ErrorCode::kInvalidInput, where + "a second preset named '" + out.back().name + "'");
  }
  return out;
}

const Result<std::vector<Preset>>& presets() {
  static const Result<std::vector<Preset>> kPresets = load_presets(data_file_path("presets.json"));
  return kPresets;
}

Result<Preset> find_preset(const std::string& name) {
  const auto& all = presets();
  if (!all) return std::unexpected(all.error());
  std::vector<std::string> names;
  for (const auto& p : *all) {
    if (to_lower(p.name) == to_lower(name)) return p;
    names.push_back(p.name);
  }
  return fail(ErrorCode::kUsage, "--preset '" + name + "': unknown preset (" + join(names, ", ") + ")");
}

}  // namespace rigbench::model
