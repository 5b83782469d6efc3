// Import: formats told apart by content, every error naming the file and line, and records
// merged by identity (importing twice changes nothing); reading databases for compare/export.
#include "store/import.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <sstream>

#include "report/listings.h"
#include "store/llama_bench_record.h"
#include "store/record_json.h"
#include "store/record_sources.h"
#include "support/sample_record.h"
#include "support/temp_dir.h"

namespace rigbench::store {
namespace {

using testing::sample_record;
using testing::TempDir;
using testing::write_file;

std::string jsonl(const std::vector<RunRecord>& records) {
  std::string text;
  for (const RunRecord& r : records) text += to_json(r).dump() + "\n";
  return text;
}

constexpr const char* kLlamaBenchTgJsonl =
    R"({"build_commit": "80fb11ac", "cpu_info": "Test CPU", "gpu_info": "", "backends": "CPU", "model_filename": "m.gguf", "model_type": "llama 1B Q4_0", "model_size": 100, "model_n_params": 10, "n_threads": 4, "n_prompt": 0, "n_gen": 128, "n_depth": 0, "test_time": "2026-01-01T00:00:00Z", "avg_ns": 1500000000, "stddev_ns": 0, "avg_ts": 85.3, "stddev_ts": 1.0, "samples_ns": [ 1000000000, 2000000000 ],"samples_ts": [ 128.0, 64.0 ]})";

TEST(Import, RigbenchJsonlAndJson) {
  TempDir dir;
  write_file(dir.file("a.jsonl"), jsonl({sample_record("a1"), sample_record("a2")}));
  auto batch = read_import_file(dir.file("a.jsonl"));
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->format, ImportFormat::kRigbenchJsonl);
  ASSERT_EQ(batch->records.size(), 2u);
  EXPECT_EQ(batch->records[1].record_id, "a2");
  EXPECT_EQ(batch->records[0].model.name, sample_record().model.name);

  write_file(dir.file("a.json"), "\xEF\xBB\xBF[" + to_json(sample_record("j1")).dump(2) + "]");
  auto array = read_import_file(dir.file("a.json"));
  ASSERT_TRUE(array) << array.error().message;
  EXPECT_EQ(array->format, ImportFormat::kRigbenchJson);
  EXPECT_EQ(array->records.size(), 1u);
}

TEST(Import, LlamaBenchJsonlWithHostname) {
  TempDir dir;
  write_file(dir.file("lb.jsonl"), std::string(kLlamaBenchTgJsonl) + "\n");
  auto batch = read_import_file(dir.file("lb.jsonl"), ImportOptions{"rig-b"});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->format, ImportFormat::kLlamaBenchJsonl);
  ASSERT_EQ(batch->records.size(), 1u);
  const RunRecord& r = batch->records[0];
  EXPECT_EQ(r.machine.hostname, "rig-b");
  EXPECT_EQ(r.model.file_type, "Q4_0");
  ASSERT_TRUE(r.results.tg);
  EXPECT_DOUBLE_EQ(r.results.tg->tps.mean, 96);  // (128 + 64) / 2
}

