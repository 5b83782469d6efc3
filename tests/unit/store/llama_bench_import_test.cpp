// llama-bench output read into rows (csv, json, sql) and mapped to RunRecords. Fixtures are
// llama-bench v0.4.0's own output on the shipped model (jsonl below), and csv/sql written
// from it the way llama-bench's csv_printer and sql_printer write them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <tuple>

#include "core/knobs.h"
#include "core/strings.h"
#include "store/llama_bench_record.h"
#include "store/llama_bench_rows.h"
#include "store/record_json.h"
#include "store/record_parts.h"
#include "report/comparison.h"
#include "support/temp_dir.h"

namespace rigbench::store {
namespace {

// llama-bench -m models/stories260K.gguf -p 16 -n 4 -r 2 -t 1 -o jsonl (the pp row).
constexpr const char* kPpJsonl =
    R"({"build_commit": "80fb11ac73e66d89eae2c6a91d8a77428fa733ed", "build_number": 1, "cpu_info": "Intel(R) Xeon(R) Processor", "gpu_info": "", "backends": "CPU", "model_filename": "/work/main/models/stories260K.gguf", "model_type": "llama ?B (guessed) all F32", "model_size": 1171200, "model_n_params": 292800, "n_batch": 2048, "n_ubatch": 512, "n_threads": 1, "cpu_mask": "0x0", "cpu_strict": false, "poll": 50, "type_k": "f16", "type_v": "f16", "n_gpu_layers": -1, "n_cpu_moe": 0, "split_mode": "layer", "main_gpu": 0, "no_kv_offload": false, "flash_attn": -1, "devices": "auto", "tensor_split": "0.00", "tensor_buft_overrides": "none", "load_mode": "auto", "lazy_mode": "auto", "embeddings": false, "no_op_offload": 0, "no_host": false, "fit_target": 0, "fit_min_ctx": 0, "n_prompt": 16, "n_gen": 0, "n_depth": 0, "test_time": "2026-11-29T15:09:41Z", "avg_ns": 828074, "stddev_ns": 26420, "avg_ts": 19331.784324, "stddev_ts": 616.795445, "samples_ns": [ 846756, 809392 ],"samples_ts": [ 18895.6, 19767.9 ]})";

LlamaBenchRow pp_row() {
  auto row = llama_bench_row_from_json(Json::parse(kPpJsonl), 1);
  EXPECT_TRUE(row) << row.error().message;
  return *row;
}

// The row as llama-bench's csv_printer writes it: a header, then every value quoted.
std::string as_csv(const LlamaBenchRow& row) {
  std::vector<std::string> keys, values;
  for (const auto& [k, v] : row.fields) {
    keys.push_back(k);
    values.push_back("\"" + v + "\"");
  }
  return join(keys, ",") + "\n" + join(values, ",") + "\n";
}

// The row as llama-bench's sql_printer writes it: CREATE TABLE, then INSERT with quoted values.
std::string as_sql(const LlamaBenchRow& row) {
  std::vector<std::string> keys, values, columns;
  for (const auto& [k, v] : row.fields) {
    keys.push_back(k);
    values.push_back("'" + v + "'");
    columns.push_back("  " + k +
                      (k == "avg_ts" || k == "stddev_ts" ? " REAL"
                       : k.starts_with("n_")             ? " INTEGER"
                                                         : " TEXT"));
  }
  return "CREATE TABLE IF NOT EXISTS llama_bench (\n" + join(columns, ",\n") + "\n);\n\nINSERT INTO llama_bench (" +
         join(keys, ", ") + ") VALUES (" + join(values, ", ") + ");\n";
}

TEST(LlamaBenchRows, JsonValuesReadAsCsvPrintsThem) {
  const LlamaBenchRow row = pp_row();
  EXPECT_EQ(row.fields.at("cpu_strict"), "0");  // false
  EXPECT_EQ(row.fields.at("n_gpu_layers"), "-1");
  EXPECT_EQ(row.fields.at("model_size"), "1171200");
  EXPECT_EQ(row.fields.at("model_type"), "llama ?B (guessed) all F32");
  EXPECT_EQ(row.fields.count("samples_ts"), 0u);
  ASSERT_TRUE(row.samples_ns);
  EXPECT_EQ(*row.samples_ns, (std::vector<int64_t>{846756, 809392}));
}

TEST(LlamaBenchRows, JsonRejectsBadSamples) {
  auto j = Json::parse(kPpJsonl);
  j["samples_ns"] = Json::array({100, -5});
  auto row = llama_bench_row_from_json(j, 7);
  ASSERT_FALSE(row);
  EXPECT_NE(row.error().message.find("line 7"), std::string::npos) << row.error().message;
  EXPECT_FALSE(llama_bench_row_from_json(Json::array(), 1));
}

TEST(LlamaBenchRows, CsvQuotingCommasQuotesAndLineBreaks) {
  auto rows = parse_llama_bench_csv("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n\n1,,3\n");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].fields.at("a"), "x, y");
  EXPECT_EQ((*rows)[0].fields.at("b"), "say \"hi\"");
  EXPECT_EQ((*rows)[0].fields.at("c"), "two\nlines");
  EXPECT_EQ((*rows)[0].line, 2);
  EXPECT_EQ((*rows)[1].fields.at("b"), "");
  EXPECT_EQ((*rows)[1].line, 5);
}

