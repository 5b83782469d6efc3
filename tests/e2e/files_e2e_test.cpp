// End-to-end tests of what rigbench writes and where (issue 10, items 1, 8, 9, 12 and 14):
// `-o` is a format everywhere and files go to --output-file; Ctrl-C leaves no partial file
// (synth and the default model's first write); a path that cannot be written says why;
// `cost --run` says which run it priced; the readers' --model/--machine/--tag filters.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "support/golden.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

using testing::run_process_signal_when;

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  return names;
}

// One real run of the shipped model (a tg test only: one record), as a jsonl record.
json one_record() {
  const ProcessResult b = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r", "1",
                                       "-t", "1", "--no-db", "--energy", "off", "-o", "jsonl"});
  EXPECT_EQ(b.exit_code, 0) << b.err;
  return json::parse(trim(b.out));
}

// Three records imported into `db`: rig-a (tag night), rig-b (tag day), and another model
// on rig-b (tag day).
void make_database(const TempDir& dir, const std::string& db) {
  json rec = one_record();
  std::string text;
  const std::string id = rec["record_id"].get<std::string>().substr(0, 31);
  for (const char* host : {"rig-a", "rig-b"}) {
    rec["machine"]["hostname"] = host;
    rec["tags"] = json::array({std::string(host) == "rig-a" ? "night" : "day"});
    rec["record_id"] = id + (std::string(host) == "rig-a" ? "a" : "b");
    text += rec.dump() + "\n";
  }
  rec["model"]["name"] = "OtherModel";
  rec["record_id"] = id + "c";
  text += rec.dump() + "\n";
  testing::write_file(dir.file("runs.jsonl"), text);
  const ProcessResult imp = run_process({RIGBENCH_BIN, "import", "--db", db, dir.file("runs.jsonl")});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
}

// ---- item 1: -o is a format, files go to --output-file -------------------------------

TEST(FilesE2E, OIsAFormatAndAFileNameSaysUseOutputFile) {
  TempDir dir;
  const ProcessResult synth =
      run_process({RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "-o", dir.file("x.gguf")});
  EXPECT_EQ(synth.exit_code, 2);
  EXPECT_EQ(lines(synth.err), 1) << synth.err;
  EXPECT_NE(synth.err.find("': unknown format (md, csv, json, jsonl); -o takes a format: to write a file use "
                           "--output-file\n"),
            std::string::npos)
      << synth.err;
  const ProcessResult report = run_process({RIGBENCH_BIN, "report", "-o", "-"});
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_EQ(report.err,
            "rigbench: error: -o/--output '-': unknown format (html); -o takes a format: to write a file use "
            "--output-file\n");
  const ProcessResult plain = run_process({RIGBENCH_BIN, "report", "-o", "pdf"});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_EQ(plain.err, "rigbench: error: -o/--output 'pdf': unknown format (html)\n");
  EXPECT_EQ(plain.err.find("--output-file"), std::string::npos) << plain.err;  // not a file name: no file hint
  EXPECT_TRUE(fs::is_empty(dir.path()));

  const ProcessResult json_summary = run_process({RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "--header-only",
                                                  "--output-file", dir.file("h.gguf"), "-o", "json"});
  ASSERT_EQ(json_summary.exit_code, 0) << json_summary.err;
  EXPECT_EQ(json::parse(json_summary.out)["path"], dir.file("h.gguf"));
  EXPECT_TRUE(fs::exists(dir.file("h.gguf")));
  EXPECT_FALSE(fs::exists("json"));
}