TEST(Import, ErrorsNameTheFileAndLine) {
  TempDir dir;
  struct Case {
    std::string name, text, message;
  };
  const std::vector<Case> cases = {
      {"bad.jsonl", jsonl({sample_record("x")}) + "{not json\n", "line 2: not JSON"},
      {"mixed.jsonl", jsonl({sample_record("x")}) + kLlamaBenchTgJsonl + "\n", "line 2: neither a rigbench record"},
      {"nokey.jsonl",
       R"({"schema_version": 1, "record_id": "x"})"
       "\n",
       "line 1: "},
      {"rig.csv", "model_name,model_file_type,pp_avg_tps\nm,F32,1\n", "rigbench CSV holds no raw samples"},
      {"what.txt", "hello\n", "unknown format"},
      {"array.json", "[1, 2]", "element 1: neither"},
  };
  for (const Case& c : cases) {
    write_file(dir.file(c.name), c.text);
    auto batch = read_import_file(dir.file(c.name));
    ASSERT_FALSE(batch) << c.name;
    EXPECT_EQ(batch.error().code, ErrorCode::kInvalidInput) << c.name;
    EXPECT_TRUE(batch.error().message.starts_with("import '" + dir.file(c.name) + "': ")) << batch.error().message;
    EXPECT_NE(batch.error().message.find(c.message), std::string::npos) << batch.error().message;
  }
  auto missing = read_import_file(dir.file("none.jsonl"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

// Issue 37: what a file import cannot read is, and which subcommand takes it: a GGUF model, a
// vLLM benchmark result (one pretty-printed object, as vLLM writes it), another JSON object.
TEST(Import, AModelOrAnotherToolsJsonIsNamedWithTheSubcommandThatTakesIt) {
  TempDir dir;
  write_file(dir.file("m.gguf"), std::string("GGUF\x03\0\0\0", 8) + std::string(64, '\0'));
  auto gguf = read_import_file(dir.file("m.gguf"));
  ASSERT_FALSE(gguf);
  EXPECT_EQ(gguf.error().message, "import '" + dir.file("m.gguf") +
                                      "': a GGUF model file, not results: `rigbench bench FILE` measures it (`rigbench "
                                      "embed FILE` an embedding model), `rigbench fit FILE` plans its memory; import "
                                      "takes their results and llama-bench's output");
  write_file(dir.file("vllm.json"), R"({
  "date": "20250101-120000",
  "backend": "vllm",
  "model_id": "Qwen/Qwen2.5-7B-Instruct",
  "num_prompts": 100,
  "completed": 100,
  "request_throughput": 4.2,
  "output_throughput": 812.5,
  "mean_ttft_ms": 48.1,
  "median_ttft_ms": 45.0,
  "mean_tpot_ms": 11.2
}
)");
  auto vllm = read_import_file(dir.file("vllm.json"));
  ASSERT_FALSE(vllm);
  EXPECT_NE(vllm.error().message.find("line 1: a vLLM benchmark result"), std::string::npos) << vllm.error().message;
  EXPECT_NE(vllm.error().message.find("`rigbench serve-bench URL`"), std::string::npos) << vllm.error().message;
  write_file(dir.file("other.jsonl"), "{\"a\": 1, \"b\": 2}\n");
  auto other = read_import_file(dir.file("other.jsonl"));
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("line 1: a JSON object with the keys a, b: neither a rigbench record nor a "
                                       "llama-bench row"),
            std::string::npos)
      << other.error().message;
}

// Issue 37 (llama.cpp #15554): a backend's log on standard output before the JSON is skipped,
// counted in a note; line numbers stay the file's. Without a machine name the rows are named
// from cpu_info and gpu_info ("unnamed" without either), in one note.
TEST(Import, LogLinesBeforeTheJsonAreSkippedAndTheMachineIsNamedFromTheFile) {
  TempDir dir;
  write_file(dir.file("lb.jsonl"), "ggml_vulkan: Found 1 Vulkan devices:\nggml_vulkan: 0 = Test GPU | uma: 0\n\n" +
                                       std::string(kLlamaBenchTgJsonl) + "\n{broken\n");
  auto broken = read_import_file(dir.file("lb.jsonl"));
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().message.find("line 5: not JSON"), std::string::npos) << broken.error().message;
  write_file(dir.file("lb.jsonl"), "ggml_vulkan: Found 1 Vulkan devices:\nggml_vulkan: 0 = Test GPU | uma: 0\n" +
                                       std::string(kLlamaBenchTgJsonl) + "\n");
  auto batch = read_import_file(dir.file("lb.jsonl"));
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->format, ImportFormat::kLlamaBenchJsonl);
  ASSERT_EQ(batch->records.size(), 1u);
  EXPECT_EQ(batch->records[0].machine.hostname, "Test CPU");
  EXPECT_EQ(batch->notes,
            (std::vector<std::string>{
                "skipped 2 lines before the JSON, a log printed on standard output (the first: 'ggml_vulkan: Found 1 "
                "Vulkan devices:')",
                "llama-bench output names no machine: named 'Test CPU' from its cpu_info and gpu_info (--machine NAME "
                "names it)"}));
  MachineInfo none;
  EXPECT_EQ(llama_bench_machine_name(none), "unnamed");
  none.gpus.push_back(DeviceInfo{});
  none.gpus.back().description = "NVIDIA GeForce RTX 3090";
  EXPECT_EQ(llama_bench_machine_name(none), "NVIDIA GeForce RTX 3090");
  none.cpu = "AMD EPYC";
  EXPECT_EQ(llama_bench_machine_name(none), "AMD EPYC + NVIDIA GeForce RTX 3090");
}

