#include "hw/catalog.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/data_dir.h"
#include "core/did_you_mean.h"
#include "core/strings.h"

namespace rigbench::hw {

uint64_t apple_working_set_bytes(uint64_t memory_bytes) {
  constexpr uint64_t kGiB = 1ull << 30;
  return memory_bytes < 36 * kGiB ? memory_bytes / 3 * 2 : memory_bytes / 4 * 3;
}

uint64_t CatalogDevice::visible_bytes() const {
  if (kind == "apple") return apple_working_set_bytes(memory_bytes);
  if (kind == "unified") return static_cast<uint64_t>(static_cast<double>(memory_bytes) * working_set_fraction);
  if (kind == "gpu" && reported_memory_bytes > 0) return reported_memory_bytes;
  return memory_bytes;
}

std::optional<double> CatalogDevice::usd_per_gib() const {
  if (!price_usd || memory_bytes == 0) return std::nullopt;
  return *price_usd / (static_cast<double>(memory_bytes) / static_cast<double>(1ull << 30));
}

std::string catalog_path() { return data_file_path("devices.json"); }

Result<std::vector<CatalogDevice>> load_catalog(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail(ErrorCode::kNotFound, "catalog '" + path + "': cannot open the file");
  const auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail(ErrorCode::kInvalidInput, "catalog '" + path + "': not valid JSON");
  std::vector<CatalogDevice> out;
  std::string entry = "?";
  try {
    for (const auto& d : j.at("devices")) {
      entry = d.value("name", "?");
      CatalogDevice c;
      c.name = d.at("name").get<std::string>();
      c.kind = d.at("kind").get<std::string>();
      c.backend = d.at("backend").get<std::string>();
      c.memory_bytes = d.at("memory_bytes").get<uint64_t>();
      if (c.memory_bytes == 0 || c.memory_bytes % (1ull << 30) != 0) {
        return fail(ErrorCode::kInvalidInput,
                    "catalog '" + path + "': entry '" + entry +
                        "': memory_bytes is not a whole number of GiB (the catalog's unit convention)");
      }
      if (c.kind == "apple" && d.contains("working_set_fraction")) {
        return fail(ErrorCode::kInvalidInput,
                    "catalog '" + path + "': entry '" + entry +
                        "': an Apple entry takes the working-set rule, not its own working_set_fraction");
      }
      c.working_set_fraction = d.value("working_set_fraction", 1.0);
      c.reported_memory_bytes = d.value("reported_memory_bytes", uint64_t{0});
      if (c.reported_memory_bytes > 0 && (c.kind != "gpu" || c.reported_memory_bytes > c.memory_bytes ||
                                          !d.contains("sources") || !d["sources"].contains("reported"))) {
        return fail(ErrorCode::kInvalidInput,
                    "catalog '" + path + "': entry '" + entry +
                        "': reported_memory_bytes is for a \"gpu\" entry, at most memory_bytes, with sources.reported");
      }
      c.host = d.value("host", "");
      c.bandwidth_gbps = d.at("bandwidth_gbps").get<double>();
      if (d.contains("board_power_w") && d["board_power_w"].is_number())
        c.board_power_w = d["board_power_w"].get<double>();
      if (d.contains("price_usd") && d["price_usd"].is_number()) c.price_usd = d["price_usd"].get<double>();
      for (const auto& [key, field] : {std::pair{"fp16_tflops", &c.fp16_tflops}, std::pair{"int8_tops", &c.int8_tops}}) {
        if (!d.contains(key)) continue;
        if (!d[key].is_number() || !(d[key].get<double>() > 0) || !d.contains("sources") || !d["sources"].contains("compute"))
          return fail(ErrorCode::kInvalidInput, "catalog '" + path + "': entry '" + entry + "': " + key +
                                                    " is a positive number with sources.compute");
        *field = d[key].get<double>();
      }
      c.sources = d.at("sources").get<std::map<std::string, std::string>>();
      out.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    return fail(ErrorCode::kInvalidInput, "catalog '" + path + "': entry '" + entry + "': " + e.what());
  }
  for (const auto& c : out) {
    if (c.kind != "gpu" || c.host.empty()) continue;
    const bool found = std::any_of(out.begin(), out.end(),
                                   [&](const CatalogDevice& h) { return h.kind == "cpu" && h.name == c.host; });
    if (!found) {
      return fail(ErrorCode::kInvalidInput, "catalog '" + path + "': entry '" + c.name + "': host '" + c.host +
                                                "' is not a \"cpu\" entry of the catalog");
    }
  }
  return out;
}

Result<CatalogDevice> find_device(const std::vector<CatalogDevice>& catalog, const std::string& name) {
  std::vector<std::string> names;
  const CatalogDevice* prefix = nullptr;
  int n_prefix = 0;
  for (const auto& d : catalog) {
    if (to_lower(d.name) == to_lower(name)) return d;
    if (to_lower(d.name).rfind(to_lower(name), 0) == 0) {
      prefix = &d;
      ++n_prefix;
    }
    names.push_back(d.name);
  }
  if (n_prefix == 1) return *prefix;
  const std::string where = "--device '" + name + "': ";
  std::vector<std::string> like = names_like(name, names);
  if (like.size() == 1) {
    return fail(ErrorCode::kUsage, where + "not in the catalog; did you mean '" + like.front() + "'?");
  }
  if (!like.empty()) {
    for (std::string& n : like) n = "'" + n + "'";
    return fail(ErrorCode::kUsage, where + std::to_string(like.size()) + " catalog entries match (" + join(like, ", ") +
                                       "); name one");
  }
  return fail(ErrorCode::kUsage, where + "not in the catalog of " + std::to_string(names.size()) +
                                     " entries (`rigbench devices` lists them)");
}

}  // namespace rigbench::hw
