// rigbench: `rigbench export`: stored records in the format asked.
//   md     the bench table's rows (each record's pp and tg tests, report/columns.h
//          test_columns) with a machine column first (hostname, as compare labels it); a knob
//          column only when the rows differ in it; below it the llama.cpp build(s) once. Where
//          that table would pass 120 columns: one table per model, its name, file and size
//          above it ("model: ..."), and where one is still wider its knobs that differ in one
//          "settings" column that wraps
//   csv    a machine column, then every bench column (the bench CSV's keys and values)
//   json   the records as a JSON array, jsonl one record per line: the serialized form
//          (store/record_json.h) that `rigbench import` reads back
#pragma once

#include <ostream>
#include <vector>

#include "core/record.h"
#include "report/table.h"

namespace rigbench::report {

Table records_csv_table(const std::vector<RunRecord>& records);  // csv: one row per record
void print_records(const std::vector<RunRecord>& records, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