TEST(Import, EmptyFileIsAnError) {
  TempDir dir;
  for (const char* text : {"", "\n\n"}) {
    write_file(dir.file("empty.jsonl"), text);
    auto batch = read_import_file(dir.file("empty.jsonl"));
    ASSERT_FALSE(batch);
    EXPECT_EQ(batch.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(batch.error().message, "import '" + dir.file("empty.jsonl") + "': empty file; nothing to import");
  }
}

TEST(Import, LlamaBenchMarkdownIsReadWithTheFlagsItLacks) {
  TempDir dir;
  write_file(dir.file("lb.md"),
             "Posted from my box:\n\n| model | size | params | backend | ngl | test | t/s |\n| --- | --: | --: | --- | --: "
             "| --: | --: |\n| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Metal | 99 | tg128 | 40.12 ± 0.03 |\n");
  ImportOptions options{"mac", 0, "Apple M2 Pro", "https://example.org/post"};
  auto batch = read_import_file(dir.file("lb.md"), options);
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->format, ImportFormat::kLlamaBenchMarkdown);
  EXPECT_EQ(format_name(batch->format), "llama-bench markdown");
  ASSERT_EQ(batch->records.size(), 1u);
  EXPECT_EQ(batch->records[0].machine.gpus.at(0).description, "Apple M2 Pro");
  EXPECT_EQ(batch->records[0].source_fields.at("source_url"), "https://example.org/post");
  EXPECT_DOUBLE_EQ(batch->records[0].results.tg->tps.mean, 40.12);
}

// llama-bench's SQL output before August 2025 named its table `test`
// (tests/data/compare/old2023_table_test.sql, and the same loaded into an SQLite file).
TEST(Import, LlamaBenchTableNamedTestFromBefore2025) {
  for (const char* name : {"old2023_table_test.sql", "old2023_table_test.sqlite"}) {
    auto batch = read_import_file(std::string(RIGBENCH_TEST_DATA) + "/compare/" + name);
    ASSERT_TRUE(batch) << batch.error().message;
    EXPECT_EQ(batch->records.size(), 2u) << name;
    EXPECT_EQ(batch->format,
              std::string(name).ends_with(".sql") ? ImportFormat::kLlamaBenchSql : ImportFormat::kLlamaBenchDb);
    EXPECT_EQ(batch->records[1].results.tg->tps.mean, 43.09);
    EXPECT_EQ(batch->records[1].results.tg->tps.stddev, 0.41);
  }
}

TEST(Import, SavingTwiceChangesNothing) {
  TempDir dir;
  write_file(dir.file("a.jsonl"), jsonl({sample_record("a1"), sample_record("a2"), sample_record("a1")}));
  auto db = SqliteStore::open(dir.file("target.db"));
  ASSERT_TRUE(db);
  auto batch = read_import_file(dir.file("a.jsonl"));
  ASSERT_TRUE(batch);
  auto first = save_batch(**db, *batch);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->added, 2u);
  EXPECT_EQ(first->already_stored, 1u);  // the repeated line
  auto second = save_batch(**db, *batch);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->added, 0u);
  EXPECT_EQ(second->already_stored, 3u);
  EXPECT_EQ((*db)->load_all()->size(), 2u);
}

// The same llama-bench run as kLlamaBenchTgJsonl, as its csv output writes it: no raw samples.
constexpr const char* kLlamaBenchTgCsv =
    "build_commit,cpu_info,gpu_info,backends,model_filename,model_type,model_size,model_n_params,n_threads,"
    "n_prompt,n_gen,n_depth,test_time,avg_ns,stddev_ns,avg_ts,stddev_ts\n"
    "\"80fb11ac\",\"Test CPU\",\"\",\"CPU\",\"m.gguf\",\"llama 1B Q4_0\",\"100\",\"10\",\"4\",\"0\",\"128\",\"0\","
    "\"2026-01-01T00:00:00Z\",\"1500000000\",\"0\",\"85.3\",\"1.0\"\n";

