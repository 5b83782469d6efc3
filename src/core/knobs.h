// rigbench: the run knobs, declared once. A knob is one setting of a benchmark run that the
// user chooses (-t, -ngl, -fa, ...), a field of BenchParams. Its entry here gives everything
// the rest of rigbench needs: the flag and its llama-bench spelling, the help, the type and
// the values it accepts, the JSON key / CSV column / SQL column (all `key`), the table
// header, whether changing it reloads the model, whether compare keeps runs apart by it, and
// the field llama-bench writes it under. The CLI (cli/bench_options), the plan (bench/plan),
// the record codec (store/record_json), the store (store/sqlite_store), the llama-bench
// import (store/llama_bench_record), the printers (report/columns) and compare's key
// (report/comparison) iterate this table; a new knob is a BenchParams field, one entry in
// knobs.cpp and the engine code that applies it (engine/llama_placement for where llama.cpp
// puts weights, KV cache and ops).
//
// Defaults are read from BenchParams{} (as llama.cpp's common/arg.cpp reads them from its
// params struct), so they cannot drift.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench {

struct Knob {
  enum class Type { kInt, kText };

  std::string key;          // BenchParams field name; JSON key under "params"; CSV and SQL column
  std::string flags;        // CLI11 names, e.g. "-b,--batch-size"; "" = recorded, not set: bench takes no flag
                            // and runs at the default (llama-bench's n_cpu_moe, split_mode, ...), an
                            // import keeps the row's value
  std::string llama_alias;  // llama-bench's one-dash spelling that CLI11 cannot take ("-ub"); "" if none
  std::string header;       // markdown column header, e.g. "n_ubatch"
  std::string help;         // one line for --help
  Type type = Type::kInt;
  int BenchParams::*int_field = nullptr;           // kInt
  std::string BenchParams::*text_field = nullptr;  // kText
  long min = 0, max = 0;                           // kInt: accepted range, inclusive
  // kText: the canonical values; a value is lower-cased and trimmed, then mapped through
  // `synonyms` ("1" -> "on"), then must be one of these.
  std::vector<std::string> choices;
  std::vector<std::pair<std::string, std::string>> synonyms;
  bool reloads_model = false;   // a change reloads the model (n_gpu_layers, load_mode)
  bool always_shown = false;    // the markdown table shows it even at its default (threads)
  bool compare_key = true;      // compare and regressions keep runs that differ in it apart
  // `rigbench fit` declares the same flag from this entry (one value): -fa, -ctk, -ctv, -b, -ub,
  // -nkvo, -ot, -cmoe, -ncmoe, -sm, -mg. (fit's -ngl also takes auto and its -c 0 means
  // n_ctx_train, so those two are declared by fit itself.)
  bool fit_shared = false;
  std::string llama_bench_key;  // field of llama-bench's output rows; "" = llama-bench has none
  // kText with free values: checks one value and returns its canonical text (errors: kUsage
  // naming the flag); null = trimmed text as given.
  Result<std::string> (*check)(const std::string& value) = nullptr;
  bool quiet_default = false;  // compare's label names it only away from its default (as a knob without a flag)
  bool generation_only = false;  // the context and its KV cache (n_depth, n_ctx, type_k, type_v): an embedding run
                                 // has neither (embed refuses the flags; knob_applies)
  bool whole_value = false;  // a value may hold commas (--rpc A:1,B:2): one value per flag occurrence, not a list
  // The value a flag given alone means, for knobs llama-server spells as flags (-nkvo, -cmoe,
  // -nopo: "1"); "" = the flag needs a value. `-nkvo 0,1` (llama-bench's spelling) still takes
  // one: the command line is rewritten before parsing (cli/args.h expand_llama_bench_aliases).
  std::string bare_value;
};

// Every knob, in the plan's nesting order (outermost first).
const std::vector<Knob>& knobs();

// Whether a field that a source recorded and no knob declares (RunRecord::source_fields:
// llama-bench fields of versions other than v0.4.0) is a knob, and so part of compare's key.
// Every such field is, but those llama-bench writes about the build, machine, model and
// results (build_number, avg_ns, stddev_ns, samples_ts, gpu_blas, ...): a setting that
// rigbench does not know yet keeps runs apart rather than pooling them.
bool is_source_knob(const std::string& field);

// Whether `k` is a setting of `rec`'s run: a served run (serve-bench) sets no knob (the
// server's own settings are not known to rigbench), an embedding run none that is
// generation_only. A knob that does not apply is neither shown nor compared (its stored value
// is only the default, e.g. n_ctx 0), never "n_ctx 0".
bool knob_applies(const Knob& k, const RunRecord& rec);

// The knob whose key is `key`, or nullptr.
const Knob* find_knob(const std::string& key);

// The knob's value in `p` as text: decimal for kInt, the canonical value for kText.
std::string knob_text(const Knob& k, const BenchParams& p);

// The knob's value in BenchParams{} (its default), as text.
std::string knob_default(const Knob& k);

// The flag names for messages: "-b/--batch-size", or "-ub/--ubatch-size" with the alias.
std::string knob_flag_name(const Knob& k);

// Checks and normalizes `value` for `k` (integer in range; text lower-cased, synonyms mapped,
// one of the choices) and returns the canonical text.
// Errors: kUsage naming the flag, the value and what is accepted.
Result<std::string> normalize_knob(const Knob& k, const std::string& value);

// Sets the knob in `p` from `value` (normalized as normalize_knob). Errors as normalize_knob.
Status set_knob(const Knob& k, BenchParams& p, const std::string& value);

// True when every knob marked reloads_model has the same value in `a` and `b`.
bool same_model_load(const BenchParams& a, const BenchParams& b);

// -ts as shares per device, in device order: separated by '/' (llama-bench: "3/1") or ','
// (llama.cpp's --tensor-split: "3,1"), each a number >= 0. The one parse of -ts (bench's knob
// check, fit, the engine's placement). Errors: kUsage naming the value.
Result<std::vector<double>> parse_tensor_split(const std::string& ts);

// The shares to apply: parse_tensor_split's, empty for "" or "0.00" (by free memory,
// llama.cpp's default), where every share is 0, or for a value that does not parse (values from
// the flag were checked when given).
std::vector<double> tensor_split_shares(const std::string& ts);

// KV cache types llama.cpp accepts for -ctk/-ctv (common/arg.cpp's kv_cache_types).
const std::vector<std::string>& kv_cache_type_names();

// True for a quantized KV cache type (anything but f16, f32, bf16): a quantized V cache needs
// flash attention in llama.cpp.
bool quantized_kv_type(const std::string& type);

// llama.cpp's load mode names, in llama.h's enum order (checked against llama_load_mode_name
// by the engine's test).
const std::vector<std::string>& load_mode_names();

}  // namespace rigbench
