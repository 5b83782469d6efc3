#include "report/record_identities.h"

#include <map>
#include <set>
#include <unordered_map>

#include "core/knobs.h"
#include "report/byte_signature.h"

namespace rigbench::report {

namespace {

// Everything machine_identity, model_identity (and so ModelIdentities), build_identity and
// knobs_label read of a record, and the params the rows read (n_prompt, n_gen, n_ctx): two
// records with the same signature have the same identities and knobs.
std::string setup_signature(const RunRecord& rec) {
  std::string sig;
  sig.reserve(512);
  const MachineInfo& m = rec.machine;
  append_field(sig, m.hostname);
  append_field(sig, m.cpu);
  append_raw(sig, m.gpus.size());
  for (const DeviceInfo& d : m.gpus) {
    append_field(sig, d.name);
    append_field(sig, d.description);
  }
  append_raw(sig, m.backends.size());
  for (const std::string& b : m.backends) append_field(sig, b);
  append_raw(sig, rec.devices_used.size());
  for (const std::string& d : rec.devices_used) append_field(sig, d);
  append_field(sig, rec.build.rigbench_version);
  append_field(sig, rec.build.llama_cpp_commit);
  append_raw(sig, rec.tags.size());
  for (const std::string& t : rec.tags) append_field(sig, t);
  const ModelInfo& mo = rec.model;
  append_field(sig, mo.path);
  append_field(sig, mo.name);
  append_field(sig, mo.arch);
  append_field(sig, mo.file_type);
  append_field(sig, mo.fingerprint);
  append_raw(sig, mo.n_params);
  append_raw(sig, mo.synthetic);
  append_raw(sig, mo.synthetic_values);
  append_raw(sig, mo.synthetic_seed);
  const BenchParams& p = rec.params;
  for (const Knob& k : knobs()) {
    if (k.type == Knob::Type::kInt) append_raw(sig, p.*k.int_field);
    else append_field(sig, p.*k.text_field);
  }
  append_raw(sig, p.n_prompt);
  append_raw(sig, p.n_gen);
  append_raw(sig, p.n_ctx);
  append_raw(sig, rec.source_fields.size());
  for (const auto& [field, value] : rec.source_fields) {
    append_field(sig, field);
    append_field(sig, value);
  }
  return sig;
}

}  // namespace

RecordIdentities::RecordIdentities(std::span<const RunRecord> records) {
  std::unordered_map<std::string, std::size_t> setups;  // signature -> index into entries_
  std::vector<const RunRecord*> firsts;                 // the first record of each setup
  setup_of_.reserve(records.size());
  for (const RunRecord& rec : records) {
    const auto [it, fresh] = setups.try_emplace(setup_signature(rec), firsts.size());
    if (fresh) firsts.push_back(&rec);
    setup_of_.push_back(it->second);
  }
  // The first record of each setup, in the records' order, resolves the models as all the
  // records would: the same fingerprints per shape, the same first record of each model.
  const ModelIdentities model_ids(firsts);
  entries_.reserve(firsts.size());
  for (const RunRecord* rec : firsts) {
    KnobSettings settings = knob_settings(*rec);
    std::string label = knobs_label(settings);
    Entry e{machine_identity(*rec), model_ids.of(*rec), build_identity(*rec), backend_identity(*rec),
            tool_identity(*rec), commit_identity(*rec)};
    e.knobs = std::move(label);
    e.knob_settings = std::move(settings);
    e.first = static_cast<std::size_t>(rec - records.data());
    e.sources_build = e.build;
    e.sources_commit = e.commit;
    entries_.push_back(std::move(e));
  }
  // Builds of several backends on one machine (a CPU build and a Vulkan build of the same
  // sources): one machine, builds told apart by their backends, so their runs are never pooled.
  std::map<std::string, std::set<std::string>> backends_per_machine;
  for (const Entry& e : entries_) backends_per_machine[e.machine.key].insert(build_backends(records[e.first].machine));
  for (Entry& e : entries_) {
    if (backends_per_machine[e.machine.key].size() < 2) continue;
    const std::string backends = build_backends(records[e.first].machine);
    e.backends_apart = backends;
    e.build.key += '\x1f' + backends;
    e.build.label += " (" + backends + ")";
    e.commit.key += '\x1f' + backends;
    e.commit.label += " (" + backends + ")";
  }
}

}  // namespace rigbench::report
