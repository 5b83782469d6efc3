#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/results.h"
#include "core/strings.h"
#include "report/columns.h"
#include "report/export_printer.h"
#include "report/fit_printer.h"
#include "report/printer.h"
#include "report/speed_accuracy_printer.h"
#include "support/golden.h"
#include "support/printed.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

std::string print(OutputFormat f, int n_records) {
  return testing::printed(f, std::vector<RunRecord>(static_cast<std::size_t>(n_records), testing::sample_record()));
}

// The md of `records` with its cells' padding collapsed to one space (the alignment itself is
// held by OneRowPerTestLikeLlamaBenchWithMeanAndStddev).
std::string markdown(const std::vector<RunRecord>& records) {
  return testing::unpadded(testing::printed(OutputFormat::kMarkdown, records));
}

TEST(JsonPrinter, WritesAParseableArray) {
  EXPECT_EQ(nlohmann::json::parse(print(OutputFormat::kJson, 0)).size(), 0u);
  const auto j = nlohmann::json::parse(print(OutputFormat::kJson, 2));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_DOUBLE_EQ(j[1]["results"]["tg"]["avg_tps"].get<double>(), 96.0);
}

TEST(JsonlPrinter, WritesOneRecordPerLine) {
  const auto lines = split(print(OutputFormat::kJsonl, 3), '\n');
  ASSERT_EQ(lines.size(), 4u);  // 3 lines + the empty field after the last newline
  for (int i = 0; i < 3; ++i) EXPECT_EQ(nlohmann::json::parse(lines[i])["params"]["n_gen"], 128);
}

TEST(CsvPrinter, QuotesFieldsAndHasEveryColumn) {
  const auto lines = split(print(OutputFormat::kCsv, 1), '\n');
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("model_name,", 0), 0u);
  EXPECT_EQ(split(lines[0], ',').size(), columns().size());
  // RFC 4180: the comma and quotes in the model name are quoted and doubled.
  EXPECT_EQ(lines[1].rfind("\"Model, \"\"quoted\"\" | piped\",m.gguf,F32,1185376,292800,", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find(",768,"), std::string::npos);  // pp_avg_tps
}

TEST(MarkdownPrinter, OneRowPerTestLikeLlamaBenchWithMeanAndStddev) {
  const std::string md = print(OutputFormat::kMarkdown, 1);
  const auto lines = split(md, '\n');
  ASSERT_GE(lines.size(), 4u) << md;
  // Aligned as llama-bench aligns its rows: each column as wide as its header or the first row's
  // cell, t/s at least 18 wide (llama-bench's 20 put the default model's row at 121 columns) and
  // the test as the longest the run plans
  // (PrinterOptions::test_width); names and text left, figures and the test right (#37: bench's
  // table was left-aligned throughout, unlike fit's, embed's and llama-bench's).
  EXPECT_EQ(lines[0],
            "| model                        |     size | backend | threads |       test |                t/s | TTFT "
            "ms | p99 ms |");
  EXPECT_EQ(lines[1],
            "| ---------------------------- | -------: | ------- | ------: | ---------: | -----------------: | "
            "------: | -----: |");
  // The record holds pp512 (with TTFT) and tg128 of one -pg test: a row each, marked (pg);
  // pipes in names escaped.
  EXPECT_EQ(lines[2],
            "| Model, \"quoted\" \\| piped F32 | 1.13 MiB | CPU     |       8 | pp512 (pg) |    768.00 ± 362.04 |  "
            "750.50 | 995.50 |");
  // TTFT's p99 on the pp row (1000.5 and 500.5 ms: 500.5 + 0.99 * 500); this tg kept no token latencies.
  EXPECT_EQ(lines[3],
            "| Model, \"quoted\" \\| piped F32 | 1.13 MiB | CPU     |       8 | tg128 (pg) |      96.00 ± 45.25 |    "
            "   - |      - |");
  EXPECT_NE(md.find("llama.cpp build: 80fb11ac"), std::string::npos);
  for (const auto& line : lines) EXPECT_LE(display_width(line), 120u) << line;
}

