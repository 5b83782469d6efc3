#include "power/nvml_meter.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>

#include "power/integrator.h"
#include "power/nvml_api.h"

namespace rigbench::power {

namespace {

// The NVML entry points, looked up once. The library is never dlclose()d: NVML may leave
// threads behind, and unloading code under them crashes.
struct NvmlApi {
  nvml::InitFn init = nullptr;
  nvml::ShutdownFn shutdown = nullptr;
  nvml::ErrorStringFn error_string = nullptr;
  nvml::DeviceGetCountFn get_count = nullptr;
  nvml::DeviceGetHandleByIndexFn get_handle = nullptr;
  nvml::DeviceGetNameFn get_name = nullptr;
  nvml::DeviceGetTotalEnergyConsumptionFn get_energy = nullptr;
  nvml::DeviceGetFieldValuesFn get_fields = nullptr;
  nvml::DeviceGetPowerUsageFn get_power_usage = nullptr;
  nvml::DeviceGetMemoryInfoFn get_memory = nullptr;
  nvml::DeviceGetClocksThrottleReasonsFn get_throttle = nullptr;

  std::string error(nvmlReturn_t rc) const {
    const char* s = error_string ? error_string(rc) : nullptr;
    return (s ? std::string(s) : "NVML error") + " (" + std::to_string(rc) + ")";
  }
};

template <typename Fn>
void lookup(void* lib, const char* name, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
}

// Milliwatts from a field value, by its type; NaN for a type that cannot hold power.
double field_milliwatts(const nvmlFieldValue_t& v) {
  switch (v.valueType) {
    case NVML_VALUE_TYPE_DOUBLE: return v.value.dVal;
    case NVML_VALUE_TYPE_UNSIGNED_INT: return static_cast<double>(v.value.uiVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG: return static_cast<double>(v.value.ulVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG: return static_cast<double>(v.value.ullVal);
    case NVML_VALUE_TYPE_SIGNED_LONG_LONG: return static_cast<double>(v.value.sllVal);
    case NVML_VALUE_TYPE_SIGNED_INT: return static_cast<double>(v.value.siVal);
    case NVML_VALUE_TYPE_UNSIGNED_SHORT: return static_cast<double>(v.value.usVal);
  }
  return kNaN;
}

struct Gpu {
  unsigned index = 0;
  nvmlDevice_t handle = nullptr;
  bool has_counter = false;      // total-energy counter supported
  bool has_instant = false;      // NVML_FI_DEV_POWER_INSTANT supported
  bool has_power_usage = false;  // nvmlDeviceGetPowerUsage supported (checks only)
  unsigned long long first_mj = 0;
  unsigned long long prev_mj = 0;
  double counter_offset_j = 0;  // energy before a counter reset (driver reload)
  PowerIntegrator integrator;
};

// Instantaneous power in watts, or NaN with `error` set.
double read_instant_w(const NvmlApi& api, nvmlDevice_t dev, std::string& error) {
  nvmlFieldValue_t fv{};
  fv.fieldId = nvml::kFieldPowerInstant;
  const nvmlReturn_t rc = api.get_fields(dev, 1, &fv);
  if (rc != nvml::kSuccess || fv.nvmlReturn != nvml::kSuccess) {
    error = "instantaneous power: " + api.error(rc != nvml::kSuccess ? rc : fv.nvmlReturn);
    return kNaN;
  }
  return field_milliwatts(fv) * 1e-3;
}

class NvmlMeter final : public Meter {
 public:
  NvmlMeter(NvmlApi api, std::vector<Gpu> gpus, std::vector<DomainInfo> domains, std::vector<std::string> notes)
      : api_(api), gpus_(std::move(gpus)), domains_(std::move(domains)), notes_(std::move(notes)) {}
  ~NvmlMeter() override {
    if (api_.shutdown) api_.shutdown();
  }

  std::string_view kind() const override { return "nvml"; }
  const std::vector<DomainInfo>& domains() const override { return domains_; }
  std::vector<std::string> notes() const override { return notes_; }
  double sample_period_s() const override {
    for (const auto& g : gpus_)
      if (g.has_instant) return 0.05;
    return 1.0;
  }

  std::vector<DomainReading> read(const TimePoint& now) override {
    std::vector<DomainReading> out(gpus_.size());
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      Gpu& g = gpus_[i];
      DomainReading& r = out[i];
      if (g.has_counter) {
        unsigned long long mj = 0;
        const nvmlReturn_t rc = api_.get_energy(g.handle, &mj);
        if (rc == nvml::kSuccess) {
          if (mj < g.prev_mj) {  // the driver was reloaded: the counter restarted from zero
            r.counter_gap = true;
            g.counter_offset_j += static_cast<double>(g.prev_mj - g.first_mj) * 1e-3;
            g.first_mj = mj;
          }
          g.prev_mj = mj;
          r.counter_j = g.counter_offset_j + static_cast<double>(mj - g.first_mj) * 1e-3;
        } else {
          r.error = "energy counter: " + api_.error(rc);
        }
      }
      if (g.has_instant) {
        std::string err;
        r.power_w = read_instant_w(api_, g.handle, err);
        if (!err.empty()) r.error += (r.error.empty() ? "" : "; ") + err;
        r.integrated_j = g.integrator.add(now.steady_ns, r.power_w);
        if (!g.integrator.started()) r.integrated_j = kNaN;
      } else if (g.has_power_usage) {
        unsigned mw = 0;
        if (api_.get_power_usage(g.handle, &mw) == nvml::kSuccess) r.power_w = mw * 1e-3;
      }
    }
    return out;
  }

 private:
  NvmlApi api_;
  std::vector<Gpu> gpus_;
  std::vector<DomainInfo> domains_;
  std::vector<std::string> notes_;
};

}  // namespace

std::string nvml_library_path() {
  const char* env = std::getenv(kNvmlLibraryEnv);
  return env && *env ? std::string(env) : std::string(kDefaultNvmlLibrary);
}

namespace {

// Loads NVML from `library` ("" = the default) and initializes it.
std::expected<NvmlApi, Unavailable> load_nvml(const std::string& library_arg) {
  const std::string library = library_arg.empty() ? nvml_library_path() : library_arg;
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* err = dlerror();
    const std::string why = err ? err : "";
    const bool not_found = why.empty() || why.find("No such file") != std::string::npos;
    return std::unexpected(Unavailable{
        "no NVIDIA driver: " + (not_found ? library + " not found" : "cannot load " + why),
        std::string("install the NVIDIA driver, or set ") + kNvmlLibraryEnv + " to the path of libnvidia-ml.so.1"});
  }
  NvmlApi api;
  lookup(lib, "nvmlInit_v2", api.init);
  lookup(lib, "nvmlShutdown", api.shutdown);
  lookup(lib, "nvmlErrorString", api.error_string);
  lookup(lib, "nvmlDeviceGetCount_v2", api.get_count);
  lookup(lib, "nvmlDeviceGetHandleByIndex_v2", api.get_handle);
  lookup(lib, "nvmlDeviceGetName", api.get_name);
  lookup(lib, "nvmlDeviceGetTotalEnergyConsumption", api.get_energy);
  lookup(lib, "nvmlDeviceGetFieldValues", api.get_fields);
  lookup(lib, "nvmlDeviceGetPowerUsage", api.get_power_usage);
  lookup(lib, "nvmlDeviceGetMemoryInfo", api.get_memory);
  lookup(lib, "nvmlDeviceGetCurrentClocksEventReasons", api.get_throttle);
  if (!api.get_throttle) lookup(lib, "nvmlDeviceGetCurrentClocksThrottleReasons", api.get_throttle);
  if (!api.init || !api.get_count || !api.get_handle) {
    return std::unexpected(
        Unavailable{"NVML: " + library + " lacks nvmlInit_v2 / nvmlDeviceGetCount_v2 (driver too old)",
                    "update the NVIDIA driver"});
  }
  if (const nvmlReturn_t rc = api.init(); rc != nvml::kSuccess) {
    std::string fix;
    if (rc == nvml::kErrorLibRmVersionMismatch) fix = "the driver was updated without a reboot: reboot";
    else if (rc == nvml::kErrorDriverNotLoaded) fix = "load the NVIDIA kernel driver (sudo modprobe nvidia) or reboot";
    else if (rc == nvml::kErrorNoPermission) fix = "run with access to /dev/nvidia*";
    return std::unexpected(Unavailable{"NVML: nvmlInit failed: " + api.error(rc), fix});
  }
  return api;
}

}  // namespace

std::vector<DeviceInfo> list_nvml_gpus(const std::string& library) {
  std::vector<DeviceInfo> out;
  auto loaded = load_nvml(library);
  if (!loaded) return out;
  const NvmlApi& api = *loaded;
  unsigned count = 0;
  if (api.get_count(&count) == nvml::kSuccess) {
    for (unsigned i = 0; i < count; ++i) {
      nvmlDevice_t dev = nullptr;
      if (api.get_handle(i, &dev) != nvml::kSuccess) continue;
      DeviceInfo d;
      d.name = "nvml:gpu" + std::to_string(i);
      char name_buf[96] = "NVIDIA GPU";
      if (api.get_name) api.get_name(dev, name_buf, sizeof name_buf);
      d.description = name_buf;
      d.type = "gpu";
      nvmlMemory_t mem{};
      if (api.get_memory && api.get_memory(dev, &mem) == nvml::kSuccess) {
        d.memory_total_bytes = mem.total;
        d.memory_free_bytes = mem.free;
      }
      out.push_back(std::move(d));
    }
  }
  if (api.shutdown) api.shutdown();
  return out;
}

std::vector<std::string> nvml_throttled_gpus(const std::string& library) {
  std::vector<std::string> out;
  auto loaded = load_nvml(library);
  if (!loaded) return out;
  const NvmlApi& api = *loaded;
  unsigned count = 0;
  if (api.get_throttle && api.get_count(&count) == nvml::kSuccess) {
    for (unsigned i = 0; i < count; ++i) {
      nvmlDevice_t dev = nullptr;
      unsigned long long reasons = 0;
      if (api.get_handle(i, &dev) != nvml::kSuccess || api.get_throttle(dev, &reasons) != nvml::kSuccess) continue;
      std::string why;
      for (const auto& [bit, name] : {std::pair{nvml::kReasonHwThermalSlowdown, "hw thermal slowdown"},
                                      std::pair{nvml::kReasonSwThermalSlowdown, "sw thermal slowdown"},
                                      std::pair{nvml::kReasonHwSlowdown, "hw slowdown"},
                                      std::pair{nvml::kReasonHwPowerBrakeSlowdown, "power brake"},
                                      std::pair{nvml::kReasonSwPowerCap, "sw power cap"}}) {
        if (reasons & bit) why += (why.empty() ? "" : ", ") + std::string(name);
      }
      if (why.empty()) continue;
      char name_buf[96] = "NVIDIA GPU";
      if (api.get_name) api.get_name(dev, name_buf, sizeof name_buf);
      out.push_back("nvml:gpu" + std::to_string(i) + " (" + name_buf + "): " + why);
    }
  }
  if (api.shutdown) api.shutdown();
  return out;
}

MeterOpen open_nvml(const std::string& library_arg) {
  auto loaded = load_nvml(library_arg);
  if (!loaded) return std::unexpected(loaded.error());
  NvmlApi api = *loaded;
  auto fail_after_init = [&](Unavailable u) {
    if (api.shutdown) api.shutdown();
    return std::unexpected(std::move(u));
  };
  unsigned count = 0;
  if (const nvmlReturn_t rc = api.get_count(&count); rc != nvml::kSuccess) {
    return fail_after_init({"NVML: nvmlDeviceGetCount failed: " + api.error(rc), ""});
  }
  if (count == 0) return fail_after_init({"NVML: no NVIDIA GPU", ""});

  std::vector<Gpu> gpus;
  std::vector<DomainInfo> domains;
  std::vector<std::string> notes;
  std::vector<std::string> lacking;
  for (unsigned i = 0; i < count; ++i) {
    Gpu g;
    g.index = i;
    if (const nvmlReturn_t rc = api.get_handle(i, &g.handle); rc != nvml::kSuccess) {
      lacking.push_back("GPU " + std::to_string(i) + ": " + api.error(rc));
      continue;
    }
    char name_buf[96] = "unknown GPU";
    if (api.get_name) api.get_name(g.handle, name_buf, sizeof name_buf);
    const std::string gpu = "GPU " + std::to_string(i) + " (" + name_buf + ")";
    if (api.get_energy && api.get_energy(g.handle, &g.first_mj) == nvml::kSuccess) {
      g.has_counter = true;
      g.prev_mj = g.first_mj;
    }
    std::string instant_err;
    if (api.get_fields && !std::isnan(read_instant_w(api, g.handle, instant_err))) g.has_instant = true;
    unsigned mw = 0;
    g.has_power_usage = api.get_power_usage && api.get_power_usage(g.handle, &mw) == nvml::kSuccess;
    if (!g.has_counter && !g.has_instant) {
      lacking.push_back(gpu +
                        ": neither the total-energy counter (Volta and newer) nor the instantaneous power field is "
                        "supported; nvmlDeviceGetPowerUsage, a ~1 s average, is not integrated");
      continue;
    }
    DomainInfo d;
    d.name = "nvml:gpu" + std::to_string(i);
    if (g.has_counter) {
      d.source = "NVML total-energy counter (mJ, updated about every 100 ms), " + gpu;
      d.source += g.has_instant ? "; instantaneous power sampled for checks and as the fallback" : "";
      d.update_interval_s = 0.1;
    } else {
      d.source = "NVML instantaneous power (NVML_FI_DEV_POWER_INSTANT) integrated, " + gpu +
                 "; the total-energy counter is not supported";
    }
    domains.push_back(std::move(d));
    gpus.push_back(std::move(g));
  }
  for (const auto& l : lacking) notes.push_back(l);
  if (gpus.empty()) {
    std::string reason = "NVML: no GPU with an energy source";
    for (const auto& l : lacking) reason += "; " + l;
    return fail_after_init({reason, ""});
  }
  return std::make_unique<NvmlMeter>(api, std::move(gpus), std::move(domains), std::move(notes));
}

}  // namespace rigbench::power
