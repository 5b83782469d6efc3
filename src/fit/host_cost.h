// rigbench: what a host that holds several discrete GPUs adds to their price (`fit --rank
// price`): "5× Arc B580" is five cards and a board with five slots, a CPU with the PCIe lanes
// for them and a power supply for five cards, not five cards alone. Assumed figures, not
// measured nor from a source (the catalog prices devices only); every output that adds them
// says so (kHostCostAssumption). Pure: no I/O.
#pragma once

#include <optional>

namespace rigbench::fit {

// The extra host of an option of `count` discrete GPUs, beyond the one-GPU desktop any option
// sits in (so one GPU adds nothing), in USD.
struct HostCost {
  double board_usd = 0;  // board and CPU with the slots and lanes: 2 GPUs 300, 3-4 1,500, 5-8 3,000
  double psu_usd = 0;    // power supply: 0.20 USD per W above a desktop's 750 W, for 1.25 x (count x
                         // board power + 300 W of host); a board power the catalog lacks counts 300 W
  double usd() const { return board_usd + psu_usd; }
};

// The host cost of `count` GPUs of `board_power_w` (W, the catalog's; nullopt: unknown) each.
// count <= 1: zero.
HostCost multi_gpu_host(int count, std::optional<double> board_power_w);

// What multi_gpu_host assumes, for the notes under a ranking.
inline constexpr const char* kHostCostAssumption =
    "N\u00d7 prices add an assumed host beyond a one-GPU desktop: board and CPU with the slots (2 GPUs $300, 3-4 "
    "$1,500, 5-8 $3,000) and a power supply for 1.25 \u00d7 (N \u00d7 board power + 300 W) at $0.20 per W above 750 W";

}  // namespace rigbench::fit
