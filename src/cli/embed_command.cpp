#include "cli/embed_command.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cli/interrupt.h"
#include "cli/progress_flags.h"
#include "cli/record_flags.h"
#include "core/knobs.h"
#include "core/strings.h"
#include "engine/llama_embed.h"
#include "engine/llama_engine.h"
#include "hw/machine.h"
#include "measure/embed_job.h"
#include "report/embed_table.h"
#include "report/printer.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

namespace {

// The generation flags `embed` refuses, with bench's spellings.
struct RefusedFlag {
  std::string names;  // CLI11 names
  std::string shown;  // for the message
};
const std::vector<RefusedFlag>& refused_flags() {
  static const std::vector<RefusedFlag> kFlags = [] {
    std::vector<RefusedFlag> out = {{"-p,--n-prompt", "-p/--n-prompt"}, {"-n,--n-gen", "-n/--n-gen"}, {"--pg", "-pg"}};
    for (const Knob& k : knobs()) {
      if (k.generation_only) out.push_back({k.flags, knob_flag_name(k)});
    }
    return out;
  }();
  return kFlags;
}

}  // namespace

CLI::App* add_embed_command(CLI::App& app, EmbedOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "embed", "Measure an embedding model: latency per query at batch 1 (p50/p95/p99) and throughput per batch size");
  cmd->add_option("models", o.models,
                  "GGUF embedding models (an encoder such as BERT, or any model whose GGUF "
                  "declares a pooling type)")
      ->required();
  cmd->add_option("--queries", o.queries,
                  "query set: one query per line, or JSONL with a \"text\" string per line (default: the built-in "
                  "set of short search queries, data/queries/embed.txt)");
  cmd->add_option("-b,--batch-size", o.batch_sizes, "texts per llama.cpp call in the throughput sweep, list")
      ->delimiter(',')
      ->check(int_range(1, 256))
      ->capture_default_str();
  cmd->add_option("-t,--threads", o.threads, "threads, list (default: physical cores)")
      ->delimiter(',')
      ->check(int_range(1, 1024));
  cmd->add_option("--n-gpu-layers", o.n_gpu_layers, "layers offloaded to GPUs; -1 = all")
      ->check(int_range(-1, 100000))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("--flash-attn", o.flash_attn, "flash attention: auto, on or off")
      ->check(CLI::IsMember({"auto", "on", "off", "1", "0"}))
      ->capture_default_str()
      ->take_last();
  add_repetition_flags(*cmd, o.repetition.repetitions, o.repetition.ci_target_pct, o.repetition.max_time_s,
                       "each phase's mean figure (a pass over the query set gives one: the latency phase its mean "
                       "ms, a batch size its texts/s)",
                       "phase (the latency at batch 1, each batch size)");
  cmd->add_option("--warmup", o.warmup, "untimed calls before the latency pass and before each batch size")
      ->check(int_range(0, 1000))
      ->capture_default_str()
      ->take_last();
  cmd->add_flag("--no-warmup", o.no_warmup, "no warmup call (as --warmup 0)");
  cmd->add_option("-o,--output", o.output, "output format: md, csv, json or jsonl (json/jsonl: the records)")
      ->capture_default_str()
      ->take_last();
  add_record_flags(*cmd, o.db_path, o.no_db, o.tags, o.machine);
  add_progress_flags(*cmd, o.progress, o.no_progress);
  cmd->add_flag("-v,--verbose", o.verbose, "show llama.cpp's own log on stderr");
  for (const RefusedFlag& f : refused_flags()) {
    cmd->add_option(f.names, o.refused_values, "")->group("")->each([&o, shown = f.shown](const std::string&) {
      o.refused.push_back(shown);
    });
  }
  for (CLI::Option* opt : cmd->get_options()) {
    if (!opt->get_positional()) opt->allow_extra_args(false);
  }
  cmd->footer(R"(An embedding model has no generation: `embed` measures what a search or RAG service waits for, one
query embedded at a time (latency, p50/p95/p99 ms), and how many texts per second it embeds in batches
(-b). Generation flags (-p, -n, -pg, -d, -c, -ctk, -ctv) are refused; `rigbench bench` on an encoder
refuses and points here. A generative model is refused unless its GGUF declares a pooling type
(decoder-based embedding models such as Qwen3-Embedding run with their own pooling).
Records go to the same database as bench's; `compare` and `report` show them per machine.
Exit codes: 0 measured; 1 a bad model or query file, or a failed run; 2 a bad flag or value, or a model
that is not an embedding model; 130 interrupted (finished samples are kept).
Examples:
  rigbench embed bge-small-en-v1.5-f16.gguf
  rigbench embed model.gguf --queries queries.jsonl -b 1,32 -t 4 -r 5 -o json)");
  return cmd;
}

