#include "report/identities.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "core/rpc_endpoints.h"
#include "core/short_commit.h"
#include "core/strings.h"
#include "store/llama_bench_record.h"

namespace rigbench::report {

Identity machine_identity(const RunRecord& rec) {
  const MachineInfo& m = rec.machine;
  std::vector<std::string> gpus;
  for (const DeviceInfo& d : m.gpus) gpus.push_back(d.description.empty() ? d.name : d.description);
  Identity id;
  if (!m.hostname.empty()) {
    // A named machine is its name and CPU: records of one host stay one machine whatever GPUs
    // each build or rigbench version listed (bench --machine names it; import --hostname).
    id.key = m.hostname + '\x1f' + trim(m.cpu);
    id.label = m.hostname;
    return id;
  }
  id.key = '\x1f' + m.cpu + '\x1f' + join(gpus, "\x1e");
  id.label = m.cpu.empty() ? std::string("unknown machine") : m.cpu;
  for (const std::string& g : gpus) id.label += " + " + g;
  return id;
}

namespace {

// What the model is, apart from which file: architecture, parameter count, file type and,
// for a synthetic file, its values recipe and seed. A record without a parameter count (an
// old import) falls back to its name.
std::string model_shape_key(const ModelInfo& m) {
  const std::string synthetic =
      m.synthetic ? "synthetic v" + std::to_string(m.synthetic_values) + ", seed " + std::to_string(m.synthetic_seed)
                  : "";
  // (llama-bench's 2023 builds name the architecture "LLaMA", later ones "llama")
  const std::string what = m.n_params > 0 ? to_lower(m.arch) + '\x1f' + std::to_string(m.n_params) : "name:" + m.name;
  return what + '\x1f' + m.file_type + '\x1f' + synthetic;
}

}  // namespace

Identity model_identity(const RunRecord& rec) {
  const ModelInfo& m = rec.model;
  Identity id;
  // The file: its fingerprint, else (llama-bench rows) its file name.
  id.key =
      model_shape_key(m) + '\x1f' +
      (m.fingerprint.empty() ? "file:" + to_lower(std::filesystem::path(m.path).filename().string()) : m.fingerprint);
  id.label = m.file_type.empty() ? m.name : m.name + " " + m.file_type;
  // Synthetic files of another values recipe or seed run at another speed: not pooled.
  if (m.synthetic)
    id.label +=
        " (synthetic v" + std::to_string(m.synthetic_values) + ", seed " + std::to_string(m.synthetic_seed) + ")";
  return id;
}

std::string synthetic_part(const std::string& label) {
  static const std::string kOpen = " (synthetic v";
  const std::size_t at = label.find(kOpen);
  const std::size_t end = at == std::string::npos ? at : label.find(')', at);
  return end == std::string::npos ? "" : label.substr(at + 2, end - at - 2);
}

namespace {

std::vector<const RunRecord*> pointers_to(std::span<const RunRecord> records) {
  std::vector<const RunRecord*> out;
  out.reserve(records.size());
  for (const RunRecord& rec : records) out.push_back(&rec);
  return out;
}

}  // namespace

ModelIdentities::ModelIdentities(std::span<const RunRecord> records) : ModelIdentities(pointers_to(records)) {}

ModelIdentities::ModelIdentities(const std::vector<const RunRecord*>& record_ptrs) {
  // Fingerprints seen per shape.
  std::map<std::string, std::set<std::string>> fingerprints;
  for (const RunRecord* r : record_ptrs) {
    const RunRecord& rec = *r;
    if (!rec.model.fingerprint.empty()) fingerprints[model_shape_key(rec.model)].insert(rec.model.fingerprint);
  }
  // Each record's own key -> the model it is; a record without a fingerprint joins the one
  // fingerprinted file of its shape. Labels from fingerprinted records (GGUF general.name)
  // win over file names.
  struct Entry {
    Identity id;
    uint64_t n_params = 0;
    std::string fingerprint;
    bool from_file = false;
  };
  std::map<std::string, Entry> models;  // resolved key -> entry
  for (const RunRecord* r : record_ptrs) {
    const RunRecord& rec = *r;
    const Identity own = model_identity(rec);
    std::string key = own.key;
    if (rec.model.fingerprint.empty()) {
      const auto it = fingerprints.find(model_shape_key(rec.model));
      if (it != fingerprints.end() && it->second.size() == 1)
        key = model_shape_key(rec.model) + '\x1f' + *it->second.begin();
    }
    resolved_[own.key] = key;
    Entry& e = models[key];
    if (e.id.key.empty() || (!e.from_file && !rec.model.fingerprint.empty())) {
      e.id = Identity{key, own.label};
      e.n_params = rec.model.n_params;
      const std::string file = key.substr(key.rfind('\x1f') + 1);
      e.fingerprint = file.starts_with("file:") ? "" : file;
      e.from_file = !rec.model.fingerprint.empty();
    }
  }
  // Two models that share a label: the parameter count tells them apart where it differs,
  // then the fingerprint.
  auto disambiguate = [&models](auto differs, auto suffix) {
    std::map<std::string, std::vector<Entry*>> by_label;
    for (auto& [key, e] : models) by_label[e.id.label].push_back(&e);
    for (auto& [label, group] : by_label) {
      if (group.size() < 2) continue;
      bool apart = false;
      for (const Entry* e : group) apart = apart || differs(*e, *group.front());
      if (!apart) continue;
      for (Entry* e : group) e->id.label = label + suffix(*e);
    }
  };
  disambiguate([](const Entry& a, const Entry& b) { return a.n_params != b.n_params; },
               [](const Entry& e) { return " (" + format_count(e.n_params) + " params)"; });
  disambiguate([](const Entry& a, const Entry& b) { return a.fingerprint != b.fingerprint; },
               [](const Entry& e) {
                 return e.fingerprint.empty() ? std::string(" (no fingerprint)")
                                              : " (" + e.fingerprint.substr(0, 14) + ")";
               });
  for (auto& [key, e] : models) models_.emplace(key, std::move(e.id));
}

const Identity& ModelIdentities::of(const RunRecord& rec) const {
  return models_.at(resolved_.at(model_identity(rec).key));
}

std::string build_backends(const MachineInfo& m) {
  std::vector<std::string> gpu;
  for (const std::string& b : m.backends) {
    // RPC is compiled into every build (GGML_RPC): it tells no two builds apart.
    if (b != "CPU" && b != "RPC") gpu.push_back(b);
  }
  return gpu.empty() ? std::string("CPU") : join(gpu, ",");
}

bool from_llama_bench(const RunRecord& rec) {
  return std::find(rec.tags.begin(), rec.tags.end(), store::kLlamaBenchTag) != rec.tags.end();
}

Identity tool_identity(const RunRecord& rec) {
  const std::string tool = from_llama_bench(rec) ? "llama-bench" : "rigbench " + rec.build.rigbench_version;
  return Identity{tool, tool};
}

Identity commit_identity(const RunRecord& rec) {
  const std::string commit = rec.build.llama_cpp_commit.empty() ? "?" : short_commit(rec.build.llama_cpp_commit);
  return Identity{commit, "llama.cpp " + commit};
}

Identity build_identity(const RunRecord& rec) {
  const Identity tool = tool_identity(rec), commit = commit_identity(rec);
  return Identity{tool.key + '\x1f' + commit.key, tool.label + " / " + commit.label};
}

Identity backend_identity(const RunRecord& rec) {
  std::vector<std::string> names;
  auto add = [&](std::string b) {
    if (std::find(names.begin(), names.end(), b) == names.end()) names.push_back(std::move(b));
  };
  if (!rec.devices_used.empty()) {
    // The devices that held the layers ("CUDA0", "Vulkan1", "CPU"): their backends, digits dropped.
    for (const std::string& d : rec.devices_used) {
      std::size_t end = d.size();
      while (end > 0 && std::isdigit(static_cast<unsigned char>(d[end - 1]))) --end;
      add(end > 0 ? d.substr(0, end) : d);
    }
  } else {
    // Records without the devices (imports, CPU-only runs): the offload backends the build
    // lists, unless -ngl 0. RPC is compiled into every build: its devices are the rpc-servers',
    // used only by a run that named them (--rpc).
    for (const std::string& b : rec.machine.backends) {
      const std::string l = to_lower(b);
      if (l != "cpu" && l != "blas" && l != "rpc") add(b);
    }
    if (names_rpc_servers(rec.params.rpc)) add("RPC");
    if (rec.machine.backends.empty()) return Identity{"unknown backend", "unknown backend"};
    if (rec.params.n_gpu_layers == 0 || names.empty()) names = {"CPU"};
  }
  const std::string label = join(names, "+");
  return Identity{label, label};
}

}  // namespace rigbench::report
