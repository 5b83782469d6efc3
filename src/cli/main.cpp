// rigbench: entry point. Reads like a table of contents: declare the subcommands, parse,
// run the one chosen, print the final error line, return the exit code.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/bench_command.h"
#include "cli/build_info.h"
#include "cli/compare_command.h"
#include "cli/cost_command.h"
#include "cli/export_command.h"
#include "cli/fit_command.h"
#include "cli/import_command.h"
#include "cli/interrupt.h"
#include "cli/report_command.h"
#include "cli/synth_command.h"

namespace {

int report(const rigbench::Status& status) {
  if (status) return 0;
  const bool interrupted = status.error().code == rigbench::ErrorCode::kInterrupted;
  std::fprintf(stderr, "rigbench: %s%s\n", interrupted ? "" : "error: ", status.error().message.c_str());
  // Interrupted: 128 + the signal, as a shell reports it (130 for Ctrl-C, 143 for SIGTERM).
  if (interrupted && rigbench::cli::interrupt_signal() != 0) return 128 + rigbench::cli::interrupt_signal();
  return rigbench::exit_code(status.error().code);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rigbench;
  CLI::App app{"rigbench: will it fit, how fast, what does it cost - measured the same way on every machine"};
  app.set_version_flag("--version", std::string(RIGBENCH_VERSION) + " (llama.cpp " + cli::build_info().llama_cpp_commit + ")");
  app.require_subcommand(1);

  cli::BenchOptions bench_opts;
  CLI::App* bench = cli::add_bench_command(app, bench_opts);
  cli::SynthOptions synth_opts;
  CLI::App* synth = cli::add_synth_command(app, synth_opts);
  cli::PresetsOptions presets_opts;
  CLI::App* presets = cli::add_presets_command(app, presets_opts);
  cli::FitOptions fit_opts;
  CLI::App* fit = cli::add_fit_command(app, fit_opts);
  cli::HwOptions hw_opts;
  CLI::App* hw = cli::add_hw_command(app, hw_opts);
  cli::DevicesOptions devices_opts;
  CLI::App* devices = cli::add_devices_command(app, devices_opts);
  cli::CostOptions cost_opts;
  CLI::App* cost = cli::add_cost_command(app, cost_opts);
  cli::ImportOptions import_opts;
  CLI::App* import_cmd = cli::add_import_command(app, import_opts);
  cli::ExportOptions export_opts;
  CLI::App* export_cmd = cli::add_export_command(app, export_opts);
  cli::CompareOptions compare_opts;
  CLI::App* compare = cli::add_compare_command(app, compare_opts);
  cli::ReportOptions report_opts;
  CLI::App* report_cmd = cli::add_report_command(app, report_opts);

  const std::vector<std::string> args = cli::expand_llama_bench_aliases(std::vector<std::string>(argv, argv + argc));
  std::vector<char*> cargs;
  for (const auto& a : args) cargs.push_back(const_cast<char*>(a.c_str()));
  try {
    app.parse(static_cast<int>(cargs.size()), cargs.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "rigbench: error: %s (see --help)\n", e.what());
    return 2;
  }

  if (bench->parsed()) return report(cli::run_bench_command(bench_opts));
  if (synth->parsed()) return report(cli::run_synth_command(synth_opts));
  if (presets->parsed()) return report(cli::run_presets_command(presets_opts));
  if (fit->parsed()) return report(cli::run_fit_command(fit_opts));
  if (hw->parsed()) return report(cli::run_hw_command(hw_opts));
  if (devices->parsed()) return report(cli::run_devices_command(devices_opts));
  if (cost->parsed()) return report(cli::run_cost_command(cost_opts));
  if (import_cmd->parsed()) return report(cli::run_import_command(import_opts));
  if (export_cmd->parsed()) return report(cli::run_export_command(export_opts));
  if (compare->parsed()) return report(cli::run_compare_command(compare_opts));
  if (report_cmd->parsed()) return report(cli::run_report_command(report_opts));
  return 2;
}