TEST(LlamaBenchRows, CsvErrorsNameTheLine) {
  auto short_row = parse_llama_bench_csv("a,b,c\n1,2,3\n1,2\n");
  ASSERT_FALSE(short_row);
  EXPECT_EQ(short_row.error().message, "line 3: 2 fields, the header has 3");
  auto open_quote = parse_llama_bench_csv("a,b\n1,\"2\n");
  ASSERT_FALSE(open_quote);
  EXPECT_EQ(open_quote.error().message, "line 2: unterminated quote");
}

TEST(LlamaBenchRows, SqlRunsInMemoryAndReadsBack) {
  const LlamaBenchRow row = pp_row();
  auto rows = parse_llama_bench_sql(as_sql(row) + as_sql(row));  // llama-bench appends; IF NOT EXISTS
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].fields.at("model_filename"), row.fields.at("model_filename"));
  EXPECT_EQ((*rows)[0].fields.at("n_prompt"), "16");
  EXPECT_EQ((*rows)[0].fields.at("avg_ts"), "19331.784324");
  EXPECT_FALSE((*rows)[0].samples_ns);
}

TEST(LlamaBenchRows, SqlMayOnlyCreateAndFillLlamaBench) {
  testing::TempDir dir;
  const std::string attached = dir.file("attached.db");
  const std::string create = "CREATE TABLE llama_bench (n_prompt INTEGER);\n";
  for (const std::string& evil : {
           create + "ATTACH DATABASE '" + attached + "' AS x; CREATE TABLE x.t (a);",
           create + "CREATE TABLE other (a);",
           create + "INSERT INTO llama_bench VALUES ((SELECT 1));",
           create + "INSERT INTO llama_bench VALUES (randomblob(10));",
           create + "PRAGMA journal_mode = WAL;",
           create + "DROP TABLE llama_bench;",
           create + "CREATE TRIGGER t AFTER INSERT ON llama_bench BEGIN SELECT 1; END;",
       }) {
    auto rows = parse_llama_bench_sql(evil);
    EXPECT_FALSE(rows) << evil;
    if (!rows) {
      EXPECT_TRUE(rows.error().message.starts_with("SQL: ")) << rows.error().message;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(attached));
  auto no_table = parse_llama_bench_sql("CREATE TABLE IF NOT EXISTS llama_bench (n_prompt INTEGER);");
  ASSERT_TRUE(no_table);
  EXPECT_TRUE(no_table->empty());
  auto syntax = parse_llama_bench_sql("INSERT INTO llama_bench VALUES ('it's');");
  EXPECT_FALSE(syntax);
}

TEST(LlamaBenchRecord, PpRowKeepsSamplesAndFields) {
  auto mapped = map_llama_bench_row(pp_row(), "rig-a");
  ASSERT_TRUE(mapped) << mapped.error().message;
  ASSERT_TRUE(mapped->record);
  const RunRecord& r = *mapped->record;
  ASSERT_TRUE(r.results.pp);
  EXPECT_FALSE(r.results.tg);
  EXPECT_FALSE(r.results.ttft);
  EXPECT_EQ(r.results.pp->n_tokens, 16);
  EXPECT_EQ(r.results.pp->samples_ns, (std::vector<int64_t>{846756, 809392}));
  // Mean of per-sample rates, as llama-bench's avg_ts (printed with 6 decimals).
  EXPECT_NEAR(r.results.pp->tps.mean, 19331.784324, 1e-6);
  EXPECT_NEAR(r.results.pp->tps.stddev, 616.795445, 1e-6);
  EXPECT_EQ(r.machine.hostname, "rig-a");
  EXPECT_EQ(r.machine.cpu, "Intel(R) Xeon(R) Processor");
  EXPECT_TRUE(r.machine.gpus.empty());
  EXPECT_EQ(r.machine.backends, (std::vector<std::string>{"CPU"}));
  EXPECT_EQ(r.build.llama_cpp_commit, "80fb11ac73e66d89eae2c6a91d8a77428fa733ed");
  EXPECT_EQ(r.model.name, "stories260K");
  EXPECT_EQ(r.model.path, "/work/main/models/stories260K.gguf");
  EXPECT_EQ(r.model.arch, "llama");
  EXPECT_EQ(r.model.file_type, "F32");
  EXPECT_EQ(r.model.size_bytes, 1171200u);
  EXPECT_EQ(r.model.n_params, 292800u);
  EXPECT_EQ(r.params.n_prompt, 16);
  EXPECT_EQ(r.params.n_gen, 0);
  EXPECT_EQ(r.params.n_ctx, 16);
  EXPECT_EQ(r.params.n_threads, 1);
  EXPECT_EQ(r.params.n_gpu_layers, -1);
  EXPECT_EQ(r.params.flash_attn, "auto");
  EXPECT_EQ(r.params.load_mode, "auto");
  EXPECT_EQ(r.params.repetitions, 2);
  EXPECT_EQ(r.test_time, "2026-11-29T15:09:41Z");
  EXPECT_EQ(r.tags, (std::vector<std::string>{kLlamaBenchTag}));
  EXPECT_EQ(r.record_id.size(), 32u);
}

TEST(LlamaBenchRecord, TgRowAndGpus) {
  LlamaBenchRow row = pp_row();
  row.fields["n_prompt"] = "0";
  row.fields["n_gen"] = "4";
  row.fields["gpu_info"] = "NVIDIA GeForce RTX 3090, NVIDIA GeForce RTX 2080 Ti";
  row.fields["flash_attn"] = "1";
  auto mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  const RunRecord& r = *mapped->record;
  ASSERT_TRUE(r.results.tg);
  EXPECT_FALSE(r.results.pp);
  EXPECT_EQ(r.results.tg->n_tokens, 4);
  EXPECT_EQ(r.params.flash_attn, "on");
  ASSERT_EQ(r.machine.gpus.size(), 2u);
  EXPECT_EQ(r.machine.gpus[1].description, "NVIDIA GeForce RTX 2080 Ti");
  EXPECT_EQ(r.machine.hostname, "");
}

// #11: every knob a llama-bench row records is kept (core/knobs.h), so compare keeps runs
// that differ in it apart; a field absent or empty keeps llama.cpp's default.
TEST(LlamaBenchRecord, EveryKnobTheRowRecordsIsKept) {
  LlamaBenchRow row = pp_row();
  const BenchParams defaults;
  auto mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.n_cpu_moe, 0);  // the row's defaults
  EXPECT_EQ(mapped->record->params.split_mode, defaults.split_mode);
  EXPECT_EQ(mapped->record->params.tensor_split, defaults.tensor_split);
  EXPECT_EQ(mapped->record->params.tensor_buft_overrides, defaults.tensor_buft_overrides);
  EXPECT_EQ(mapped->record->params.devices, defaults.devices);
  EXPECT_EQ(mapped->record->params.cpu_mask, defaults.cpu_mask);
  row.fields["n_cpu_moe"] = "30";
  row.fields["split_mode"] = "row";
  row.fields["main_gpu"] = "1";
  row.fields["no_kv_offload"] = "1";
  row.fields["devices"] = "CUDA0/CUDA1";
  row.fields["tensor_split"] = "0.75/0.25";
  row.fields["tensor_buft_overrides"] = "blk\\.[0-9]+\\.ffn_.*_exps=CPU";
  row.fields["cpu_mask"] = "0xff";
  row.fields["cpu_strict"] = "1";
  row.fields["poll"] = "0";
  row.fields["lazy_mode"] = "on";
  row.fields["embeddings"] = "1";
  row.fields["no_op_offload"] = "1";
  row.fields["no_host"] = "1";
  row.fields["fit_target"] = "1024";
  row.fields["fit_min_ctx"] = "4096";
  mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record) << (mapped ? mapped->skipped_because : mapped.error().message);
  const BenchParams& p = mapped->record->params;
  EXPECT_EQ(p.n_cpu_moe, 30);
  EXPECT_EQ(p.split_mode, "row");
  EXPECT_EQ(p.main_gpu, 1);
  EXPECT_EQ(p.no_kv_offload, 1);
  EXPECT_EQ(p.devices, "CUDA0/CUDA1");
  EXPECT_EQ(p.tensor_split, "0.75/0.25");
  EXPECT_EQ(p.tensor_buft_overrides, "blk\\.[0-9]+\\.ffn_.*_exps=CPU");  // case kept
  EXPECT_EQ(p.cpu_mask, "0xff");
  EXPECT_EQ(p.cpu_strict, 1);
  EXPECT_EQ(p.poll, 0);
  EXPECT_EQ(p.lazy_mode, "on");
  EXPECT_EQ(p.embeddings, 1);
  EXPECT_EQ(p.no_op_offload, 1);
  EXPECT_EQ(p.no_host, 1);
  EXPECT_EQ(p.fit_target, 1024);
  EXPECT_EQ(p.fit_min_ctx, 4096);
  // Every field of llama.cpp v0.4.0's rows is mapped: a knob, or one of these.
  const std::set<std::string> not_knobs = {"build_commit",   "build_number",   "cpu_info",   "gpu_info",
                                           "backends",       "model_filename", "model_type", "model_size",
                                           "model_n_params", "n_prompt",       "n_gen",      "test_time",
                                           "avg_ns",         "stddev_ns",      "avg_ts",     "stddev_ts"};
  for (const auto& [field, value] : pp_row().fields) {
    if (not_knobs.count(field)) continue;
    bool known = false;
    for (const Knob& k : knobs()) known = known || k.llama_bench_key == field;
    EXPECT_TRUE(known) << field << " is recorded by llama-bench but is no knob";
  }
  row.fields["split_mode"] = "diagonal";
  EXPECT_FALSE(map_llama_bench_row(row));
}

