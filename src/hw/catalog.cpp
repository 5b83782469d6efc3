#include "hw/catalog.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace rigbench::hw {

std::optional<double> CatalogDevice::usd_per_gib() const {
  if (!price_usd || memory_bytes == 0) return std::nullopt;
  return *price_usd / (static_cast<double>(memory_bytes) / static_cast<double>(1ull << 30));
}

std::string catalog_path() {
  const char* env = std::getenv("RIGBENCH_DATA_DIR");
  return std::string(env && *env ? env : RIGBENCH_DATA_DIR) + "/devices.json";
}

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
      c.working_set_fraction = d.value("working_set_fraction", 1.0);
      c.bandwidth_gbps = d.at("bandwidth_gbps").get<double>();
      if (d.contains("board_power_w") && d["board_power_w"].is_number()) c.board_power_w = d["board_power_w"].get<double>();
      if (d.contains("price_usd") && d["price_usd"].is_number()) c.price_usd = d["price_usd"].get<double>();
      c.sources = d.at("sources").get<std::map<std::string, std::string>>();
      out.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    return fail(ErrorCode::kInvalidInput, "catalog '" + path + "': entry '" + entry + "': " + e.what());
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
  return fail(ErrorCode::kUsage, "--device '" + name + "': not in the catalog (" + join(names, ", ") + ")");
}

}  // namespace rigbench::hw
