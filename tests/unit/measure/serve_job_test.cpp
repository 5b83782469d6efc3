// measure/serve_job: the job's exit status (which of its outcomes wins, the API key never in
// its message) and its line before the first run; the job itself runs against real servers
// in tests/e2e/serve_bench_e2e_test.cpp.
#include "measure/serve_job.h"

#include <gtest/gtest.h>

namespace rigbench::measure {
namespace {

ServeJob job() {
  ServeJob j;
  j.url = *net::parse_url("http://127.0.0.1:8080");
  j.client.api_key = "sk-secret";
  j.target.server.api_family = "openai";
  j.target.server.software = "llama.cpp";
  j.target.server.version = "b1234";
  j.target.models = {"a", "b"};
  j.seed = 7;
  return j;
}

// serve-bench carried no note of a busy machine. A served run takes this machine's watch as
// bench does, less machine_busy where the server runs beside the client (it is itself the
// other process the note counts).
TEST(ServeJobNoise, AServerBesideTheClientIsNotCalledOtherWork) {
  const std::vector<NoiseNote> seen = {{"machine_busy", "", "other processes used 40 % of the CPUs", "quiet it"},
                                       {"steal", "", "steal 6 % of the CPUs' time", "a quiet host"},
                                       {"thermal_throttle", "", "throttled", "cool it"}};
  auto codes = [](const std::vector<NoiseNote>& notes) {
    std::vector<std::string> c;
    for (const NoiseNote& n : notes) c.push_back(n.code);
    return c;
  };
  EXPECT_EQ(codes(client_machine_notes(seen, true)), (std::vector<std::string>{"steal", "thermal_throttle"}));
  EXPECT_EQ(codes(client_machine_notes(seen, false)),
            (std::vector<std::string>{"machine_busy", "steal", "thermal_throttle"}));
  EXPECT_TRUE(net::is_loopback(*net::parse_url("http://127.0.0.1:8080")));
  EXPECT_TRUE(net::is_loopback(*net::parse_url("http://localhost:11434")));
  EXPECT_FALSE(net::is_loopback(*net::parse_url("http://192.168.1.7:8080")));
}

TEST(ServeJobStatus, NothingMeasuredThenTheErrorThenCtrlCThenEveryRequestFailed) {
  const ServeJob j = job();
  ServeJobResult r;
  EXPECT_TRUE(serve_job_status(j, r, 0));

  r.runs_all_failed = 2;
  r.first_failure = "refused by sk-secret";
  auto all_failed = serve_job_status(j, r, 2);
  ASSERT_FALSE(all_failed);
  EXPECT_EQ(all_failed.error().code, ErrorCode::kRuntime);
  EXPECT_EQ(all_failed.error().message, "http://127.0.0.1:8080: every request of 2 runs failed: refused by ***");

  r.runs.emplace_back();
  r.interrupted = true;
  auto interrupted = serve_job_status(j, r, 1);
  ASSERT_FALSE(interrupted);
  EXPECT_EQ(interrupted.error().code, ErrorCode::kInterrupted);
  EXPECT_EQ(interrupted.error().message, "interrupted: 1 run kept with the requests that finished");

  r.error = fail(ErrorCode::kRuntime, "lost");
  EXPECT_EQ(serve_job_status(j, r, 1).error().message, "lost");

  r.runs.clear();
  auto nothing = serve_job_status(j, r, 0);
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().code, ErrorCode::kInterrupted);
  EXPECT_EQ(nothing.error().message, "interrupted before any request finished: nothing measured, nothing stored");
}

TEST(ServeJobIntro, NamesTheServerItsApiTheModelsAndADrawnSeed) {
  const ServeJob j = job();
  EXPECT_EQ(serve_job_intro(j, false), "http://127.0.0.1:8080: llama.cpp b1234, API openai-completions, model a, b");
  EXPECT_EQ(serve_job_intro(j, true),
            "http://127.0.0.1:8080: llama.cpp b1234, API openai-completions, model a, b, seed 7 (--seed repeats "
            "these prompts)");
}

}  // namespace
}  // namespace rigbench::measure
