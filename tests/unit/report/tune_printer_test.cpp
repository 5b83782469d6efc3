// tune's answer as people and machines read it (report/tune_printer.h), from a race made by
// hand: a winner, a runner-up Welch called slower, one out in the screen, one that does not fit.
#include "report/tune_printer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/golden.h"

namespace rigbench::report {
namespace {

measure::TuneCandidate candidate(int threads, const std::string& fa) {
  measure::TuneCandidate c;
  c.test.model_path = "/m/model.gguf";
  c.test.params.n_threads = threads;
  c.test.params.flash_attn = fa;
  c.test.params.n_prompt = 0;
  c.test.params.n_gen = 128;
  c.test.params.n_ctx = 4096;
  return c;
}

struct Fixture {
  measure::TuneSpec spec;
  measure::TuneResult result;
  Fixture() {
    result.tune_id = "0123456789abcdef0123456789abcdef";
    result.candidates = {candidate(1, "on"), candidate(2, "on"), candidate(2, "off"), candidate(4, "on")};
    result.candidates[3].dropped = "model 'x' at n_ctx 4096 will not fit this machine: needs 30.00 GiB";
    result.candidates[3].does_not_fit = true;
    result.raced = {0, 1, 2};
    result.varied = {"flash_attn", "n_threads"};
    result.trials = 7;
    auto& e = result.race.entries;
    e.resize(3);
    e[0].status = measure::RaceStatus::kHalved;  // out in the screen
    e[0].screen_samples = {10, 10.2};
    e[0].round_out = 0;
    e[0].gap_pct = -50;
    e[0].p_value = 0.0004;
    e[1].status = measure::RaceStatus::kWinner;
    e[1].samples = {20, 20.2, 19.8};
    e[1].round_out = 1;
    e[2].status = measure::RaceStatus::kSlower;
    e[2].samples = {18, 18.2, 17.8};
    e[2].round_out = 1;
    e[2].gap_pct = -10;
    e[2].p_value = 0.0123;
    result.race.winner = 1;
    result.race.runner_up = 2;
    result.race.lead_pct = 11.11;
    result.race.p_value = 0.0123;
    result.race.end = measure::RaceEnd::kDecided;
    result.race.rounds = 1;
    result.race.seconds = 42;
  }
  std::string print(OutputFormat f) {
    std::ostringstream out;
    print_tune({&spec, &result, "Llama-3.2-1B Q4_K_M (synthetic)", "/m/model.gguf"}, f, out);
    return out.str();
  }
};

// tune carried no note of a busy machine, though its trials' records did: the answer counts
// the trials run on a disturbed machine and says what disturbed it, once per kind.
TEST(TunePrinter, TrialsOnADisturbedMachineAreCountedAndSaid) {
  Fixture f;
  EXPECT_EQ(machine_noise_note(f.result), "");
  RunRecord busy, stolen, outliers;
  busy.noise = {{"machine_busy", "", "other processes used 41 % of the CPUs", "quiet the machine"},
                {"steal", "", "steal took 6 % of the CPUs' time", "run on a quiet host"}};
  stolen.noise = {{"steal", "", "steal took 9 % of the CPUs' time", "run on a quiet host"}};
  outliers.noise = {{"outliers", "tg", "1 of 3 repetitions is an outlier", ""}};  // a few repetitions: not the machine
  for (const RunRecord* r : {&busy, &stolen, &outliers}) measure::count_machine_noise(f.result, *r);
  EXPECT_EQ(f.result.disturbed_trials, 2);
  ASSERT_EQ(f.result.machine_noise.size(), 2u);
  EXPECT_EQ(f.result.machine_noise[1].text, "steal took 6 % of the CPUs' time");  // the first of its kind
  const std::string md = f.print(OutputFormat::kMarkdown);
  EXPECT_NE(testing::unwrapped(md).find(
                "note: noisy machine: 2 of 7 trials ran while the machine was disturbed (machine_busy: "
                "other processes used 41 % of the CPUs; quiet the machine; steal: steal took 6 % of the "
                "CPUs' time; run on a quiet host)."),
            std::string::npos)
      << md;
  const auto j = nlohmann::json::parse(f.print(OutputFormat::kJson));
  EXPECT_EQ(j["disturbed_trials"], 2);
  EXPECT_EQ(j["machine_noise"][0]["code"], "machine_busy");
}

// The preamble said "ended: too_close", the race's identifier.
TEST(TunePrinter, HowTheRaceEndedIsSaidInWords) {
  Fixture f;
  f.result.race.end = measure::RaceEnd::kTooClose;
  const std::string md = testing::unwrapped(f.print(OutputFormat::kMarkdown));
  EXPECT_NE(md.find("ended: too close to call at 24 repetitions (the best mean wins)"), std::string::npos) << md;
  EXPECT_EQ(nlohmann::json::parse(f.print(OutputFormat::kJson))["end"], "too_close");  // json keeps the word
}

TEST(TuneRanking, WinnerThenTheRoundsThenTheScreenThenTheDropped) {
  Fixture f;
  EXPECT_EQ(tune_ranking(f.result, false), (std::vector<int>{1, 2, 0, 3}));
  EXPECT_EQ(tune_candidate_status(f.result, 3), "does_not_fit");
  EXPECT_EQ(tune_candidate_status(f.result, 0), "halved");
}

TEST(TunePrinter, MarkdownSaysWhyEachLostAndHowToRunTheWinner) {
  Fixture f;
  const std::string md = f.print(OutputFormat::kMarkdown);
  // The preamble wraps at 120 columns.
  EXPECT_NE(md.find("tune: Llama-3.2-1B Q4_K_M (synthetic), tg128 t/s at n_ctx 4096; 4 candidates, 3 raced, 1 dropped; "
                    "7 trials in 42 s\n(budget 300 s); ended: decided"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("winner: +11.1 % over #2, p = 0.012"), std::string::npos) << md;
  EXPECT_NE(md.find("slower in round 1: -10.0 %, p = 0.012"), std::string::npos) << md;
  // "halved" is the race's word (json status); people read what happened.
  // The gap is the screen's, against its leader (its figures are marked *), wrapped in its cell.
  EXPECT_NE(md.find("not in the screen's best third by mean: -50.0 % vs the"), std::string::npos) << md;
  EXPECT_NE(md.find("screen's leader, p < 0.001"), std::string::npos) << md;
  EXPECT_NE(md.find("10.10* |"), std::string::npos) << md;
  EXPECT_EQ(md.find("halved in"), std::string::npos) << md;
  EXPECT_NE(md.find("does not fit (note 1)"), std::string::npos) << md;
  EXPECT_NE(md.find("note: 1. does not fit: model 'x' at n_ctx 4096 will not fit this machine: needs 30.00 GiB"), std::string::npos) << md;
  EXPECT_NE(md.find(" 2* |"), std::string::npos) << md;  // screen samples are marked
  // The winner's sentence wraps at 120 columns, never between "p =" and its value.
  EXPECT_NE(md.find("winner: -fa on -t 2: tg128 t/s 20.00 (95 % interval 19.50-20.50), 3 repetitions; +11.1 % over "
                    "the runner-up (#2),\np = 0.012"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("  llama-server -m /m/model.gguf -c 4096 -np 1 -t 2 -ngl all -fa on"), std::string::npos) << md;
  EXPECT_NE(md.find("  llama-bench -m /m/model.gguf -p 0 -n 128 -t 2 -fa on"), std::string::npos) << md;
  EXPECT_NE(md.find("Ollama Modelfile: PARAMETER num_ctx 4096; PARAMETER num_thread 2; server environment: "
                    "OLLAMA_FLASH_ATTENTION=1"),
            std::string::npos)
      << md;
}

TEST(TunePrinter, JsonHoldsTheRunTheWinnerAndEveryCandidate) {
  Fixture f;
  const auto j = nlohmann::json::parse(f.print(OutputFormat::kJson));
  EXPECT_EQ(j["tune_id"], f.result.tune_id);
  EXPECT_EQ(j["objective"], "tg");
  EXPECT_EQ(j["end"], "decided");
  EXPECT_EQ(j["winner"]["settings"]["n_threads"], 2);
  EXPECT_EQ(j["winner"]["settings"]["flash_attn"], "on");
  EXPECT_DOUBLE_EQ(j["winner"]["mean"].get<double>(), 20.0);
  EXPECT_NEAR(j["winner"]["ci95_low"].get<double>(), 19.503, 0.001);  // 20 - t(0.975, 2) * 0.2 / sqrt(3)
  EXPECT_DOUBLE_EQ(j["winner"]["lead_pct"].get<double>(), 11.11);
  EXPECT_EQ(j["winner"]["commands"]["llama_cli"], "llama-cli -m /m/model.gguf -c 4096 -t 2 -ngl all -fa on");
  EXPECT_EQ(j["winner"]["commands"]["ollama_parameters"]["num_thread"], "2");
  ASSERT_EQ(j["candidates"].size(), 4u);
  EXPECT_EQ(j["candidates"][3]["status"], "does_not_fit");
  EXPECT_TRUE(j["candidates"][3]["mean"].is_null());
  EXPECT_EQ(j["candidates"][2]["screen_only"], true);
}

TEST(TunePrinter, JsonlIsOneCandidatePerLineThenTheRun) {
  Fixture f;
  std::istringstream in(f.print(OutputFormat::kJsonl));
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["status"], "winner");
  EXPECT_EQ(lines[4]["winner"]["rank"], 1);
}

TEST(TunePrinter, CsvHasAColumnPerVariedKnob) {
  Fixture f;
  const std::string csv = f.print(OutputFormat::kCsv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "rank,flash_attn,n_threads,mean_tps,ci95_low_tps,ci95_high_tps,n,screen,status,p_value,gap_pct,result");
  EXPECT_NE(csv.find("\n1,on,2,20,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace rigbench::report