// A new user found `hw -o jsonl` refused while the other subcommands took it, and two shapes of
// the bad -o message ("--output: 'x' is not an output format (...)" from synth, report and
// serve-bench). Every subcommand that prints results takes md, csv, json and jsonl (bench and
// export also sql; report writes its page: html), and says a bad value in one shape.
TEST(FilesE2E, EverySubcommandTakesTheSameFormatsAndRefusesABadOneInOneShape) {
  TempDir dir;
  const std::string model = RIGBENCH_TEST_MODEL;
  const std::vector<std::vector<std::string>> commands = {
      {"bench", model, "--no-db"},
      {"embed", model, "--no-db"},
      {"serve-bench", "http://127.0.0.1:9"},
      {"synth", "--preset", "SmolLM2-135M", "--header-only", "--output-file", dir.file("s.gguf")},
      {"presets"},
      {"fit", model},
      {"hw"},
      {"devices"},
      {"cost", "--tps", "10", "--watts", "100", "--price", "0.3"},
      {"import", "--db", dir.file("i.db"), dir.file("none.jsonl")},
      {"export", "--db", dir.file("none.db")},
      {"compare", "--db", dir.file("none.db")},
      {"report", "--db", dir.file("none.db")},
  };
  for (const auto& c : commands) {
    const std::string& sub = c[0];
    const std::string formats = sub == "report"                     ? "html"
                                : sub == "bench" || sub == "export" ? "md, csv, json, jsonl, sql"
                                                                    : "md, csv, json, jsonl";
    std::vector<std::string> args = {RIGBENCH_BIN};
    args.insert(args.end(), c.begin(), c.end());
    args.insert(args.end(), {"-o", "xml"});
    const ProcessResult bad = run_process(args);
    EXPECT_EQ(bad.exit_code, 2) << sub << ": " << bad.err;
    EXPECT_EQ(bad.err, "rigbench: error: -o/--output 'xml': unknown format (" + formats + ")\n") << sub;
    args.back() = "out.txt";
    const ProcessResult file = run_process(args);
    EXPECT_EQ(file.exit_code, 2) << sub << ": " << file.err;
    const std::string advice =
        sub == "report" || sub == "synth" ? "to write a file use --output-file" : "to write a file, redirect (> FILE)";
    EXPECT_EQ(file.err, "rigbench: error: -o/--output 'out.txt': unknown format (" + formats +
                            "); -o takes a format: " + advice + "\n")
        << sub;
  }
  // The formats hw and synth did not take: jsonl is json's object on one line.
  const ProcessResult hw = run_process({RIGBENCH_BIN, "hw", "-o", "jsonl"});
  ASSERT_EQ(hw.exit_code, 0) << hw.err;
  ASSERT_EQ(lines(hw.out), 1) << hw.out;
  EXPECT_GT(json::parse(hw.out)["cores"].get<int>(), 0);
  for (const char* format : {"jsonl", "csv"}) {
    const ProcessResult s =
        run_process({RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "--header-only", "--output-file",
                     dir.file(std::string("h-") + format + ".gguf"), "-o", format});
    ASSERT_EQ(s.exit_code, 0) << s.err;
    if (std::string(format) == "jsonl") {
      ASSERT_EQ(lines(s.out), 1) << s.out;
      EXPECT_EQ(json::parse(s.out)["path"], dir.file("h-jsonl.gguf"));
    } else {
      ASSERT_EQ(lines(s.out), 2) << s.out;
      EXPECT_EQ(s.out.rfind("path,preset,arch,file_type,size_bytes,", 0), 0u) << s.out;
      EXPECT_NE(s.out.find("\n" + dir.file("h-csv.gguf") + ",SmolLM2-135M,llama,"), std::string::npos) << s.out;
    }
  }
}

TEST(FilesE2E, ReportToStandardOutputAndToTheDefaultFile) {
  TempDir dir;
  make_database(dir, dir.file("r.db"));
  if (HasFatalFailure()) return;
  const ProcessResult out = run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "--output-file", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_FALSE(fs::exists("-"));
  // The default file name, in the working directory.
  const fs::path cwd = fs::current_path();
  fs::current_path(dir.path());
  const ProcessResult def = run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "-o", "html"});
  fs::current_path(cwd);
  ASSERT_EQ(def.exit_code, 0) << def.err;
  EXPECT_EQ(def.out, "rigbench-report.html\n");
  EXPECT_TRUE(fs::exists(dir.file("rigbench-report.html")));
}

