// report: the notes under serve-bench's table (report/serve_table.h).
#include "report/serve_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/sample_record.h"

namespace rigbench::report {
namespace {

RunRecord served(double client_cpu_pct) {
  RunRecord r = testing::sample_record();
  ServerRun s;
  s.concurrency = 64;
  s.requests = s.completed = 192;
  s.client_cpu_pct = client_cpu_pct;
  r.server = s;
  return r;
}

bool has_note_with(const Table& t, const std::string& text) {
  return std::any_of(t.notes().begin(), t.notes().end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

TEST(ServeTable, ABusyClientIsSaidToSetThePaceAQuietOneIsNot) {
  Table busy(serve_columns(false, false)), quiet(serve_columns(false, false)), unmeasured(serve_columns(false, false));
  add_serve_footers(busy, served(87.4), 128);
  add_serve_footers(quiet, served(3.5), 128);
  add_serve_footers(unmeasured, served(NAN), 128);
  EXPECT_TRUE(has_note_with(busy, "the client itself used 87 % of one core while the requests ran (c=64)"));
  EXPECT_FALSE(has_note_with(quiet, "the client itself"));
  EXPECT_FALSE(has_note_with(unmeasured, "the client itself"));
}

// A server that reports its prompt rate but no prompt cache read "..., nan from its cache".
TEST(ServeTable, TheServerPromptLineSaysOnlyWhatTheServerReported) {
  RunRecord without_cache = served(NAN), with_cache = served(NAN);
  without_cache.server->server_prompt_n_mean = with_cache.server->server_prompt_n_mean = 16;
  without_cache.server->server_prompt_tps = with_cache.server->server_prompt_tps = 8000;
  with_cache.server->server_cache_n_mean = 112;
  Table a(serve_columns(false, false)), b(serve_columns(false, false));
  add_serve_footers(a, without_cache, 128);
  add_serve_footers(b, with_cache, 128);
  const auto footer = [](const Table& t) {
    for (const std::string& f : t.footers()) {
      if (f.find("server prompt:") != std::string::npos) return f;
    }
    return std::string();
  };
  EXPECT_TRUE(footer(a).ends_with("server prompt: 16.0 tokens evaluated a request at 8000.0 t/s")) << footer(a);
  EXPECT_TRUE(footer(b).ends_with("server prompt: 16.0 tokens evaluated a request at 8000.0 t/s, 112.0 from its cache"))
      << footer(b);
}

TEST(ServeTable, ARunsNoiseNotesAreSaidUnderTheTable) {
  RunRecord r = served(NAN);
  r.noise = {{"steal", "", "steal took 6 % of the CPUs' time", "run on a quiet host"}};
  Table t(serve_columns(false, false));
  add_serve_footers(t, r, 128);
  EXPECT_TRUE(has_note_with(t, "c=64: steal took 6 % of the CPUs' time; run on a quiet host"));
}

TEST(ServeTable, TheClientsCpuShareIsAColumnOfTheDataFormats) {
  const auto columns = serve_columns(false, false);
  const auto at = std::find_if(columns.begin(), columns.end(), [](const TableColumn& c) { return c.key == "client_cpu_pct"; });
  ASSERT_NE(at, columns.end());
  const auto row = serve_row(served(3.5));
  ASSERT_EQ(row.size(), columns.size());
  EXPECT_EQ(row[static_cast<std::size_t>(at - columns.begin())].text, "3.50");
}

}  // namespace
}  // namespace rigbench::report