// The tg bound is a footer in md's default view (its column made the aligned table wider than
// 120 columns), and a column with --wide.
TEST(MarkdownPrinter, TheTgBoundIsAFooterAndAColumnWithWide) {
  RunRecord r = testing::sample_record();
  r.roofline.tg_bound_tps = 24010.25;
  const std::string md = testing::printed(OutputFormat::kMarkdown, {r});
  EXPECT_EQ(md.find("tg bound t/s |"), std::string::npos) << md;
  // The bytes read per token are said: hw's bandwidth over the file's size read lower than the bound.
  EXPECT_NE(
      md.find("\ntg bound t/s (bandwidth / bytes read per token: the weights, less the token embeddings of which a "
              "token reads one row,"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("an upper bound, not a measurement): row 2 <= 24010.2\n"), std::string::npos) << md;
  std::ostringstream wide;
  auto p = make_printer(OutputFormat::kMarkdown, wide, PrinterOptions{{}, /*wide=*/true});
  p->begin();
  p->add(r);
  p->end();
  EXPECT_NE(testing::unpadded(wide.str()).find("| p99 ms | tg bound t/s |"), std::string::npos) << wide.str();
  EXPECT_NE(wide.str().find("<= 24010.2"), std::string::npos) << wide.str();
  EXPECT_EQ(wide.str().find("upper bound, not a measurement): row"), std::string::npos) << wide.str();
}

// A llama-bench import records no devices, but llama-bench records its backend: the table and
// the CSV show it (they showed "-" and "").
TEST(MarkdownPrinter, ALlamaBenchImportShowsTheBackendLlamaBenchRecorded) {
  RunRecord imported = testing::sample_record();
  imported.devices_used.clear();
  imported.tags = {"source:llama-bench"};
  imported.machine.backends = {"CUDA"};
  imported.model.name = "m";  // no comma: the CSV row splits at every one
  const auto lines = split(markdown({imported}), '\n');
  ASSERT_GE(lines.size(), 3u);
  EXPECT_NE(lines[2].find("| CUDA |"), std::string::npos) << lines[2];
  const auto csv = split(testing::printed(OutputFormat::kCsv, {imported}), '\n');
  const auto header = split(csv[0], ',');
  const auto row = split(csv[1], ',');
  const auto at = std::find(header.begin(), header.end(), "backends") - header.begin();
  EXPECT_EQ(row[static_cast<std::size_t>(at)], "CUDA") << csv[1];
  // A record of rigbench's own without devices still shows "-".
  RunRecord own = testing::sample_record();
  own.devices_used.clear();
  EXPECT_NE(split(markdown({own}), '\n')[2].find("| - |"), std::string::npos);
}

TEST(MarkdownPrinter, WideShowsMemoryParamsAndTtftSpread) {
  std::ostringstream out;
  auto p = make_printer(OutputFormat::kMarkdown, out, PrinterOptions{{}, /*wide=*/true});
  p->begin();
  p->add(testing::sample_record());
  p->end();
  EXPECT_NE(testing::unpadded(out.str()).find("| model | size | params | backend | threads | test | t/s | p50 t/s | p95 t/s | TTFT ms | "
                           "TTFT sd | p50 ms | p90 ms | p95 ms | p99 ms | tg bound t/s | of bound | model MiB | KV MiB | "
                           "compute MiB | peak RSS MiB |"),
            std::string::npos)
      << out.str();
  EXPECT_NE(testing::unpadded(out.str()).find("| 750.50 | 353.55 | 750.50 | 950.50 | 975.50 | 995.50 |"), std::string::npos) << out.str();
}

TEST(MarkdownPrinter, RefusedAndFailedRunsAreRowsWithTheirReasonInTheNotes) {
  RunRecord refused = testing::sample_record();
  refused.results = {};
  refused.refused = "model 'm.gguf' at n_ctx 640 will not fit this machine";
  RunRecord failed = testing::sample_record();
  failed.results = {};
  failed.params.n_prompt = 0;  // a tg test
  failed.failed = "model 'm.gguf': llama_decode failed";
  std::ostringstream out;
  auto p = make_printer(OutputFormat::kMarkdown, out);
  p->begin();
  p->add(refused);
  p->add(failed);
  p->end();
  const auto lines = split(testing::unpadded(out.str()), '\n');
  ASSERT_GE(lines.size(), 5u) << out.str();
  EXPECT_NE(lines[2].find("| pp512 (pg) | refused | - | - |"), std::string::npos) << out.str();
  EXPECT_NE(lines[3].find("| tg128 (pg) | refused | - | - |"), std::string::npos) << out.str();
  EXPECT_NE(lines[4].find("| tg128 | failed | - | - |"), std::string::npos) << out.str();
  EXPECT_NE(testing::unpadded(out.str()).find("note: row 1: refused: model 'm.gguf' at n_ctx 640 will not fit this machine"),
            std::string::npos);
  EXPECT_NE(testing::unpadded(out.str()).find("note: row 3: failed: model 'm.gguf': llama_decode failed"), std::string::npos);
}

TEST(MarkdownPrinter, PrintsNothingWithoutRecordsAndKnobsOnlyWhenAsked) {
  EXPECT_EQ(print(OutputFormat::kMarkdown, 0), "");
  EXPECT_EQ(print(OutputFormat::kCsv, 0), "");
  EXPECT_EQ(print(OutputFormat::kMarkdown, 1).find("| fa |"), std::string::npos);
  std::ostringstream out;
  auto p = make_printer(OutputFormat::kMarkdown, out, PrinterOptions{{"flash_attn", "type_k"}});
  p->begin();
  p->add(testing::sample_record());
  p->end();
  EXPECT_NE(testing::unpadded(out.str()).find("| type_k | fa |"), std::string::npos) << out.str();
  EXPECT_NE(testing::unpadded(out.str()).find("| f16 | auto |"), std::string::npos) << out.str();
}

TEST(Printers, LoadModeColumnInCsvAlwaysAndInTheTableWhenAsked) {
  RunRecord rec = testing::sample_record();
  rec.params.load_mode = "none";
  std::ostringstream csv;
  auto c = make_printer(OutputFormat::kCsv, csv);
  c->begin();
  c->add(rec);
  c->end();
  const auto lines = split(csv.str(), '\n');
  ASSERT_GE(lines.size(), 2u);
  const auto header = split(lines[0], ',');
  const auto it = std::find(header.begin(), header.end(), "load_mode");
  ASSERT_NE(it, header.end()) << lines[0];
  EXPECT_EQ(*(it - 1), "n_gpu_layers");
  EXPECT_EQ(*(it + 1), "n_batch");
  EXPECT_NE(lines[1].find(",-1,none,2048,"), std::string::npos) << lines[1];  // ngl, lm, n_batch

  std::ostringstream plain;
  auto p = make_printer(OutputFormat::kMarkdown, plain);
  p->begin();
  p->add(rec);
  p->end();
  EXPECT_EQ(plain.str().find("| lm |"), std::string::npos) << plain.str();
  std::ostringstream asked;
  auto q = make_printer(OutputFormat::kMarkdown, asked, PrinterOptions{{"load_mode"}});
  q->begin();
  q->add(rec);
  q->end();
  EXPECT_NE(testing::unpadded(asked.str()).find("| backend | lm | threads |"), std::string::npos) << asked.str();
  EXPECT_NE(testing::unpadded(asked.str()).find("| CPU | none | 8 |"), std::string::npos) << asked.str();
}

TEST(MarkdownPrinter, NotesAnInterruptedRow) {
  RunRecord r = testing::sample_record();
  r.interrupted = true;
  r.params.repetitions = 100;
  const std::string md = markdown({r});
  EXPECT_NE(md.find("note: row 1: interrupted after 2 of 100 repetitions"), std::string::npos) << md;
}

// -r auto that ran out of time: the footer gives each row's interval, a note says which row
// missed the target and why; noise notes go to their row (pp, tg) or the record's last row.
TEST(MarkdownPrinter, IntervalFooterMissedTargetsAndNoiseNotes) {
  RunRecord r = testing::sample_record();  // pp 512/1024 t/s, tg 64/128 t/s: ±423.5 % each
  r.precision.repetitions_mode = "auto";
  r.precision.ci_target_pct = 2;
  r.precision.max_time_s = 20;
  r.precision.stopped_by = "max_time";
  r.noise = {{"outliers", "tg", "1 of 2 repetitions are statistical outliers", "re-run on a quiet machine"},
             {"machine_busy", "", "machine busy: other processes used 40 % of the CPUs' time", "stop other programs"}};
  std::ostringstream out;
  auto p = make_printer(OutputFormat::kMarkdown, out);
  p->begin();
  p->add(r);
  p->end();
  const std::string md = out.str();
  const std::string text = rigbench::testing::unwrapped(md);
  EXPECT_NE(text.find("t/s: mean ± standard deviation of the repetitions; 95 % interval of the mean t/s: row 1 ±423.5 "
                      "%, row 2 ±423.5 % (target ±2 %)"),
            std::string::npos)
      << md;
  EXPECT_NE(text.find("note: rows 1, 2: the interval's low end (mean minus the half width) is below 0: csv and json "
                      "give it as 0 t/s"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("note: row 1: the 95 % interval is ±423.5 %, wider than the ±2 % target, after 2 repetitions "
                    "(--max-time 20 s ran out);\n      raise --max-time or quiet the machine"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("note: row 2: tg: 1 of 2 repetitions are statistical outliers; re-run on a quiet machine"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("note: row 2: machine busy: other processes used 40 % of the CPUs' time; stop other programs"),
            std::string::npos)
      << md;
}

// A tg above its roofline bound means the bandwidth behind the bound was measured low.
TEST(MarkdownPrinter, NotesTgAboveItsBoundAndNotTgBelowIt) {
  RunRecord above = testing::sample_record();  // tg mean 96 t/s
  above.roofline.tg_bound_tps = 80.0;
  above.roofline.bandwidth_gbps = 8.5;
  RunRecord below = testing::sample_record();
  below.roofline.tg_bound_tps = 93.0;  // within 5 %: noise, no note
  below.roofline.bandwidth_gbps = 20.0;
  const std::string md = markdown({above, below});
  // Notes wrap at 120 columns, continuation lines indented.
  EXPECT_NE(md.find("note: row 2: tg 96.00 t/s is above its bound 80.0 t/s: the bound's bandwidth (8.5 GB/s) was "
                    "measured low,"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`rigbench hw --bandwidth` on an idle machine measures it again"), std::string::npos) << md;
  for (const auto& line : split(md, '\n')) EXPECT_LE(display_width(line), 120u) << line;
  EXPECT_EQ(md.find("note: row 4: tg"), std::string::npos) << md;
}

// A split run's bound (bench --rpc) is its devices' memory and the network, not this machine's
// bandwidth alone: the note names both terms and how to plan with the link's own figures.
TEST(MarkdownPrinter, NotesASplitRunAboveItsBoundWithTheMemoryAndNetworkTerms) {
  RunRecord rec = testing::sample_record();  // tg mean 96 t/s
  rec.params.rpc = "127.0.0.1:50052";
  rec.roofline.tg_bound_tps = 40.0;
  rec.roofline.bandwidth_gbps = 20.0;
  rec.roofline.memory_bound_tps = 8000.0;
  rec.roofline.network_ms_per_token = 24.875;
  const std::string md = testing::printed(OutputFormat::kMarkdown, {rec});
  std::string text;  // the notes unwrapped: continuation lines are indented 6 spaces
  for (const auto& line : split(md, '\n')) text += line.rfind("      ", 0) == 0 ? " " + line.substr(6) : "\n" + line;
  EXPECT_NE(text.find("note: row 2: tg 96.00 t/s is above its bound 40.0 t/s, the split's (memory alone 8000.0 t/s, "
                      "network 24.875 ms a token): the rpc-servers' memory is assumed as fast as this machine's (they "
                      "report none), the link at 1 Gb/s with the round trip measured before the run; `rigbench fit "
                      "--rpc` with --link-gbps and --link-rtt-ms plans it with the link's own figures"),
            std::string::npos)
      << md;
  EXPECT_EQ(text.find("measured low"), std::string::npos) << md;
  for (const auto& line : split(md, '\n')) EXPECT_LE(line.size(), 120u) << line;
}

// CSV carries the interval (ci95 of pp and tg), the precision and the noise notes per record.
TEST(CsvPrinter, CarriesTheIntervalPrecisionAndNoiseNotes) {
  RunRecord r = testing::sample_record();  // tg 64/128 t/s: 96 ± 406.6 (±423.5 %)
  r.precision.repetitions_mode = "auto";
  r.precision.ci_target_pct = 2;
  r.precision.max_time_s = 20;
  r.precision.reached = false;
  r.precision.stopped_by = "max_time";
  r.noise = {{"high_cv", "tg", "CV 35 %", "quiet the machine"}};
  std::ostringstream out;
  auto p = make_printer(OutputFormat::kCsv, out);
  p->begin();
  p->add(r);
  p->end();
  const auto lines = split(out.str(), '\n');
  ASSERT_GE(lines.size(), 2u);
  const auto keys = split(lines[0], ',');
  const auto values = split(lines[1], ',');
  // The model name's comma (in quotes) shifts the values by one.
  ASSERT_EQ(values.size(), keys.size() + 1);
  auto at = [&](const std::string& key) {
    const auto it = std::find(keys.begin(), keys.end(), key);
    return it == keys.end() ? std::string("<no column>") : values.at(it - keys.begin() + 1);
  };
  EXPECT_EQ(at("tg_ci95_pct").substr(0, 6), "423.54");
  // 96 - 406.6 = -310.6 t/s at -r 2: stored and shown as 0, never below it.
  EXPECT_EQ(at("tg_ci95_low_tps"), "0");
  EXPECT_EQ(at("tg_ci95_high_tps").substr(0, 7), "502.598");
  EXPECT_EQ(at("repetitions_mode"), "auto");
  EXPECT_EQ(at("ci_target_pct"), "2");
  EXPECT_EQ(at("max_time_s"), "20");
  EXPECT_EQ(at("ci_reached"), "false");
  EXPECT_EQ(at("stopped_by"), "max_time");
  EXPECT_EQ(at("noise_codes"), "high_cv");
  EXPECT_EQ(at("noise_notes"), "tg: CV 35 %; quiet the machine");  // the phase once
}

TEST(CsvPrinter, NumbersAreShortestExactForms) {
  RunRecord r = testing::sample_record();
  r.results.tg = make_throughput(128, {3'000'000'000});  // 42.666... t/s
  std::ostringstream out;
  auto p = make_printer(OutputFormat::kCsv, out);
  p->begin();
  p->add(r);
  p->end();
  EXPECT_NE(out.str().find(",42.666666666666664,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(",768,"), std::string::npos);
}

// bench's whole outputs for fixed records (one measured, one refused) against golden files
// (tests/data/golden/bench.*): a stray column, row, note or line fails.
TEST(Printers, BenchOutputsMatchGoldenFiles) {
  RunRecord refused = testing::sample_record("fedcba9876543210fedcba9876543210");
  refused.results = {};
  refused.params.n_prompt = 0;
  refused.refused = "model 'm.gguf' at n_ctx 640 will not fit this machine: needs 3.20 GiB, 1.50 GiB available";
  const std::pair<OutputFormat, const char*> cases[] = {{OutputFormat::kMarkdown, "bench.md"},
                                                        {OutputFormat::kCsv, "bench.csv"},
                                                        {OutputFormat::kJson, "bench.json"},
                                                        {OutputFormat::kJsonl, "bench.jsonl"}};
  for (const auto& [format, name] : cases) {
    std::ostringstream out;
    auto p = make_printer(format, out);
    p->begin();
    p->add(testing::sample_record());
    p->add(refused);
    p->end();
    EXPECT_EQ(rigbench::testing::matches_golden(out.str(), name), "") << name;
  }
  std::ostringstream wide;
  auto p = make_printer(OutputFormat::kMarkdown, wide, PrinterOptions{{"flash_attn"}, /*wide=*/true});
  p->begin();
  p->add(testing::sample_record());
  p->end();
  EXPECT_EQ(rigbench::testing::matches_golden(wide.str(), "bench_wide.md"), "");
}

TEST(OutputFormat, UnknownNameIsUsageError) {
  auto f = parse_output_format("xml");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, ErrorCode::kUsage);
}

// fit --check with an offload device (a faked plan, no llama.cpp): the totals, then each side
// (the device's memory and host RAM) beside llama.cpp's; without a device, neither.
TEST(FitCheckPrinter, SplitsTheTotalsByDeviceAndHostWhenThePlanHasADevice) {
  FitCheck c;
  c.n_ctx = 4096;
  c.estimate_weights = 300, c.estimate_kv = 100, c.estimate_compute = 600;
  c.llama_weights = 300, c.llama_kv = 100, c.llama_compute = 620;
  c.device = "Vulkan0";
  c.estimate_device = 900, c.estimate_host = 100, c.llama_device = 880, c.llama_host = 140;
  std::ostringstream json;
  print_fit_check(c, OutputFormat::kJson, json);
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["device"], "Vulkan0");
  EXPECT_EQ(j["estimate"]["total_bytes"], 1000u);
  EXPECT_EQ(j["estimate"]["device_bytes"], 900u);
  EXPECT_EQ(j["estimate"]["host_bytes"], 100u);
  EXPECT_EQ(j["llama_cpp"]["device_bytes"], 880u);
  EXPECT_EQ(j["llama_cpp"]["host_bytes"], 140u);
  std::ostringstream md;
  print_fit_check(c, OutputFormat::kMarkdown, md);
  EXPECT_NE(md.str().find("| on Vulkan0 "), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("| on the host "), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("-28.57"), std::string::npos) << md.str();  // host: (100 - 140) / 140
  c.device.clear();
  std::ostringstream cpu;
  print_fit_check(c, OutputFormat::kJson, cpu);
  EXPECT_FALSE(nlohmann::json::parse(cpu.str()).contains("device"));
  EXPECT_FALSE(nlohmann::json::parse(cpu.str())["estimate"].contains("host_bytes"));
}

// export -o md over a tune's trials was 187 columns wide (a knob column each, two long model
// labels): past 120 columns the listing is one table per model, its name, file and size said
// above it; a narrow listing stays one table with a model column.
TEST(ExportMarkdown, AListingWiderThan120IsOneTablePerModelWithinIt) {
  std::vector<RunRecord> records;
  for (const char* name : {"A model with a rather long name for its table", "Another model, long as well"}) {
    for (const char* fa : {"on", "off"}) {
      for (int poll : {0, 50}) {
        RunRecord r = testing::sample_record(std::string(name) + fa + std::to_string(poll));
        r.model.name = name;
        r.model.path = std::string("/models/") + (name[0] == 'A' && name[1] == ' ' ? "a" : "b") + "-long-file-name.gguf";
        r.params.flash_attn = fa;
        r.params.poll = poll;
        r.params.type_k = poll ? "q8_0" : "f16";
        r.params.n_ubatch = poll ? 256 : 512;
        records.push_back(r);
      }
    }
  }
  // A third model whose runs differ in a dozen knobs: its table folds them into "settings".
  for (int i = 0; i < 2; ++i) {
    RunRecord r = testing::sample_record("c" + std::to_string(i));
    r.model.name = "C";
    r.model.path = "/models/c.gguf";
    r.params.flash_attn = i ? "on" : "off";
    r.params.type_k = r.params.type_v = i ? "q8_0" : "f16";
    r.params.n_batch = i ? 1024 : 2048;
    r.params.n_ubatch = i ? 256 : 512;
    r.params.poll = i ? 0 : 50;
    r.params.cpu_strict = i;
    r.params.n_gpu_layers = i ? 20 : 99;
    r.params.n_cpu_moe = i ? 4 : 0;
    r.params.load_mode = i ? "none" : "mmap";
    r.params.split_mode = i ? "row" : "layer";
    r.params.n_threads = i ? 4 : 8;
    records.push_back(r);
  }
  std::ostringstream out;
  print_records(records, OutputFormat::kMarkdown, out);
  const std::string md = out.str();
  const std::string c = md.substr(md.find("model: C F32"));
  EXPECT_NE(c.find("| settings "), std::string::npos) << c;
  EXPECT_NE(testing::unpadded(testing::unwrapped_rows(c)).find("fa on · "), std::string::npos) << c;
  EXPECT_NE(c.find("note: settings: the knobs that differ between these records"), std::string::npos) << c;
  EXPECT_EQ(md.substr(0, md.find("model: C F32")).find("| settings "), std::string::npos) << md;  // fit as columns
  for (const std::string& line : split(md, '\n')) EXPECT_LE(display_width(line), kMarkdownWidth) << line;
  EXPECT_NE(md.find("model: A model with a rather long name for its table F32, a-long-file-name.gguf"), std::string::npos)
      << md;
  EXPECT_NE(md.find("model: Another model, long as well F32, b-long-file-name.gguf"), std::string::npos) << md;
  EXPECT_EQ(md.find("| model "), std::string::npos) << md;  // the heading names it
  EXPECT_NE(testing::unpadded(md).find("| box | CPU | 512 | f16 | on | 0 | 8 | pp512 (pg) |"), std::string::npos) << md;
  EXPECT_NE(md.find("llama.cpp build: 80fb11ac"), std::string::npos) << md;
  // A listing within 120 columns is one table, the model a column.
  std::ostringstream narrow;
  RunRecord short_name = testing::sample_record();
  short_name.model.name = "m";
  print_records({short_name}, OutputFormat::kMarkdown, narrow);
  EXPECT_TRUE(testing::unpadded(narrow.str()).starts_with("| machine | model |")) << narrow.str();
  EXPECT_EQ(narrow.str().find("model: "), std::string::npos) << narrow.str();
}

// fit --predict-accuracy read "pp: 0 of 5 held-out points predicted; median |error| 0.0 %, ...
// cover 0.0 %": with nothing predicted there is no error to state.
TEST(SpeedAccuracyPrinter, NoPredictionStatesNoError) {
  measure::SpeedAccuracy a;
  a.tg_summary = {11, 4, 0.377, 2.107, 0.5};
  a.pp_summary = {5, 0, 0, 0, 0};
  const Table t = speed_accuracy_table(a);
  ASSERT_GE(t.notes().size(), 2u);
  EXPECT_EQ(
      t.notes()[0],
      "tg: 4 of 11 held-out points predicted; median |error| 37.7 %, 90th percentile 210.7 %, 90 % intervals cover "
      "50.0 %");
  EXPECT_EQ(t.notes()[1],
            "pp: none of 5 held-out points predicted (no other device of its class holds a basis), so no error or "
            "coverage to state");
}

}  // namespace
}  // namespace rigbench::report