// ---- item 9: path errors say why, with a hint ---------------------------------------

TEST(FilesE2E, ReportPathErrorsSayWhy) {
  TempDir dir;
  make_database(dir, dir.file("r.db"));
  if (HasFatalFailure()) return;
  const ProcessResult is_dir =
      run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "--output-file", dir.path().string() + "/"});
  EXPECT_EQ(is_dir.exit_code, 1);
  EXPECT_EQ(lines(is_dir.err), 1) << is_dir.err;
  EXPECT_NE(is_dir.err.find("rigbench: error: --output-file '" + dir.path().string() +
                            "/': is a directory; name the HTML file"),
            std::string::npos)
      << is_dir.err;
  testing::write_file(dir.file("file"), "x");
  const ProcessResult not_dir =
      run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "--output-file", dir.file("file/r.html")});
  EXPECT_EQ(not_dir.exit_code, 1);
  EXPECT_NE(not_dir.err.find("': not a directory: " + dir.file("file")), std::string::npos) << not_dir.err;
  for (const ProcessResult* r : {&is_dir, &not_dir}) EXPECT_EQ(r->err.find("Success"), std::string::npos) << r->err;
}

// A new user found `bench --db a/b/x.db` made the missing folders while `report --output-file`
// refused them ("no such directory"): every file rigbench writes gets its missing folders made
// (the results database, report's page, synth's GGUF, serve-bench's --save-responses), as the
// default database's folder always was. A reader given a database that is not there refuses
// it with one message in every subcommand, and makes nothing.
TEST(FilesE2E, EveryFileWrittenGetsItsMissingFoldersAndAReaderMakesNone) {
  TempDir dir;
  const std::string db = dir.file("runs/2026/r.db");
  make_database(dir, db);  // import --db: its folders made
  if (HasFatalFailure()) return;
  const ProcessResult report =
      run_process({RIGBENCH_BIN, "report", "--db", db, "--output-file", dir.file("out/html/r.html")});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(fs::is_regular_file(dir.file("out/html/r.html")));
  const ProcessResult synth = run_process({RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "--header-only",
                                           "--output-file", dir.file("models/synth/s.gguf")});
  EXPECT_EQ(synth.exit_code, 0) << synth.err;
  EXPECT_TRUE(fs::is_regular_file(dir.file("models/synth/s.gguf")));
  const std::string none = dir.file("nowhere/r.db");
  const std::string want = "rigbench: error: database '" + none +
                           "': no such file (run rigbench bench or rigbench import first, or give --db PATH)\n";
  for (const std::vector<std::string>& c : {std::vector<std::string>{"compare"},
                                            {"report", "--output-file", "-"},
                                            {"export"},
                                            {"cost", "--run", "latest"}}) {
    std::vector<std::string> args = {RIGBENCH_BIN};
    args.insert(args.end(), c.begin(), c.end());
    args.insert(args.end(), {"--db", none});
    const ProcessResult r = run_process(args);
    EXPECT_EQ(r.exit_code, 1) << c[0] << ": " << r.err;
    EXPECT_EQ(r.err, want) << c[0];
  }
  EXPECT_FALSE(fs::exists(dir.file("nowhere")));
}

TEST(FilesE2E, SynthPathErrorsSayWhyAndWriteNothing) {
  TempDir dir;
  const ProcessResult is_dir = run_process(
      {RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "--header-only", "--output-file", dir.path().string() + "/"});
  EXPECT_EQ(is_dir.exit_code, 1);
  EXPECT_EQ(lines(is_dir.err), 1) << is_dir.err;
  EXPECT_NE(
      is_dir.err.find("--output-file '" + dir.path().string() + "/': is a directory; name the .gguf file to write"),
      std::string::npos)
      << is_dir.err;
  testing::write_file(dir.file("file"), "x");
  const ProcessResult not_dir = run_process(
      {RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "--header-only", "--output-file", dir.file("file/x.gguf")});
  EXPECT_EQ(not_dir.exit_code, 1);
  EXPECT_NE(not_dir.err.find("': not a directory: " + dir.file("file")), std::string::npos) << not_dir.err;
  EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{"file"});
}

