#include "fit/host_cost.h"

#include <algorithm>

namespace rigbench::fit {

namespace {

constexpr double kDesktopPsuW = 750;      // the power supply a one-GPU desktop already has
constexpr double kHostW = 300;            // CPU, board, RAM and drives under load
constexpr double kPsuHeadroom = 1.25;     // a supply run at 80 % of its rating
constexpr double kPsuUsdPerW = 0.20;      // an ATX supply's price per rated W (1,000-1,600 W units)
constexpr double kUnknownBoardW = 300;    // a card whose board power the catalog lacks

double board_usd(int count) {
  if (count <= 1) return 0;
  if (count == 2) return 300;   // a board with two x16 slots (x8/x8) over a one-slot board
  if (count <= 4) return 1500;  // a workstation platform (Threadripper, Xeon W): board and CPU
  return 3000;                  // a server platform or risers for 5-8 cards
}

}  // namespace

HostCost multi_gpu_host(int count, std::optional<double> board_power_w) {
  HostCost h;
  if (count <= 1) return h;
  h.board_usd = board_usd(count);
  const double watts = kPsuHeadroom * (count * board_power_w.value_or(kUnknownBoardW) + kHostW);
  h.psu_usd = std::max(0.0, watts - kDesktopPsuW) * kPsuUsdPerW;
  return h;
}

}  // namespace rigbench::fit