// Which of two files of one llama-bench run came first decided whether its raw samples were
// kept: the csv's summary, stored first, left the jsonl's samples out as "already stored".
TEST(Import, TheCopyWithSamplesReplacesASummaryOnlyOneInEitherOrder) {
  TempDir dir;
  write_file(dir.file("lb.csv"), kLlamaBenchTgCsv);
  write_file(dir.file("lb.jsonl"), std::string(kLlamaBenchTgJsonl) + "\n");
  auto csv = read_import_file(dir.file("lb.csv"), ImportOptions{"rig-b"});
  auto with_samples = read_import_file(dir.file("lb.jsonl"), ImportOptions{"rig-b"});
  ASSERT_TRUE(csv) << csv.error().message;
  ASSERT_TRUE(with_samples) << with_samples.error().message;
  ASSERT_EQ(csv->records.size(), 1u);
  ASSERT_EQ(with_samples->records.size(), 1u);
  ASSERT_EQ(csv->records[0].record_id, with_samples->records[0].record_id);  // one run

  for (const bool csv_first : {true, false}) {
    SCOPED_TRACE(csv_first ? "csv, then jsonl" : "jsonl, then csv");
    auto db = SqliteStore::open(dir.file(csv_first ? "csv_first.db" : "jsonl_first.db"));
    ASSERT_TRUE(db);
    auto first = save_batch(**db, csv_first ? *csv : *with_samples);
    auto second = save_batch(**db, csv_first ? *with_samples : *csv);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->added, 1u);
    EXPECT_EQ(second->added, 0u);
    EXPECT_EQ(second->samples_added, csv_first ? 1u : 0u);
    EXPECT_EQ(second->already_stored, csv_first ? 0u : 1u);
    auto stored = (*db)->load_all();
    ASSERT_TRUE(stored);
    ASSERT_EQ(stored->size(), 1u);
    ASSERT_TRUE(stored->front().results.tg);
    EXPECT_EQ(stored->front().results.tg->samples_ns, (std::vector<int64_t>{1000000000, 2000000000}));
    auto again = save_batch(**db, *with_samples);  // a third time: nothing changes
    ASSERT_TRUE(again);
    EXPECT_EQ(again->already_stored, 1u);
    EXPECT_EQ(again->samples_added, 0u);
    // The import table says what happened: the stored summary gained its samples, nothing lost.
    std::ostringstream md;
    report::print_import({csv_first ? *with_samples : *csv}, {*second}, report::OutputFormat::kMarkdown, md);
    EXPECT_NE(md.str().find("| gained samples |"), std::string::npos) << md.str();
    EXPECT_EQ(md.str().find("nothing was lost") != std::string::npos, csv_first) << md.str();
  }
}

TEST(Import, AnotherMachinesDatabase) {
  TempDir dir;
  {
    auto other = SqliteStore::open(dir.file("other.db"));
    ASSERT_TRUE(other);
    RunRecord r = sample_record("o1");
    r.machine.hostname = "other";
    ASSERT_TRUE((*other)->save(r));
  }
  auto batch = read_import_file(dir.file("other.db"));
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->format, ImportFormat::kRigbenchDb);
  ASSERT_EQ(batch->records.size(), 1u);
  EXPECT_EQ(batch->records[0].machine.hostname, "other");
  EXPECT_EQ(batch->records[0].results.pp->samples_ns, sample_record().results.pp->samples_ns);
}

TEST(Import, SqliteFileWithoutKnownTables) {
  TempDir dir;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(dir.file("x.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE photos (id INTEGER)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto batch = read_import_file(dir.file("x.db"));
  ASSERT_FALSE(batch);
  EXPECT_NE(batch.error().message.find("neither rigbench's table (runs) nor llama-bench's"), std::string::npos)
      << batch.error().message;
}

TEST(RecordSources, MissingDatabaseIsNotCreated) {
  TempDir dir;
  auto records = load_records({dir.file("none.db")});
  ASSERT_FALSE(records);
  EXPECT_EQ(records.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.db")));
}

TEST(RecordSources, SeveralDatabasesMergeByIdentity) {
  TempDir dir;
  for (const char* name : {"a.db", "b.db"}) {
    auto db = SqliteStore::open(dir.file(name));
    ASSERT_TRUE(db);
    ASSERT_TRUE((*db)->save(sample_record("shared")));
    ASSERT_TRUE((*db)->save(sample_record(std::string("only-") + name)));
  }
  auto records = load_records({dir.file("a.db"), dir.file("b.db")});
  ASSERT_TRUE(records) << records.error().message;
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[0].record_id, "shared");
  EXPECT_EQ((*records)[2].record_id, "only-b.db");
}

}  // namespace
}  // namespace rigbench::store
