// rigbench: what `rigbench hw` prints: this machine (hw::describe), its energy meters and,
// when measured, its memory bandwidth, as md (the terminal view: tables no wider than 120
// columns, one line per meter and its fix on the next), csv (one row per value:
// section,name,key,value, keys as in json), json or jsonl (the json object on one line). One
// model, built once, in four formats; md and csv through the one table builder (report/table.h).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "hw/bandwidth.h"
#include "power/meters.h"
#include "report/table.h"

namespace rigbench::report {

inline constexpr std::size_t kHwTableWidth = kMarkdownWidth;  // columns of the md view, at most

struct HwReport {
  MachineInfo machine;                           // hw::describe
  uint64_t ram_available_bytes = 0;              // bytes, MemAvailable now
  std::vector<power::MeterStatus> meters;        // power::list_meters
  std::optional<hw::BandwidthResult> bandwidth;  // --bandwidth
  double cached_bandwidth_gbps = 0;  // GB/s, the figure fit's and bench's tg bound use (hw::cached_bandwidth_gbps:
                                     // the best recent reading); 0 = none cached; printed only when known
};

// `format`: md, csv, json or jsonl (json's object on one line), parse_output_format's default list.
void print_hw(const HwReport& r, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