// 2023 rows: mul_mat_q is a knob; f16_kv says the KV cache type before -ctk/-ctv.
TEST(LlamaBenchRecord, OldRowsKeepMulMatQAndF16Kv) {
  LlamaBenchRow row = pp_row();
  row.fields.erase("type_k");
  row.fields.erase("type_v");
  row.fields["f16_kv"] = "0";
  row.fields["mul_mat_q"] = "0";
  auto mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.type_k, "f32");
  EXPECT_EQ(mapped->record->params.type_v, "f32");
  EXPECT_EQ(mapped->record->params.mul_mat_q, 0);
  row.fields["f16_kv"] = "1";
  row.fields.erase("mul_mat_q");
  mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.type_k, "f16");
  EXPECT_EQ(mapped->record->params.mul_mat_q, 1);  // the default: today's builds always use them
}

// A row without load_mode nor use_mmap (builds before January 2024) mapped the file: llama.cpp's
// default then, which llama-bench could not change; so the 2023 and 2024 rows of one setup are
// one configuration (compare --by build sets them side by side, old2023.json, old2024_9312.csv).
TEST(LlamaBenchRecord, LoadModeIsImportedAndMmapWhenAbsent) {
  LlamaBenchRow row = pp_row();
  row.fields["load_mode"] = "mmap+mlock";
  auto mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.load_mode, "mmap+mlock");
  row.fields["load_mode"] = "none";
  mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.load_mode, "none");
  row.fields.erase("load_mode");  // llama-bench builds before --load-mode and -mmp
  mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.load_mode, "mmap");
}

