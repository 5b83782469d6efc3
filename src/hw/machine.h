// rigbench: this machine as the OS describes it (Linux /proc and /sys; uname elsewhere).
// The whole description, with the GPUs and ggml's backends, is hw::describe (hw/describe.h).
#pragma once

#include <cstdint>
#include <string>

#include "core/record.h"

namespace rigbench::hw {

// Fills hostname, cpu, cores, threads, ram_bytes, os, kernel of a MachineInfo.
// Never fails: a field that cannot be read stays empty or 0.
//   cpu        /proc/cpuinfo "model name" (or "Hardware"/"Processor" on ARM)
//   cores      distinct (physical_package_id, core_id) pairs under
//              /sys/devices/system/cpu/cpu*/topology; falls back to `threads`
//   threads    std::thread::hardware_concurrency()
//   ram_bytes  /proc/meminfo MemTotal
//   os         /etc/os-release PRETTY_NAME
//   kernel     uname sysname + " " + release
MachineInfo detect_machine();

// A /proc/meminfo field ("MemTotal", "MemAvailable"), bytes; 0 when unknown.
uint64_t meminfo_bytes(const std::string& field);

// Available RAM now, bytes (/proc/meminfo MemAvailable; 0 when unknown).
uint64_t available_ram_bytes();

// Threads llama-bench uses by default: the physical core count (at least 1).
int default_threads();

// Peak resident set size of this process so far, bytes (getrusage ru_maxrss).
uint64_t peak_rss_bytes();

}  // namespace rigbench::hw