Status run_embed_command(EmbedOptions& o) {
  if (o.verbose) setenv("RIGBENCH_LLAMA_LOG", "1", 1);
  engine::init_llama();
  // 1. Flags.
  if (!o.refused.empty()) {
    return fail(ErrorCode::kUsage, o.refused.front() +
                                       ": a generation setting; an embedding run has no prompt, generation or KV "
                                       "cache (embed measures latency at batch 1 and throughput per -b)");
  }
  const auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  if (o.no_db && !o.db_path.empty()) return fail(ErrorCode::kUsage, "--db and --no-db: give one, not both");
  auto progress_shown = show_progress(o.progress, o.no_progress, isatty(STDERR_FILENO) != 0);
  if (!progress_shown) return std::unexpected(progress_shown.error());
  if (o.no_warmup) o.warmup = 0;
  if (o.threads.empty()) o.threads = {hw::default_threads()};
  std::string fa = to_lower(trim(o.flash_attn));
  if (fa == "1") fa = "on";
  if (fa == "0") fa = "off";
  measure::EmbedJob job;
  job.models = o.models;
  job.base.batch_sizes = o.batch_sizes;
  job.threads = o.threads;
  job.params.n_gpu_layers = o.n_gpu_layers;
  job.params.flash_attn = fa;
  job.rule = repetition_rule(o.repetition);
  job.params.repetitions = job.rule.automatic ? 0 : job.rule.repetitions;
  job.params.warmup = o.warmup;
  job.tags = o.tags;

  // 2. The query set, then every model, before anything runs.
  if (Status s = measure::prepare_embed_job(job, o.queries); !s) return s;

  // 3. The database.
  auto opened = store::open_results_db(o.db_path, o.no_db);
  if (!opened) return std::unexpected(opened.error());
  std::unique_ptr<store::SqliteStore> db = std::move(*opened);

  job.machine = machine_info();
  if (!trim(o.machine).empty()) job.machine.hostname = trim(o.machine);
  job.build = build_info();

  // 4. One record per model and thread count, stored and printed as it comes.
  const std::atomic<bool>& cancel = install_interrupt_flag();
  auto embedder = engine::make_llama_embedder(&cancel);
  const bool show_progress = *progress_shown;
  auto progress = [show_progress](const std::string& line) {
    if (show_progress) std::fprintf(stderr, "rigbench: %s\n", line.c_str());
  };
  std::vector<RunRecord> records;
  RecordSink sink(db.get(), *format, std::cout);
  const auto summary = measure::run_embed_job(job, *embedder, cancel, progress, [&](const RunRecord& rec) -> Status {
    if (Status s = sink.add(rec); !s) return s;
    records.push_back(rec);
    return {};
  });
  const bool printed = sink.printing();
  sink.finish();
  if (!summary) return std::unexpected(summary.error());
  if (!printed) report::render(report::embedding_table(records), *format, std::cout);
  sink.say_stored();
  if (summary->interrupted) return fail(ErrorCode::kInterrupted, "interrupted: finished samples kept");
  return summary->problem;
}

}  // namespace rigbench::cli
