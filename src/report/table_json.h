// rigbench: a Table's rows as JSON objects, for documents that embed a table (fit's
// {"model", "devices": [...], "notes"}). Used inside report/ only.
#pragma once

#include <nlohmann/json.hpp>

#include "report/table.h"

namespace rigbench::report {

// One object per row keyed by column key, numbers as numbers, absent values null.
nlohmann::ordered_json table_rows_json(const Table& table);
nlohmann::ordered_json row_json(const Table& table, std::size_t row);

}  // namespace rigbench::report
