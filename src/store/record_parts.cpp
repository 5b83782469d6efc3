#include "store/record_parts.h"

namespace rigbench::store {

namespace {

// Copies `key` of `from` into `to` when present.
void copy_key(const Json& from, Json& to, const char* key) {
  if (auto it = from.find(key); it != from.end()) to[key] = *it;
}

// A test's result without what the samples table holds and what is recomputed from it.
Json result_shape(const Json& test, bool throughput) {
  if (test.value("summary_only", false)) {
    Json stated = test;
    stated.erase("samples_tps");
    return stated;
  }
  Json shape = Json::object();
  if (throughput) copy_key(test, shape, "n_tokens");
  shape["samples_ns"] = Json::array();
  copy_key(test, shape, "itl_samples_ns");  // tg's per-token latencies: not in the samples table
  return shape;
}

}  // namespace

RecordParts split_record(const Json& record) {
  Json setup = Json::object();
  for (const char* key : {"schema_version", "machine", "build", "model", "params", "tags", "source_fields", "server"}) {
    copy_key(record, setup, key);
  }

  Json figures = Json::object();
  Json results = Json::object();
  if (auto r = record.find("results"); r != record.end() && r->is_object()) {
    for (const char* test : {"pp", "tg", "ttft"}) {
      if (auto t = r->find(test); t != r->end() && t->is_object())
        results[test] = result_shape(*t, std::string(test) != "ttft");
    }
    copy_key(*r, results, "embedding");  // rigbench embed: its samples are not in the samples table
    copy_key(*r, results, "suite");  // a prompt suite's results, whole (no samples table rows)
  }
  figures["results"] = results;
  if (auto m = record.find("memory"); m != record.end() && m->is_object()) {
    Json memory = Json::object();
    copy_key(*m, memory, "buffers");
    figures["memory"] = memory;
  }
  std::string power_trace;
  if (auto e = record.find("energy"); e != record.end() && e->is_object()) {
    Json energy = *e;
    if (auto t = energy.find("power_trace"); t != energy.end() && t->is_array() && !t->empty()) power_trace = t->dump();
    for (const char* key : {"notes", "meters", "domains", "power_trace"}) energy.erase(key);
    figures["energy"] = energy;
  }
  if (auto c = record.find("cost"); c != record.end()) {
    Json cost = *c;
    if (cost.is_object()) cost.erase("notes");
    figures["cost"] = cost;
  }
  for (const char* key : {"interrupted", "refused", "failed", "precision", "topology", "noise"}) copy_key(record, figures, key);
  return RecordParts{setup.dump(), figures.dump(), power_trace};
}

Result<RunRecord> join_parts(const Json& setup, const Json& figures) {
  Json whole = setup;
  whole["record_id"] = "";
  whole["test_time"] = "";
  for (const auto& [key, value] : figures.items()) whole[key] = value;
  return from_json(whole);
}

}  // namespace rigbench::store
