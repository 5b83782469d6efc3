// rigbench: the measured points and the queries of the speed prediction
// (fit/speed_prediction.h), from the catalog (hw/catalog.h) and the shipped dataset of published
// llama-bench results (hw/published_results.h). Pure functions.
#pragma once

#include <vector>

#include "fit/speed_prediction.h"
#include "hw/catalog.h"
#include "hw/published_results.h"
#include "model/model_shape.h"

namespace rigbench::fit {

// A device's peak for a phase: tg, the memory bandwidth (bandwidth_gbps x 1e9 bytes/s); pp, its
// dense FP16 matrix throughput (fp16_tflops x 1e12 FLOP/s); 0 when the catalog has no figure.
double peak_per_s(const hw::CatalogDevice& d, Phase phase);

// Whether a dataset row is one the model learns from: on a catalog device (its `catalog` entry
// is in `catalog`), at depth 0, fully offloaded (no ngl column, or ngl >= 99), a pp test of at
// most 2048 tokens or a tg test of at most 512 (longer tests read a growing KV cache), a dense
// model (MoE rows, "MoE"/"moe"/".A" in the description, read a fraction of their size per token),
// with the KV cache on the device (nkvo 0), and for tg on a host that is not a single-board
// computer (host_kind "sbc": a card on a Raspberry Pi's PCIe lane runs tg held back by the host;
// its pp, the card's own work, is kept).
bool learnable(const hw::PublishedResult& r, const std::vector<hw::CatalogDevice>& catalog);

// The learnable rows as points: device = the catalog entry, class = speed_class(its kind, the
// row's backend), tg work = the row's model size (bytes), pp work = 2 x its parameters, date =
// the row's.
std::vector<SpeedPoint> published_points(const std::vector<hw::PublishedResult>& rows,
                                         const std::vector<hw::CatalogDevice>& catalog);

// The query for `shape` of file type `file_type` ("Q4_K_M") on catalog device `d` (its own
// backend): work from fit/speed_work.h.
SpeedQuery speed_query(const hw::CatalogDevice& d, Phase phase, const model::ModelShape& shape,
                       const std::string& file_type);

}  // namespace rigbench::fit