// Older llama-bench rows say how weights loaded with use_mmap and use_direct_io.
TEST(LlamaBenchRecord, OlderRowsMapUseMmapAndUseDirectIo) {
  LlamaBenchRow row = pp_row();
  row.fields.erase("load_mode");
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"0", "0", "none"}, {"1", "0", "mmap"}, {"true", "false", "mmap"}, {"0", "1", "dio"}, {"1", "true", "dio"}};
  for (const auto& [mmap, dio, expected] : cases) {
    row.fields["use_mmap"] = mmap;
    row.fields["use_direct_io"] = dio;
    auto mapped = map_llama_bench_row(row);
    ASSERT_TRUE(mapped && mapped->record);
    EXPECT_EQ(mapped->record->params.load_mode, expected) << "use_mmap=" << mmap << " use_direct_io=" << dio;
  }
  row.fields["load_mode"] = "mlock";  // a newer row's load_mode wins
  auto mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped && mapped->record);
  EXPECT_EQ(mapped->record->params.load_mode, "mlock");
}

TEST(LlamaBenchRecord, PpTgRowIsSkippedWithTheReason) {
  LlamaBenchRow row = pp_row();
  row.fields["n_gen"] = "4";
  auto mapped = map_llama_bench_row(row);
  ASSERT_TRUE(mapped);
  EXPECT_FALSE(mapped->record);
  EXPECT_NE(mapped->skipped_because.find("pp+tg"), std::string::npos);
}

