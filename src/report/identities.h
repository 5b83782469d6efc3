// rigbench: what a record is compared along, the identities of `rigbench compare`: the machine
// it ran on, the model, the build (the tool and the llama.cpp commit) and the backend. One of
// them gives a comparison's columns (report/compare_by.h); the others, with the test, its rows.
// Every function here is pure: it reads the records given and keeps nothing.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::report {

// What a record is compared along: `key` tells identities apart, `label` is for people.
struct Identity {
  std::string key;
  std::string label;
};
// Machine: the hostname when the record names one (bench's --machine or the host's name,
// import's --hostname) with the CPU, whatever GPUs the record lists (builds and versions list
// them differently); else the CPU and GPU descriptions, labelled "CPU + GPUs".
Identity machine_identity(const RunRecord& rec);
// Model, as one record sees it: what defines the model (architecture, parameter count, file
// type; for a synthetic file its values recipe and seed) and the file (its fingerprint, else
// its file name); labelled
// "name file_type" [" (synthetic vN, seed S)"]. Within a set of records, ModelIdentities
// joins a record without a fingerprint (llama-bench names the file, it does not hash it) to
// the fingerprinted file of the same architecture, parameter count and type. (File sizes are
// left out: llama-bench's model_size counts tensor bytes, rigbench's the file.)
Identity model_identity(const RunRecord& rec);
// What model_identity's label says of a synthetic file, "synthetic v2, seed 42" (the text
// within its " (synthetic v...)"); "" when `label` holds none.
std::string synthetic_part(const std::string& label);

// The models of a set of records, resolved together: a record without a fingerprint is the
// model of the one fingerprinted file of its shape when there is exactly one (else the model
// of its file name); two fingerprints of one shape are two models. Two models with the same label are
// told apart by " (292.80 K params)", then by the fingerprint " (xxh64:1a2b3c4d)".
class ModelIdentities {
 public:
  explicit ModelIdentities(std::span<const RunRecord> records);
  // The same from some records of a set, in their order: one of each distinct setup
  // (RecordIdentities) resolves every record of the set alike.
  explicit ModelIdentities(const std::vector<const RunRecord*>& records);
  // The model of `rec`, which must be one of the records given (else it aborts: std::out_of_range).
  const Identity& of(const RunRecord& rec) const;

 private:
  std::map<std::string, std::string> resolved_;  // model_identity(rec).key -> model key
  std::map<std::string, Identity> models_;       // model key -> identity (unique labels)
};

// Build: the tool (rigbench and its version, or llama-bench for imported rows) and the
// llama.cpp commit's first 8 hex digits; labelled "rigbench 0.1.0 / llama.cpp 80fb11ac".
// It is tool_identity and commit_identity, joined.
Identity build_identity(const RunRecord& rec);
// The tool that measured a record: "rigbench 0.1.0", or "llama-bench" for an imported row.
Identity tool_identity(const RunRecord& rec);
// Whether llama-bench measured it (an imported row, tagged store::kLlamaBenchTag).
bool from_llama_bench(const RunRecord& rec);
// The llama.cpp commit a record ran: "llama.cpp 80fb11ac" ("llama.cpp ?" when not recorded).
Identity commit_identity(const RunRecord& rec);
// The backends a build has besides the CPU and RPC (compiled into every build), as
// llama-bench's `backends` field names them ("Vulkan", "CUDA,BLAS"); "CPU" when none (or none
// recorded). RecordIdentities adds them to
// the build's key and label (" (Vulkan)") where one machine's records come from builds of
// different backends, so a CPU build's and a Vulkan build's runs stay apart.
std::string build_backends(const MachineInfo& m);

// Backend: the ggml backend the run's layers ran on: the backends of the devices that held them
// (RunRecord::devices_used, "CUDA0" -> "CUDA"; several joined by "+"); for a record without
// them (imports), the offload backends its build lists (MachineInfo::backends, BLAS and CPU
// aside), or "CPU" under -ngl 0 or without one; "unknown backend" when it lists none. Key and
// label are the same.
Identity backend_identity(const RunRecord& rec);

}  // namespace rigbench::report