// A read-only database folder: as root (who may write anywhere) the binary runs as nobody.
TEST(FilesE2E, ReadOnlyDatabaseFolderSaysPermissionDeniedAndWhatToDo) {
  TempDir dir;
  const std::string ro = dir.file("ro");
  fs::create_directory(ro);
  chmod(dir.path().c_str(), 0755);
  chmod(ro.c_str(), 0555);
  std::vector<std::string> argv;
  if (geteuid() == 0) {
    if (!fs::exists("/usr/bin/setpriv"))
      GTEST_SKIP() << "running as root without setpriv: cannot drop the right to write";
    argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  }
  // The model, where nobody can read it wherever the checkout lives (a clone under a 0700
  // mktemp folder or /root is closed to nobody).
  const std::string model = dir.file("m.gguf");
  fs::copy_file(RIGBENCH_TEST_MODEL, model);
  chmod(model.c_str(), 0644);
  for (const std::string a : {std::string(RIGBENCH_BIN), std::string("bench"), model, std::string("-r"),
                              std::string("1"), std::string("--db"), ro + "/results.db"}) {
    argv.push_back(a);
  }
  const ProcessResult r = run_process(argv);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("rigbench: error: database '" + ro + "/results.db': permission denied: cannot create files in " +
                       ro + "; use --db PATH or --no-db"),
            std::string::npos)
      << r.err;
  // A folder to create inside it: the same reason, naming both.
  argv.back() = ro + "/sub/results.db";
  const ProcessResult sub = run_process(argv);
  EXPECT_EQ(sub.exit_code, 1) << sub.err;
  EXPECT_NE(sub.err.find("database '" + ro + "/sub/results.db': permission denied: cannot create " + ro + "/sub in " +
                         ro + "; use --db PATH or --no-db"),
            std::string::npos)
      << sub.err;
  EXPECT_TRUE(fs::is_empty(ro));
  // A model in a folder closed to this user: the reason, not "no such file".
  if (geteuid() == 0) {
    const std::string closed = dir.file("closed");
    fs::create_directory(closed);
    fs::copy_file(RIGBENCH_TEST_MODEL, closed + "/m.gguf");
    chmod(closed.c_str(), 0700);
    std::vector<std::string> as_nobody(argv.begin(), argv.begin() + 5);
    for (const std::string a :
         {std::string(RIGBENCH_BIN), std::string("bench"), closed + "/m.gguf", std::string("--no-db")}) {
      as_nobody.push_back(a);
    }
    const ProcessResult hidden = run_process(as_nobody);
    EXPECT_EQ(hidden.exit_code, 1) << hidden.err;
    EXPECT_EQ(hidden.err, "rigbench: error: model '" + closed + "/m.gguf': cannot reach it: permission denied\n");
  }
}

