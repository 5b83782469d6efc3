// rigbench: entry point. Reads like a table of contents: declare the subcommands, parse,
// run the one chosen, print the final error line, return the exit code.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
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

  // Each subcommand: its options, declared on `app`, and how it runs once parsed.
  struct Command {
    CLI::App* app;
    std::function<Status()> run;
  };
  std::vector<Command> commands;
  cli::BenchOptions bench_opts;
  commands.push_back({cli::add_bench_command(app, bench_opts), [&] { return cli::run_bench_command(bench_opts); }});
  cli::SynthOptions synth_opts;
  commands.push_back({cli::add_synth_command(app, synth_opts), [&] { return cli::run_synth_command(synth_opts); }});
  cli::PresetsOptions presets_opts;
  commands.push_back({cli::add_presets_command(app, presets_opts), [&] { return cli::run_presets_command(presets_opts); }});
  cli::FitOptions fit_opts;
  commands.push_back({cli::add_fit_command(app, fit_opts), [&] { return cli::run_fit_command(fit_opts); }});
  cli::HwOptions hw_opts;
  commands.push_back({cli::add_hw_command(app, hw_opts), [&] { return cli::run_hw_command(hw_opts); }});
  cli::DevicesOptions devices_opts;
  commands.push_back({cli::add_devices_command(app, devices_opts), [&] { return cli::run_devices_command(devices_opts); }});
  cli::CostOptions cost_opts;
  commands.push_back({cli::add_cost_command(app, cost_opts), [&] { return cli::run_cost_command(cost_opts); }});
  cli::ImportOptions import_opts;
  commands.push_back({cli::add_import_command(app, import_opts), [&] { return cli::run_import_command(import_opts); }});
  cli::ExportOptions export_opts;
  commands.push_back({cli::add_export_command(app, export_opts), [&] { return cli::run_export_command(export_opts); }});
  cli::CompareOptions compare_opts;
  commands.push_back({cli::add_compare_command(app, compare_opts), [&] { return cli::run_compare_command(compare_opts); }});
  cli::ReportOptions report_opts;
  commands.push_back({cli::add_report_command(app, report_opts), [&] { return cli::run_report_command(report_opts); }});

  const std::vector<std::string> raw(argv, argv + argc);
  if (Status s = cli::check_unsupported_llama_bench_flags(raw); !s) return report(s);
  const std::vector<std::string> args = cli::expand_llama_bench_aliases(raw);
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

  for (const Command& c : commands) {
    if (c.app->parsed()) return report(c.run());
  }
  return 2;
}
