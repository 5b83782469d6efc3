#include "fit/usable.h"

#include "core/strings.h"

namespace rigbench::fit {

std::string usable_definition(uint64_t reserve_bytes) {
  return "usable = the memory llama.cpp's device reports (total RAM for a CPU, free memory for this machine's GPU and "
         "an rpc-server, the Metal working set on Apple, the GPU share of a unified system, the driver's total where "
         "it falls short of the card's) less the " +
         format_bytes(reserve_bytes) + " that llama.cpp's --fit keeps free (--fit-target)";
}

}  // namespace rigbench::fit