// A database this user may only read: compare, export, report and import read it as they read
// any (they only read). Before, each said "schema version -1 is not a rigbench database's".
// As root (who may write anywhere) the binary runs as nobody.
TEST(FilesE2E, ReadOnlyDatabaseIsReadByEveryReader) {
  TempDir dir;
  std::vector<std::string> as_user;
  if (geteuid() == 0) {
    if (!fs::exists("/usr/bin/setpriv"))
      GTEST_SKIP() << "running as root without setpriv: cannot drop the right to write";
    as_user = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  }
  chmod(dir.path().c_str(), 0755);
  // A read-only folder (the file in it writable: no matter) and a read-only file in a folder
  // this user may write (which is the user's own).
  const std::string ro = dir.file("ro"), rw = dir.file("rw");
  fs::create_directory(ro);
  fs::create_directory(rw);
  make_database(dir, ro + "/results.db");
  if (HasFatalFailure()) return;
  fs::copy_file(ro + "/results.db", rw + "/results.db");
  if (geteuid() == 0) {
    ASSERT_EQ(chown(rw.c_str(), 65534, 65534), 0);
    ASSERT_EQ(chown((rw + "/results.db").c_str(), 65534, 65534), 0);
  }
  chmod(ro.c_str(), 0555);
  chmod((rw + "/results.db").c_str(), 0444);
  const std::string before = testing::read_file(ro + "/results.db");
  std::vector<std::string> probe = as_user;
  probe.insert(probe.end(), {"/usr/bin/test", "-r", RIGBENCH_TEST_DATA "/../../data/report/template.html"});
  const bool report_readable = as_user.empty() || run_process(probe).exit_code == 0;
  if (!report_readable) std::cerr << "note: the checkout is not readable by uid 65534: report's step left out\n";
  for (const std::string& db : {ro + "/results.db", rw + "/results.db"}) {
    SCOPED_TRACE(db);
    auto run = [&](std::vector<std::string> args) {
      std::vector<std::string> argv = as_user;
      argv.push_back(RIGBENCH_BIN);
      argv.insert(argv.end(), args.begin(), args.end());
      return run_process(argv);
    };
    const ProcessResult cmp = run({"compare", "--db", db, "-o", "json"});
    ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
    EXPECT_NE(cmp.out.find("rig-a"), std::string::npos);
    const ProcessResult exp = run({"export", "--db", db, "-o", "jsonl"});
    ASSERT_EQ(exp.exit_code, 0) << exp.err;
    EXPECT_EQ(lines(exp.out), 3) << exp.out;
    // report reads its page template from the checkout: where the checkout is in a folder the
    // other user may not enter (a clone under `mktemp -d`, mode 0700), it cannot, whatever the
    // database; that step is then left out, and said.
    if (report_readable) {
      const ProcessResult rep = run({"report", "--db", db, "--output-file", "-"});
      ASSERT_EQ(rep.exit_code, 0) << rep.err;
      EXPECT_EQ(rep.out.rfind("<!DOCTYPE html>", 0), 0u);
    }
    // import reads it as a source, into a database this user may write.
    const ProcessResult imp = run({"import", db, "--db", rw + "/copy.db", "-o", "json"});
    ASSERT_EQ(imp.exit_code, 0) << imp.err;
    EXPECT_NE(imp.out.find("\"records\": 3"), std::string::npos) << imp.out;
  }
  // Nothing was made in the read-only folder, nor changed in the file.
  EXPECT_EQ(entries(ro), std::vector<std::string>{"results.db"});
  EXPECT_EQ(testing::read_file(ro + "/results.db"), before);
  chmod(ro.c_str(), 0755);
}

// A file given to --db that is no SQLite database: one line saying what it is, exit 1.
TEST(FilesE2E, ATextOrJsonFileGivenToDbIsSaidToBeOne) {
  TempDir dir;
  testing::write_file(dir.file("notes.txt"), "hello\n");
  testing::write_file(dir.file("runs.jsonl"), "{\"record_id\": \"a\"}\n");
  for (const std::string sub : {"compare", "export", "report"}) {
    SCOPED_TRACE(sub);
    auto run = [&](const std::string& db) {
      std::vector<std::string> argv = {RIGBENCH_BIN, sub, "--db", db};
      if (sub == "report") argv.insert(argv.end(), {"--output-file", "-"});
      return run_process(argv);
    };
    const ProcessResult txt = run(dir.file("notes.txt"));
    EXPECT_EQ(txt.exit_code, 1);
    EXPECT_EQ(txt.err, "rigbench: error: database '" + dir.file("notes.txt") + "': a text file, not an SQLite database\n");
    const ProcessResult jl = run(dir.file("runs.jsonl"));
    EXPECT_EQ(jl.exit_code, 1);
    EXPECT_EQ(jl.err, "rigbench: error: database '" + dir.file("runs.jsonl") +
                          "': a JSON or JSON lines file, not an SQLite database (rigbench import reads it into one)\n");
  }
}

