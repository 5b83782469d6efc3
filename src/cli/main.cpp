// rigbench: entry point. Reads like a table of contents: declare the subcommands, parse,
// run the one chosen, print the final error line, return the exit code.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/bench_command.h"
#include "cli/build_info.h"
#include "cli/compare_command.h"
#include "cli/cost_command.h"
#include "cli/embed_command.h"
#include "cli/export_command.h"
#include "cli/fit_command.h"
#include "cli/hw_command.h"
#include "cli/import_command.h"
#include "cli/interrupt.h"
#include "cli/report_command.h"
#include "cli/serve_bench_command.h"
#include "cli/synth_command.h"
#include "cli/tune_command.h"
#include "core/short_commit.h"

namespace {

// The exit code of a subcommand's `status`, after its error line (the one place that prints it).
int exit_status(const rigbench::Status& status) {
  if (status) return 0;
  const bool interrupted = status.error().code == rigbench::ErrorCode::kInterrupted;
  std::fprintf(stderr, "rigbench: %s%s\n", interrupted ? "" : "error: ", status.error().message.c_str());
  // Interrupted: 128 + the signal, as a shell reports it (130 for Ctrl-C, 143 for SIGTERM).
  if (interrupted && rigbench::cli::interrupt_signal() != 0) return 128 + rigbench::cli::interrupt_signal();
  return rigbench::exit_code(status.error().code);
}

// A usage error: one line on stderr, exit code 2.
int usage_error(const std::string& message) {
  std::fprintf(stderr, "rigbench: error: %s\n", message.c_str());
  return 2;
}

// The words before the subcommand, which CLI11 does not know: bare `rigbench` and
// `rigbench help` become `rigbench --help`, `rigbench help SUBCOMMAND` becomes
// `rigbench SUBCOMMAND --help`. Returns the message for an unknown subcommand (with the
// nearest name) or a flag before the subcommand; "" when `args` is ready for CLI11.
std::string route_entry(std::vector<std::string>& args, const std::vector<std::string>& subcommands) {
  const auto known = [&](const std::string& name) {
    return std::find(subcommands.begin(), subcommands.end(), name) != subcommands.end();
  };
  const auto unknown = [&](const std::string& name) {
    const std::string near = rigbench::cli::closest_match(name, subcommands);
    if (!near.empty()) return "unknown subcommand '" + name + "'; did you mean '" + near + "'?";
    std::string all;
    for (const auto& s : subcommands) all += (all.empty() ? "" : ", ") + s;
    return "unknown subcommand '" + name + "'; the subcommands are " + all + " (see rigbench --help)";
  };
  if (args.size() == 1) {
    args.push_back("--help");
    return "";
  }
  const std::string first = args[1];
  if (first == "help") {
    if (args.size() == 2 || args[2] == "help" || args[2].rfind("-", 0) == 0) {
      args = {args[0], "--help"};
    } else if (known(args[2])) {
      args = {args[0], args[2], "--help"};
    } else {
      return "help: " + unknown(args[2]);
    }
    return "";
  }
  if (first == "-h" || first == "--help" || first == "--version") return "";
  if (first.size() > 1 && first[0] == '-') {
    return "unknown flag '" + first.substr(0, first.find('=')) +
           "' before the subcommand; flags follow it: rigbench SUBCOMMAND [FLAGS] (see rigbench --help)";
  }
  if (!known(first)) return unknown(first);
  return "";
}

// A subcommand: its options, declared on the app, and how it runs once parsed.
struct Command {
  CLI::App* app;
  std::function<rigbench::Status()> run;
};

// Declares the subcommand whose options `add` declares and `run` runs; the options are owned
// by the command's run function, so they live as long as `commands`.
template <class Options, class Add, class Run>
void declare(CLI::App& app, std::vector<Command>& commands, Add add, Run run) {
  auto options = std::make_shared<Options>();
  CLI::App* sub = add(app, *options);
  commands.push_back({sub, [options, run] { return run(*options); }});
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rigbench;
  CLI::App app{"rigbench: will it fit, how fast, what does it cost - measured the same way on every machine",
               "rigbench"};
  app.set_version_flag("--version", std::string(RIGBENCH_VERSION) + " (llama.cpp " +
                                        short_commit(cli::build_info().llama_cpp_commit) + ")");
  app.require_subcommand(1);
  app.formatter(std::make_shared<cli::LlamaSpellingFormatter>());  // before the subcommands: they copy it

  // Each subcommand: its options, declared on `app`, and how it runs once parsed.
  std::vector<Command> commands;
  declare<cli::BenchOptions>(app, commands, cli::add_bench_command, cli::run_bench_command);
  declare<cli::EmbedOptions>(app, commands, cli::add_embed_command, cli::run_embed_command);
  declare<cli::ServeBenchOptions>(app, commands, cli::add_serve_bench_command, cli::run_serve_bench_command);
  declare<cli::TuneOptions>(app, commands, cli::add_tune_command, cli::run_tune_command);
  declare<cli::SynthOptions>(app, commands, cli::add_synth_command, cli::run_synth_command);
  declare<cli::PresetsOptions>(app, commands, cli::add_presets_command, cli::run_presets_command);
  declare<cli::FitOptions>(app, commands, cli::add_fit_command, cli::run_fit_command);
  declare<cli::HwOptions>(app, commands, cli::add_hw_command, cli::run_hw_command);
  declare<cli::DevicesOptions>(app, commands, cli::add_devices_command, cli::run_devices_command);
  declare<cli::CostOptions>(app, commands, cli::add_cost_command, cli::run_cost_command);
  declare<cli::ImportOptions>(app, commands, cli::add_import_command, cli::run_import_command);
  declare<cli::ExportOptions>(app, commands, cli::add_export_command, cli::run_export_command);
  declare<cli::CompareOptions>(app, commands, cli::add_compare_command, cli::run_compare_command);
  declare<cli::ReportOptions>(app, commands, cli::add_report_command, cli::run_report_command);

  // After the subcommands, so that theirs do not inherit it.
  app.footer(R"(Run `rigbench help SUBCOMMAND` (or `rigbench SUBCOMMAND --help`) for its flags.
Exit codes: 0 success, 1 runtime failure or bad input file, 2 bad flag or value, 130/143 interrupted.)");

  const std::vector<std::string> raw(argv, argv + argc);
  if (Status s = cli::check_unsupported_llama_bench_flags(raw); !s) return exit_status(s);
  std::vector<std::string> args = raw;
  std::vector<std::string> names;
  for (const Command& c : commands) names.push_back(c.app->get_name());
  if (const std::string problem = route_entry(args, names); !problem.empty()) return usage_error(problem);
  // llama-bench's one-dash spellings the chosen subcommand takes, as CLI11 reads them.
  for (const Command& c : commands) {
    if (args.size() < 2 || c.app->get_name() != args[1]) continue;
    auto expanded = cli::expand_llama_bench_aliases(args, args[1], cli::declared_flags(*c.app));
    if (!expanded) return usage_error(expanded.error().message);
    args = std::move(*expanded);
    // A list with an empty item ("1,,2"): CLI11 would drop it without a word.
    if (Status s = cli::check_list_values(*c.app, args); !s) return usage_error(s.error().message);
  }
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
  } catch (const CLI::ExtrasError& e) {
    // CLI11 lists the arguments backwards; name them from the command that was left with
    // them, in the order given.
    for (const Command& c : commands) {
      if (c.app->parsed() && !c.app->remaining().empty()) {
        return usage_error(
            cli::unexpected_arguments_message(c.app->get_name(), c.app->remaining(), cli::typed_flags(*c.app)));
      }
    }
    if (!app.remaining().empty())
      return usage_error(cli::unexpected_arguments_message("", app.remaining(), cli::typed_flags(app)));
    return usage_error(std::string(e.what()) + " (see --help)");
  } catch (const CLI::ParseError& e) {
    std::string help = "--help";
    for (const Command& c : commands) {
      if (c.app->parsed()) help = c.app->get_name() + " --help";
    }
    return usage_error(std::string(e.what()) + " (see rigbench " + help + ")");
  }

  for (const Command& c : commands) {
    if (c.app->parsed()) return exit_status(c.run());
  }
  return 2;
}
