// rigbench: an external power log, as a smart plug or a wall meter writes it: CSV lines
// `timestamp,watts`. The timestamp is Unix seconds (fractions allowed, e.g. 1795961284.25) or
// ISO 8601 with a zone ("2026-11-29T14:08:04Z", "2026-11-29T15:08:04.250+01:00"). A first
// line whose watts field is not a number is a header; blank lines and lines starting with #
// are skipped. Fields may be quoted (RFC 4180, core/csv.h), e.g. a header
// `"time (UTC, ISO 8601)","power (W)"`. Energy over a window is the trapezoid integral of the logged power between
// the window's wall-clock ends (interpolated at the ends); the log must cover the window.
// An interval between two logged samples longer than kGapIntervals sampling intervals (the
// median spacing) is a gap: never integrated across; a window touching it is unavailable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "power/meter.h"

namespace rigbench::power {

inline constexpr double kGapIntervals = 3;  // "a few sampling intervals": beyond this, a gap

struct PowerLogSample {
  int64_t unix_ns = 0;  // when the power was read, ns since 1970 UTC
  double power_w = 0;   // watts
};

// Parses a power log. Samples come back sorted by time.
// Errors: kInvalidInput naming `input_name` and the line: a field that is not a number, a
// timestamp without a zone, a numeric timestamp too large for Unix seconds (from 1e11: the
// message names the unit it looks like, milliseconds, microseconds or nanoseconds), negative
// watts, two samples at the same time, fewer than 2 samples.
Result<std::vector<PowerLogSample>> parse_power_log(std::string_view text, const std::string& input_name);

// A meter over the log file at `path`, read after the fact: read(t) integrates the log up to
// t.unix_ns (the file is read again when it has grown, so a logger may still be writing it).
// Unavailable: the file cannot be read or does not parse (the reason is the parse error).
// Domain: "external:wall", whole-system, method integrated.
MeterOpen open_power_log(const std::string& path);

}  // namespace rigbench::power
