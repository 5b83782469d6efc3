// rigbench: a Table's rows as JSON objects, for documents that embed a table (fit's
// {"model", "devices": [...], "notes"}). Used inside report/ only.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/table.h"

namespace rigbench::report {

// A number for JSON: null when NaN or infinite (JSON has neither).
inline nlohmann::ordered_json json_number(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

// One object per row keyed by column key, numbers as numbers, absent values null.
nlohmann::ordered_json table_rows_json(const Table& table);
nlohmann::ordered_json row_json(const Table& table, std::size_t row);

}  // namespace rigbench::report
