// rigbench: the identities of a set of records, made once per distinct setup.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/identities.h"
#include "report/knob_settings.h"

namespace rigbench::report {

// The identities of a set of records (machine, model as ModelIdentities resolves it, build)
// and its knobs label, made once per distinct setup: the records that share machine, build,
// model, params and tags (most records of a large database: the repetitions of one
// configuration) share one entry, so a view of 100,000 records builds a few thousand. It keeps
// no pointer to the records: setup() and of() take an index into the span it was made from.
// Read-only once made.
class RecordIdentities {
 public:
  struct Entry {
    Identity machine, model, build, backend;
    Identity tool, commit;  // the build's two parts (tool_identity, commit_identity; the commit with
                            // the build's backends where the build has them)
    // Where one machine's records come from builds of several backends (a CPU and a Vulkan build,
    // Metal,BLAS and Metal): this build's backends (build_backends: "Vulkan", "CPU"), which
    // `build` and `commit` then carry (" (Vulkan)"); "" otherwise. `sources_build` and
    // `sources_commit` are the same two without them (build_identity, commit_identity): compare
    // --by machine names the backends in the column and keeps the row's build to the sources.
    std::string backends_apart;
    Identity sources_build, sources_commit;
    std::string knobs;      // knobs_label
    KnobSettings knob_settings;
    std::size_t first = 0;  // index of the setup's first record
  };
  explicit RecordIdentities(std::span<const RunRecord> records);
  // The distinct setup of records[i], an index into entries(); records of one setup share it.
  std::size_t setup(std::size_t i) const { return setup_of_[i]; }
  const Entry& of(std::size_t i) const { return entries_[setup_of_[i]]; }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;         // one per distinct setup, in order of first record
  std::vector<std::size_t> setup_of_;  // per record
};

}  // namespace rigbench::report
