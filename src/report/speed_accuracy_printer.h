// rigbench: the leave-one-device-out check of the speed prediction (measure/speed_accuracy_job.h)
// as a table: one row per held-out point, the summary per phase in the notes.
#pragma once

#include <ostream>

#include "measure/speed_accuracy_job.h"
#include "report/table.h"

namespace rigbench::report {

Table speed_accuracy_table(const measure::SpeedAccuracy& a);

void print_speed_accuracy(const measure::SpeedAccuracy& a, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