TEST(LlamaBenchRecord, MissingOrBadFieldsNameTheLine) {
  LlamaBenchRow row = pp_row();
  row.fields.erase("n_prompt");
  auto missing = map_llama_bench_row(row);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "line 1: no n_prompt");
  row = pp_row();
  row.fields["n_threads"] = "four";
  auto bad = map_llama_bench_row(row);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "line 1: n_threads: 'four' is not an integer");
}

TEST(LlamaBenchRecord, CsvAndSqlRowsAreSummaryOnlyWithTheFilesMeanAndSd) {
  auto rows = parse_llama_bench_csv(as_csv(pp_row()));
  ASSERT_TRUE(rows && rows->size() == 1);
  auto mapped = map_llama_bench_row(rows->front());
  ASSERT_TRUE(mapped && mapped->record);
  const ThroughputResult& pp = *mapped->record->results.pp;
  EXPECT_TRUE(pp.summary_only);
  EXPECT_TRUE(pp.samples_ns.empty());
  EXPECT_EQ(pp.tps.mean, 19331.784324);
  EXPECT_EQ(pp.tps.stddev, 616.795445);
  EXPECT_EQ(pp.tps.n, 0u);  // the csv does not say how many repetitions
  EXPECT_TRUE(std::isnan(pp.tps.median));
  EXPECT_EQ(mapped->record->tags, (std::vector<std::string>{kLlamaBenchTag, kSummaryOnlyTag}));

  auto told = map_llama_bench_row(rows->front(), "", 2);  // import -r 2
  ASSERT_TRUE(told && told->record);
  EXPECT_EQ(told->record->results.pp->tps.n, 2u);
  EXPECT_EQ(told->record->params.repetitions, 2);
}

