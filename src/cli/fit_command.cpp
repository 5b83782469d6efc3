#include "cli/fit_command.h"

#include <iostream>

#include "cli/args.h"
#include "cli/build_info.h"
#include "core/knobs.h"
#include "core/strings.h"
#include "engine/llama_engine.h"
#include "measure/speed_accuracy_job.h"
#include "report/fit_printer.h"
#include "report/speed_accuracy_printer.h"
#include "report/fit_ranking_printer.h"

namespace rigbench::cli {

CLI::App* add_fit_command(CLI::App& app, FitOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "fit", "Will a model fit a device, at what context, and how fast could tg be (from GGUF metadata only)");
  cmd->add_option("model", o.model, "GGUF model file (a header-only file works)");
  cmd->add_option("--preset", o.preset, "a preset instead of a file (see `rigbench presets`)");
  cmd->add_option("--quant", o.quant, "file type with --preset")->capture_default_str();
  cmd->add_option("-c,--ctx-size", o.ctx_size,
                  "context size (n_ctx); 0 = n_ctx_train, cut to the usable memory as llama.cpp's --fit cuts it")
      ->check(int_range(0, 1 << 24))
      ->capture_default_str();
  cmd->add_option("--n-gpu-layers", o.n_gpu_layers, "layers offloaded: N, auto (the most that fit) or -1 (all)")
      ->capture_default_str();
  for (const Knob& k : knobs()) {
    if (!k.fit_shared) continue;
    const std::string help = k.help + (k.choices.empty() ? "" : " (" + join(k.choices, "|") + ")");
    CLI::Option* opt = cmd->add_option(k.flags, o.knobs[k.key], help)->default_str(knob_default(k));
    if (k.type == Knob::Type::kText && k.choices.empty()) opt->join(';');  // -ot a=CPU -ot b=CPU, as llama-server
  }
  cmd->add_option("--mmproj", o.mmproj,
                  "a vision projector (clip GGUF) loaded beside the model: its weights and compute count too");
  cmd->add_option("--parallel", o.n_parallel,
                  "sequences (llama-server's slots): N, or auto as llama-server without -np (4 slots sharing one KV "
                  "cache, as -kvu)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string { return s == "auto" ? std::string() : int_range(1, 256)(s); },
          "auto|INT in [1, 256]"))
      ->capture_default_str();
  cmd->add_flag("--kv-unified", o.kv_unified,
                "one KV cache shared by the sequences (llama-server's -kvu): each slot may fill all of n_ctx; "
                "without it each of -np N slots gets n_ctx/N (default: on with -np auto, else off)");
  cmd->add_flag("--no-kv-unified", o.no_kv_unified, "one KV cache per sequence, also with -np auto (-no-kvu)");
  cmd->add_flag("--swa-full", o.swa_full,
                "sliding-window layers keep the whole context, not the window (llama-server's --swa-full)");
  cmd->add_option("--fit-target", o.fit_target_mib,
                  "MiB kept free on each device, as llama.cpp's --fit-target (-fitt)")
      ->check(int_range(0, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--device", o.device,
                  "auto (this machine: its GPUs, as llama.cpp takes them), none (its CPU alone), this machine's ggml "
                  "devices (Vulkan0, CUDA0/CUDA1: `rigbench hw`), all (every catalog device) or a catalog name")
      ->capture_default_str();
  cmd->add_option("--count", o.count, "that many of the --device (several GPUs; layers split as -ts says)")
      ->check(int_range(1, 16))
      ->capture_default_str();
  cmd->add_option("--tensor-split", o.tensor_split,
                  "share of the offloaded layers per device, e.g. 3,1 or 3/1 (default: equal)");
  cmd->add_option("-d,--n-depth", o.n_depth,
                  "tokens in the KV cache (n_depth): KV cells read per generated token in the tg bound")
      ->check(int_range(0, 1 << 24))
      ->capture_default_str();
  cmd->add_option("--host-ram", o.host_ram_gib,
                  "GiB of host RAM beside a catalog GPU (default: the entry's stated host)")
      ->check(range(0.0, 1e6));
  cmd->add_option(
         "--host-bandwidth", o.host_bandwidth_gbps,
         "GB/s of the host RAM beside a GPU, for the tg bound of a partial offload (default: the catalog entry's "
         "stated host; this machine's measured figure for --device auto)")
      ->check(range(0.001, 1e6));
  cmd->add_option("-o,--output", o.output, "md, csv, json or jsonl (one object per device)")->capture_default_str();
  cmd->add_flag(
      "--wide", o.wide,
      "md: every column (backend, ngl, weights, compute, output, overhead, memory, host RAM, margin, USD/GiB)");
  cmd->add_option("--rank", o.rank,
                  "what to buy: every catalog device (or the fewest GPUs of a kind, up to 8) that fits at -c, "
                  "ranked by price, tps (tg bound) or usable-price (USD per usable GiB); implies --device all");
  cmd->add_option("--min-tps", o.min_tps,
                  "with --rank: only options whose tg bound reaches T t/s (implies --rank price)")
      ->check(range(0.0, 1e9));
  cmd->add_option(
      "--vs", o.vs,
      "A,B: two catalog devices side by side: memory, price per GiB and per usable GiB (implies --rank price)");
  cmd->add_flag("--predict-accuracy", o.predict_accuracy,
                "print how wrong the predicted tg and pp are: each point of the shipped published results "
                "(data/published_llama_bench.jsonl) predicted with its device left out (no model needed)");
  cmd->add_flag("--check", o.check,
                "also load the model in llama.cpp with no_alloc (simulated allocation, no weights read) "
                "and print its memory breakdown beside the estimate (this machine's backend; "
                "with -o csv/json/jsonl, the comparison alone)");
  cmd->add_option("--rpc", o.rpc,
                  "HOST:PORT[,HOST:PORT...]: also plan over these rpc-servers (llama.cpp's ggml-rpc-server), each "
                  "asked for its device memory; layers as llama.cpp splits them; needs -c");
  cmd->add_option("--rpc-device", o.rpc_device,
                  "NAME[,NAME...]: catalog devices on other machines running ggml-rpc-server, beside --device NAME "
                  "(the machine that runs the model); needs -c");
  cmd->add_option("--link-gbps", o.link_gbps, "the network between the machines, Gb/s (default: 1, gigabit Ethernet)")
      ->check(range(0.001, 1e6));
  cmd->add_option("--link-rtt-ms", o.link_rtt_ms,
                  "its round trip, ms (default: measured with --rpc; 0.5 with --rpc-device)")
      ->check(range(0.0, 1e5));
  cmd->add_option("--rpc-timeout", o.rpc_timeout_s, "seconds each wait on an rpc-server may take")
      ->check(range(0.1, 600.0))
      ->capture_default_str();
  cmd->add_option("--db", o.db_path,
                  "database whose runs of this machine predict its speed (read only; default: "
                  "$XDG_DATA_HOME/rigbench/results.db)");
  cmd->footer(R"(Verdicts: fits, partial (some layers on the device, the rest in host RAM), does not fit.
Exit codes: 0 the question was answered, whatever the verdict ("does not fit" included); 1 a bad model file or a runtime failure; 2 a bad flag or value.
Examples:
  rigbench fit model.gguf
  rigbench fit --preset Llama-3.1-70B --device all -c 8192
  rigbench fit --preset Llama-3.1-70B -c 8192 --rank price --min-tps 10
  rigbench fit --preset Llama-3.1-70B -c 8192 --vs 'M3 Ultra 512GB,RTX 5090'
  rigbench fit --predict-accuracy                  # the predicted speeds checked on published results
  rigbench fit --preset Llama-3.1-70B --quant Q3_K_S --device 'RTX 2080 Ti' --host-bandwidth 60
  rigbench fit --preset Qwen2.5-7B -c 8192 -d 4096 -np 2 -o json
  rigbench fit moe.gguf --device "RTX 4090" --n-cpu-moe 20
  rigbench fit gemma3.gguf --mmproj mmproj.gguf -c 8192
  rigbench fit model.gguf -c 4096 --rpc 192.168.1.7:50052,192.168.1.8:50052
  rigbench fit --preset Llama-3.1-70B -c 8192 --device 'RTX 3090' --rpc-device 'DDR4-3200 dual channel (64 GB)'
)");
  return cmd;
}

Status run_fit_command(const FitOptions& o) {
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  if (o.predict_accuracy) {
    auto a = measure::speed_accuracy();
    if (!a) return std::unexpected(a.error());
    report::print_speed_accuracy(*a, *format, std::cout);
    return {};
  }
  engine::init_llama_log();  // ggml's log captured; the backends start only for --check (engine::simulate_memory)
  auto answer = measure::answer_fit(o, machine_info);
  if (!answer) return std::unexpected(answer.error());
  if (answer->ranking) {
    report::print_fit_ranking(*answer->ranking, *format, std::cout, report::RenderOptions{o.wide});
    return {};
  }
  // --check: with -o csv/json/jsonl the comparison alone; in md after the plans.
  if (!o.check || *format == report::OutputFormat::kMarkdown)
    report::print_fit(answer->report, *format, std::cout, report::RenderOptions{o.wide});
  if (!o.check) return {};
  if (!answer->check_error) return answer->check_error;
  if (answer->rpc_check) report::print_fit_rpc_check(*answer->rpc_check, *format, std::cout);
  if (answer->check) report::print_fit_check(*answer->check, *format, std::cout);
  return {};
}

}  // namespace rigbench::cli
