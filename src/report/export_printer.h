// rigbench: `rigbench export`: stored records in the format asked.
//   md     one row per record: a machine column (hostname, as compare labels it), then the
//          bench table's columns (report/columns.h; a knob column only when the records
//          differ in it); below it the llama.cpp build(s) once, not per record
//   csv    a machine column, then every bench column (the bench CSV's keys and values)
//   json   the records as a JSON array, jsonl one record per line: the serialized form
//          (store/record_json.h) that `rigbench import` reads back
#pragma once

#include <ostream>
#include <vector>

#include "core/record.h"
#include "report/table.h"

namespace rigbench::report {

Table records_table(const std::vector<RunRecord>& records);
void print_records(const std::vector<RunRecord>& records, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