// llama-bench build 1026 (August 2023): model_type "LLaMA 7B mostly Q4_0", one boolean per
// backend instead of `backends`, no flash_attn, no n_ubatch (tests/data/compare/old2023.json).
TEST(LlamaBenchRecord, Build2023RowMapsMostlyBackendFlagsAndAbsentKnobs) {
  LlamaBenchRow row;
  row.line = 1;
  row.fields = {{"build_commit", "1f0bccb"},
                {"build_number", "1026"},
                {"cuda", "1"},
                {"opencl", "0"},
                {"metal", "0"},
                {"gpu_blas", "1"},
                {"blas", "1"},
                {"cpu_info", "AMD Ryzen 9 5950X 16-Core Processor"},
                {"gpu_info", "NVIDIA GeForce RTX 3090"},
                {"model_filename", "models/7B/ggml-model-q4_0.gguf"},
                {"model_type", "LLaMA 7B mostly Q4_0"},
                {"model_size", "3825065984"},
                {"model_n_params", "6738415616"},
                {"n_batch", "512"},
                {"n_threads", "16"},
                {"type_k", "f16"},
                {"type_v", "f16"},
                {"n_gpu_layers", "99"},
                {"n_prompt", "512"},
                {"n_gen", "0"},
                {"test_time", "2023-08-15T10:00:00Z"}};
  row.samples_ns = std::vector<int64_t>{226000000, 230800000, 228300000};
  auto mapped = map_llama_bench_row(row, "rig3090");
  ASSERT_TRUE(mapped && mapped->record) << (mapped ? mapped->skipped_because : mapped.error().message);
  const RunRecord& rec = *mapped->record;
  EXPECT_EQ(rec.model.file_type, "Q4_0");
  EXPECT_EQ(rec.model.arch, "llama");
  EXPECT_EQ(rec.machine.backends, (std::vector<std::string>{"CUDA", "BLAS"}));
  EXPECT_EQ(rec.params.flash_attn, "off");  // no flash attention before 2024, not today's "auto"
  EXPECT_EQ(rec.params.n_ubatch, 512);      // one batch size before n_ubatch
  EXPECT_EQ(rec.params.n_batch, 512);

  row.fields["backends"] = "CUDA";  // a row that has `backends` is read from it
  row.fields["flash_attn"] = "1";
  row.fields["n_ubatch"] = "256";
  auto newer = map_llama_bench_row(row, "rig3090");
  ASSERT_TRUE(newer && newer->record);
  EXPECT_EQ(newer->record->machine.backends, (std::vector<std::string>{"CUDA"}));
  EXPECT_EQ(newer->record->params.flash_attn, "on");
  EXPECT_EQ(newer->record->params.n_ubatch, 256);
}

TEST(LlamaBenchRows, SqlTableNamedTestBeforeAugust2025) {
  std::string sql = as_sql(pp_row());
  for (std::size_t at; (at = sql.find("llama_bench")) != std::string::npos;) sql.replace(at, 11, "test");
  auto rows = parse_llama_bench_sql(sql);
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->front().fields.at("avg_ts"), "19331.784324");
  // A table named test that is not llama-bench's (no build_commit, n_prompt, avg_ts) is not read.
  auto other = parse_llama_bench_sql("CREATE TABLE test (a INTEGER); INSERT INTO test VALUES (1);");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("no llama_bench table"), std::string::npos) << other.error().message;
}

TEST(LlamaBenchRecord, OneRunHasOneIdentityInEveryFormat) {
  const LlamaBenchRow json_row = pp_row();
  auto csv_rows = parse_llama_bench_csv(as_csv(json_row));
  auto sql_rows = parse_llama_bench_sql(as_sql(json_row));
  ASSERT_TRUE(csv_rows && sql_rows);
  const std::string id = llama_bench_record_id(json_row);
  EXPECT_EQ(llama_bench_record_id(csv_rows->front()), id);
  EXPECT_EQ(llama_bench_record_id(sql_rows->front()), id);
  LlamaBenchRow other = json_row;
  other.fields["test_time"] = "2026-11-29T15:09:42Z";
  EXPECT_NE(llama_bench_record_id(other), id);
  other = json_row;
  other.fields["avg_ts"] = "1.0";  // floating-point text is not part of the identity
  EXPECT_EQ(llama_bench_record_id(other), id);
}

