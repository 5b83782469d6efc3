#include "measure/warnings.h"

#include <algorithm>

#include "core/rpc_endpoints.h"
#include "core/strings.h"
#include "hw/describe.h"

namespace rigbench::measure {

std::optional<Warning> context_warning(int n_ctx, uint32_t n_ctx_train, const std::string& model,
                                       ContextSource source) {
  if (n_ctx_train == 0 || n_ctx <= static_cast<int>(n_ctx_train)) return std::nullopt;
  const bool asked = source == ContextSource::kAsked || source == ContextSource::kAskedAndTest;
  const char* from = asked                            ? " (-c)"
                     : source == ContextSource::kTest ? " (depth + prompt + generation)"
                                                      : " (the suite's longest prompt + its generation)";
  const char* remedy = source == ContextSource::kAsked          ? "lower -c"
                       : source == ContextSource::kAskedAndTest ? "lower -c, and -d, -p or -n (the test alone "
                                                                  "needs more than that too)"
                       : source == ContextSource::kTest         ? "lower -d, -p or -n"
                                                                : "use prompts that fit (--prompts FILE) or a model "
                                                                  "trained for a longer context";
  return Warning{"n_ctx " + std::to_string(n_ctx) + from + " exceeds the " + std::to_string(n_ctx_train) +
                     " tokens model '" + model + "' was trained for",
                 remedy};
}

std::vector<Warning> plan_warnings(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                                   const MachineInfo& machine, const std::string& build_type) {
  std::vector<Warning> out;
  auto add = [&](Warning w) {
    const bool seen = std::any_of(out.begin(), out.end(), [&](const Warning& x) { return x.cause == w.cause; });
    if (!seen) out.push_back(std::move(w));
  };
  if (build_type != "Release" && build_type != "RelWithDebInfo") {
    add({"this is a " + build_type + " build: its figures are not comparable with a Release build",
         "build with scripts/setup (Release)"});
  }
  for (const auto& tc : plan) {
    const ModelInfo& m = models.at(tc.model_path);
    if (machine.threads > 0 && tc.params.n_threads > machine.threads) {
      add({"-t " + std::to_string(tc.params.n_threads) + " exceeds the " + std::to_string(machine.threads) +
               " logical CPUs: threads contend and tg collapses",
           "use -t " + std::to_string(machine.cores) + " (the physical cores) or fewer"});
    }
    const BenchParams& p = tc.params;
    const int need = p.n_depth + p.n_prompt + p.n_gen;
    const ContextSource source = p.n_ctx <= need ? ContextSource::kTest
                                 : m.n_ctx_train > 0 && need > static_cast<int>(m.n_ctx_train)
                                     ? ContextSource::kAskedAndTest
                                     : ContextSource::kAsked;
    if (auto w = context_warning(p.n_ctx, m.n_ctx_train, m.name, source)) add(std::move(*w));
    if (m.synthetic) {
      // One line within 120 columns after "rigbench: warning: " for a short name.
      add({"model '" + m.name + "' is synthetic: the real model's speed and memory, random outputs", ""});
    }
  }
  return out;
}

std::optional<Warning> offload_note(const PlanSpec& spec, const MachineInfo& machine) {
  const auto it = spec.knobs.find("n_gpu_layers");
  if (it == spec.knobs.end()) return std::nullopt;
  const auto asked = std::find_if(it->second.begin(), it->second.end(), [](const std::string& v) { return v != "0"; });
  if (asked == it->second.end()) return std::nullopt;
  if (std::any_of(machine.gpus.begin(), machine.gpus.end(), hw::offloadable)) return std::nullopt;
  // With --rpc the layers go to the rpc-servers' devices: every run of the plan names servers.
  if (const auto rpc = spec.knobs.find("rpc"); rpc != spec.knobs.end() && !rpc->second.empty() &&
      std::all_of(rpc->second.begin(), rpc->second.end(), names_rpc_servers))
    return std::nullopt;
  const std::string backends = machine.backends.empty() ? std::string("CPU") : join(machine.backends, ", ");
  Warning w;
  w.cause = "-ngl " + *asked + ": this build's ggml backends (" + backends +
            ") list no device but the CPU, so every layer stays on the CPU (the record says backend CPU)";
  const auto idle = hw::backends_without_devices(machine);
  w.remedy = idle.empty()
                 ? "build a GPU backend with RIGBENCH_BACKENDS=vulkan|cuda|metal scripts/setup (docs/usage.md, GPU backends)"
                 : hw::no_device_note(idle.front());
  return w;
}

}  // namespace rigbench::measure
