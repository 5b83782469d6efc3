// rigbench: command-line spellings that CLI11 cannot take as they are, and the words of the
// messages about arguments it could not place.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/did_you_mean.h"
#include "core/status.h"
#include "store/record_sources.h"

namespace rigbench::cli {

// llama-bench (and llama.cpp) spell some flags with one dash and several letters (-ngl, -fa,
// -ctk, -pg, -nkvo, -dev, ...), which CLI11 would read as bundled single-letter flags ("-dev x"
// as "-d ev"). Each with the long name rigbench declares for it (-dev: --device, bench's ggml
// devices and fit's device to plan for). `only`: the long name is not a spelling of its own, just
// CLI11's handle (bench's --pg: llama-bench spells it -pg only).
struct LlamaSpelling {
  std::string alias;  // "-ngl"
  std::string name;   // "--n-gpu-layers"
  bool only = false;
};
const std::vector<LlamaSpelling>& llama_spellings();

// `args` (rigbench's argv, args[1] the subcommand `command`) with each one-dash spelling
// (llama_spellings) that the subcommand takes (its CLI11 names: `declared`, as declared_flags()
// lists them) rewritten to its long name (-ngl -> --n-gpu-layers, -pg=64,16 -> --pg=64,16);
// every other token kept. Errors: kUsage, unexpected_arguments_message's line naming what was
// typed, for a one-dash spelling the subcommand does not take ("fit: unknown flag '-nopo' (see
// rigbench fit --help)") and for an `only` long name typed as such ("bench: unknown flag '--pg'
// (did you mean '-pg'?) ...").
Result<std::vector<std::string>> expand_llama_bench_aliases(const std::vector<std::string>& args,
                                                            const std::string& command,
                                                            const std::vector<std::string>& declared);

// The flags `cmd` declares to CLI11 ("--n-prompt", "-p", "--pg").
std::vector<std::string> declared_flags(const CLI::App& cmd);

// The flags of `cmd` as they are typed: declared_flags() with each one-dash spelling of them
// ("-ngl", "-pg") and without the `only` long names ("--pg"): what "did you mean" offers.
std::vector<std::string> typed_flags(const CLI::App& cmd);

// --help names each option as it is typed: llama-bench's one-dash spelling first
// ("-ngl,--n-gpu-layers INT", "-pg TEXT"), and keeps within 120 columns: an option's or a
// subcommand's description wraps at spaces under its start (column 30), a longer line of a
// description or footer under itself. Set on the app before
// its subcommands are added (they copy it).
class LlamaSpellingFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
};

// llama-bench flags that `rigbench bench` does not take (yet): for the first one in `args`
// (after "rigbench bench"), a kUsage error that names it and says what to use instead, e.g.
// "bench: llama-bench's -dio/--direct-io is not taken here; use -lm dio". Other
// subcommands' arguments are not looked at.
Status check_unsupported_llama_bench_flags(const std::vector<std::string>& args);

// A check that an option's number lies in [min, max], said with the bounds as written (%g;
// CLI::Range says "0.000000 to 0.500000"): "'2' is out of range [1e-09, 0.5]", "'x' is not a
// number". Every subcommand's numbers are checked by this or int_range, in the one shape.
CLI::Validator range(double min, double max);

// The same for an integer option: "'1.5' is not an integer", "'0' is out of range [1, 1000000]".
CLI::Validator int_range(long lo, long hi);

// The list flags of `cmd` (an option with a delimiter, e.g. --concurrency 1,4,16) in `args`
// (as CLI11 reads them, `cmd`'s name among them): a value with an empty item ("1,,2", "1,",
// ",2"), which CLI11 would drop silently, is a kUsage error naming the flag and the value:
// "serve-bench: --concurrency '1,,2': an empty item in the list (values separated by single commas, e.g. 1,4)".
Status check_list_values(const CLI::App& cmd, const std::vector<std::string>& args);

// A number, any (the command checks its bounds itself, e.g. cost's "> 0"): "'abc' is not a
// number", in the shape of range's.
CLI::Validator number();

// `--currency CODE` (cost, report): 1 to 8 letters. Errors: kUsage naming the value.
Status check_currency(const std::string& currency);

// The readers' selection flags (compare, report, export): --model, --machine, --tag, each
// repeatable, a case-insensitive substring (store::select_records).
void add_record_filter_flags(CLI::App& cmd, store::RecordFilter& filter);

// The nearest names for "did you mean" (core/did_you_mean.h), as cli/ has always named them.
using rigbench::closest_match;
using rigbench::edit_distance;

// The message (without "rigbench: error: ") for the arguments that `command` (e.g. "fit";
// "" for rigbench itself) did not expect, `extras` in the order given: the unknown flags
// first (a "did you mean" from `known_flags` where one is close to the first), then the
// other arguments not expected, each group in the order given, then where to look, e.g.
// "fit: unknown flag '--num-ctx'; not expected either: '4096' (see rigbench fit --help)".
std::string unexpected_arguments_message(const std::string& command, const std::vector<std::string>& extras,
                                         const std::vector<std::string>& known_flags);

}  // namespace rigbench::cli
