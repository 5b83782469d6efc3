// rigbench: the HTML report's first section, "Answers": the sentences of report/reversals.h
// for tg and pp, each linked to the table it comes from (the ranking or pairs table below it,
// and the metric's own section, #tg or #pp). "" when no sentence holds.
#pragma once

#include <string>

#include "report/comparison.h"

namespace rigbench::report {

std::string answers_section_html(const Comparison& cmp, double alpha);

}  // namespace rigbench::report