// ---- item 8: Ctrl-C leaves no partial file --------------------------------------------

TEST(FilesE2E, InterruptedSynthRemovesItsPartialFile) {
  for (const int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    TempDir dir;
    const std::string path = dir.file("big.gguf");
    // An 807 MB file, several seconds to write: the signal comes once the partial file has data.
    bool ready = false;
    const ProcessResult r = run_process_signal_when(
        {RIGBENCH_BIN, "synth", "--preset", "Llama-3.2-1B", "--quant", "Q4_K_M", "--output-file", path}, sig,
        [&](const std::string&) {
          std::error_code ec;
          return fs::file_size(path + ".partial", ec) > (16u << 20) && !ec;
        },
        ready);
    ASSERT_TRUE(ready) << "the partial file never grew: " << r.err;
    EXPECT_EQ(r.exit_code, 128 + sig) << r.err;
    EXPECT_NE(r.err.find("rigbench: interrupted: '" + path + "' not written (partial file removed)"), std::string::npos)
        << r.err;
    EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{}) << "left behind";
  }
}

TEST(FilesE2E, InterruptedDefaultModelWriteLeavesNothingInTheCache) {
  TempDir dir;
  const char* old_cache = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old_cache ? old_cache : "";
  setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
  const std::string models = dir.file("cache/rigbench/models");
  bool ready = false;
  const ProcessResult r = run_process_signal_when(
      {RIGBENCH_BIN, "bench", "--no-db", "-r", "1", "-p", "16", "-n", "4"}, SIGINT,
      [&](const std::string& err) {
        if (err.find("writing the default model") == std::string::npos) return false;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(models, ec)) {
          if (e.path().extension() == ".partial" && fs::file_size(e.path(), ec) > (16u << 20)) return true;
        }
        return false;
      },
      ready);
  if (old_cache) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
  ASSERT_TRUE(ready) << "the default model's partial file never grew: " << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("partial file removed"), std::string::npos) << r.err;
  for (const std::string& name : entries(dir.file("cache"))) {
    EXPECT_EQ(name.find(".gguf"), std::string::npos) << name;  // neither the model nor its .partial
  }
}

// ---- item 12: cost --run says which run it priced -------------------------------------

