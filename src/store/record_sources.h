// rigbench: the records that `compare`, `report` and `export` read, from one or more
// results databases (`--db PATH`, repeatable; the default database when none is given).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::store {

// Every record of each database in `db_paths` (the default database, default_db_path(),
// when empty), database by database, oldest first within each; a record_id seen before is
// dropped (the first copy kept). Reading never creates a database. Errors: kNotFound
// naming a path that does not exist; SqliteStore's errors (kRuntime, kInvalidInput).
Result<std::vector<RunRecord>> load_records(const std::vector<std::string>& db_paths);

}  // namespace rigbench::store