TEST(LlamaBenchRecord, FileTypeNames) {
  EXPECT_EQ(file_type_from_model_type("llama ?B (guessed) all F32"), "F32");
  EXPECT_EQ(file_type_from_model_type("llama 8B Q4_K - Medium"), "Q4_K_M");
  EXPECT_EQ(file_type_from_model_type("llama 8B Q2_K - Medium"), "Q2_K");
  EXPECT_EQ(file_type_from_model_type("qwen2 7B Q8_0"), "Q8_0");
  EXPECT_EQ(file_type_from_model_type("llama 70B IQ3_S mix - 3.66 bpw"), "IQ3_M");
  EXPECT_EQ(file_type_from_model_type("gpt-oss 20B MXFP4 MoE"), "MXFP4_MOE");
  EXPECT_EQ(file_type_from_model_type("llama 8B something new"), "something new");
  EXPECT_EQ(file_type_from_model_type("llama"), "");
  EXPECT_EQ(file_type_from_model_type("LLaMA 7B mostly Q4_0"), "Q4_0");  // builds before 2024
  EXPECT_EQ(file_type_from_model_type("LLaMA 7B mostly Q4_K - Medium"), "Q4_K_M");
}

}  // namespace
}  // namespace rigbench::store

namespace rigbench::store {
namespace {

// A field of a llama-bench version other than v0.4.0 (faked: "n_spec_draft", which no knob
// declares) and build_number are kept; the unknown setting is part of compare's key, so two
// rows that differ only in it are two configurations, never pooled.
TEST(LlamaBenchRecord, FieldsNoKnobDeclaresAreKeptAndAnUnknownSettingKeepsRunsApart) {
  LlamaBenchRow row = pp_row();
  row.fields["n_spec_draft"] = "3";
  auto mapped = map_llama_bench_row(row, "rig");
  ASSERT_TRUE(mapped && mapped->record);
  const RunRecord& a = *mapped->record;
  EXPECT_EQ(a.source_fields.at("n_spec_draft"), "3");
  EXPECT_EQ(a.source_fields.at("build_number"), "1");
  EXPECT_FALSE(a.source_fields.count("avg_ns"));      // the results' statistics, held as samples
  EXPECT_FALSE(a.source_fields.count("n_threads"));   // a knob: params.n_threads
  EXPECT_TRUE(is_source_knob("n_spec_draft"));
  EXPECT_FALSE(is_source_knob("build_number"));
  EXPECT_NE(report::knobs_label(a).find("n_spec_draft=3"), std::string::npos) << report::knobs_label(a);
  EXPECT_EQ(report::knobs_label(a).find("build_number"), std::string::npos);
  // Stored and read back: the record's JSON (export) and the parts compare reads.
  const Json j = to_json(a);
  EXPECT_EQ(j["source_fields"]["n_spec_draft"], "3");
  auto back = from_json(j);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->source_fields, a.source_fields);
  const RecordParts parts = split_record(j);
  auto joined = join_parts(Json::parse(parts.setup), Json::parse(parts.figures));
  ASSERT_TRUE(joined);
  EXPECT_EQ(joined->source_fields, a.source_fields);

  row.fields["n_spec_draft"] = "5";
  auto other = map_llama_bench_row(row, "rig");
  ASSERT_TRUE(other && other->record);
  const std::vector<RunRecord> both = {a, *other->record};
  auto cmp = report::compare(both, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  ASSERT_EQ(cmp->rows.size(), 1u);
  EXPECT_EQ(cmp->rows[0].cells[0].n_configs, 2u);  // not pooled
}

}  // namespace
}  // namespace rigbench::store