TEST(FilesE2E, CostRunSaysWhichRunAndNeverStatedWithoutPower) {
  TempDir dir;
  const ProcessResult b = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r", "1",
                                       "-t", "1", "--db", dir.file("r.db"), "--energy", "off", "-o", "json"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const json rec = json::parse(b.out)[0];
  const ProcessResult md =
      run_process({RIGBENCH_BIN, "cost", "--run", "latest", "--db", dir.file("r.db"), "--price", "0.3"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  const std::string want =
      "run " + rec["record_id"].get<std::string>() + ": " + rec["model"]["name"].get<std::string>() + " " +
      rec["model"]["file_type"].get<std::string>() + " on " + rec["machine"]["hostname"].get<std::string>() +
      ", tested " + rec["test_time"].get<std::string>();
  EXPECT_EQ(md.out.rfind(want + "\n", 0), 0u) << md.out;
  EXPECT_EQ(md.out.find("stated"), std::string::npos) << md.out;
  EXPECT_NE(testing::unwrapped(md.out).find("no power given or measured"), std::string::npos) << md.out;
  const ProcessResult j =
      run_process({RIGBENCH_BIN, "cost", "--run", "latest", "--db", dir.file("r.db"), "-o", "json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json cost = json::parse(j.out);
  EXPECT_EQ(cost["run"]["record_id"], rec["record_id"]);
  EXPECT_EQ(cost["run"]["test_time"], rec["test_time"]);
  EXPECT_EQ(cost["inputs"]["power_method"], "none");
  // Power stated for the pricing is said so.
  const ProcessResult stated =
      run_process({RIGBENCH_BIN, "cost", "--run", "latest", "--db", dir.file("r.db"), "--watts", "40"});
  ASSERT_EQ(stated.exit_code, 0) << stated.err;
  EXPECT_NE(stated.out.find("(power stated)"), std::string::npos) << stated.out;
  // A user found "40 W active, - W idle" and a note per unavailable meter, each with its fix,
  // under figures priced from the power given: one line says the run was not measured.
  EXPECT_NE(testing::unwrapped(stated.out).find("40 W active, idle not given at the wall"), std::string::npos)
      << stated.out;
  if (md.out.find("the run's energy: ") != std::string::npos) {  // the run had no meter here
    EXPECT_NE(stated.out.find("note: the run's energy: not measured (no meter could read it: `rigbench hw` says why); "
                              "the figures use --watts"),
              std::string::npos)
        << stated.out;
    std::size_t notes = 0;
    for (std::size_t at = 0; (at = stated.out.find("the run's energy: ", at)) != std::string::npos; ++at) ++notes;
    EXPECT_EQ(notes, 1u) << stated.out;
  }
}

// ---- item 14: --model, --machine, --tag select records in compare, report, export --------

TEST(FilesE2E, ReadersFilterByModelMachineAndTag) {
  TempDir dir;
  make_database(dir, dir.file("r.db"));
  if (HasFatalFailure()) return;
  const std::string db = dir.file("r.db");
  auto exported = [&](std::vector<std::string> filter) {
    std::vector<std::string> argv = {RIGBENCH_BIN, "export", "--db", db, "-o", "jsonl"};
    argv.insert(argv.end(), filter.begin(), filter.end());
    const ProcessResult r = run_process(argv);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return lines(r.out);
  };
  EXPECT_EQ(exported({}), 3);
  EXPECT_EQ(exported({"--model", "othermodel"}), 1);
  EXPECT_EQ(exported({"--machine", "RIG-B"}), 2);
  EXPECT_EQ(exported({"--tag", "night"}), 1);
  EXPECT_EQ(exported({"--tag", "night", "--tag", "day"}), 3);  // one flag's values: any may match
  EXPECT_EQ(exported({"--machine", "rig-b", "--model", "other"}), 1);

  const ProcessResult none = run_process({RIGBENCH_BIN, "compare", "--db", db, "--model", "mixtral"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(lines(none.err), 1) << none.err;
  EXPECT_NE(none.err.find("rigbench: error: --model 'mixtral': matches no stored record (models: OtherModel, "),
            std::string::npos)
      << none.err;
  const ProcessResult together =
      run_process({RIGBENCH_BIN, "export", "--db", db, "--machine", "rig-a", "--model", "other"});
  EXPECT_EQ(together.exit_code, 2);
  EXPECT_NE(together.err.find("--model 'other', --machine 'rig-a': no stored record matches them together"),
            std::string::npos)
      << together.err;
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", db, "--tag", "day", "-o", "json"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_EQ(cmp.out.find("rig-a"), std::string::npos) << cmp.out;
  const ProcessResult rep =
      run_process({RIGBENCH_BIN, "report", "--db", db, "--machine", "rig-a", "--output-file", dir.file("a.html")});
  ASSERT_EQ(rep.exit_code, 0) << rep.err;
  const std::string html = testing::read_file(dir.file("a.html"));
  EXPECT_NE(html.find("1 record, 1 machine, 1 model"), std::string::npos);
  EXPECT_EQ(html.find("rig-b"), std::string::npos);
}

}  // namespace
}  // namespace rigbench
