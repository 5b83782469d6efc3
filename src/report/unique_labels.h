// rigbench: labels for people that tell identities apart (report/identities.h): two machines
// or models of one name are "rig3090" and "rig3090 (2)", and a note says what tells them apart.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "report/identities.h"

namespace rigbench::report {

// Identity keys to labels that are unique: a label two keys share gets " (2)", " (3)", ...
// in key order. add() every identity, then finish() once, then read. Not thread-safe while
// adding; read-only after finish().
class UniqueLabels {
 public:
  void add(const Identity& id) { labels_.emplace(id.key, id.label); }
  void finish();
  // Each identity whose label another one had first: its key, the label they share, the
  // first one's key (after finish()).
  struct Shared {
    std::string key, base, first_key;
  };
  const std::vector<Shared>& shared() const { return shared_; }
  // The unique label of `key`, which must have been added (else it aborts: std::out_of_range).
  const std::string& of(const std::string& key) const { return labels_.at(key); }
  // Every unique label, sorted.
  std::vector<std::string> sorted() const;

 private:
  std::map<std::string, std::string> labels_;
  std::vector<Shared> shared_;
};

// Why a column or row label carries " (2)": one line per machine or model label that does,
// saying what tells it apart from the one first given the name ("rig3090 (2): another machine
// named rig3090, told apart by its CPU (AMD Ryzen 9 5950X; rig3090: AMD EPYC 7763)").
// `machines` holds machine_identity keys, `models` model keys, both finished.
std::vector<std::string> same_name_notes(const UniqueLabels& machines, const UniqueLabels& models);

}  // namespace rigbench::report
