// bench --rpc end to end: two real rpc-servers (llama.cpp's ggml-rpc-server, built from the same
// sources with RIGBENCH_BUILD_PEERS and GGML_RPC) on 127.0.0.1, different free ports, CPU
// backend; the shipped model and a synthetic one split across them; compare shows the local
// run and the split run side by side. Bad input: a port nothing listens on, a fake server of
// another protocol version (tests/fakes/fake_rpc_server.py), a server killed mid-run. Loopback
// only; every wait bounded. No timed assertions.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/args.h"
#include "cli/bench_command.h"
#include "cli/bench_options.h"
#include "support/db_query.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

// A port nothing listens on (bound, then closed).
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

// Whether something accepts TCP connections on 127.0.0.1:port.
bool listening(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

// A server process started for one test, listening on `port` (waited for up to 30 s), and
// killed at the end of the test (or earlier with stop()).
class Server {
 public:
  Server(const std::vector<std::string>& argv, int port) : port_(port) {
    pid_ = testing::spawn_process(argv, dir_.file("out"), dir_.file("err"));
    for (int i = 0; i < 300 && pid_ > 0 && !listening(port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ~Server() { stop(); }
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  // SIGTERM, then up to 10 s for it to exit (SIGKILL after that).
  void terminate() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    stop();
  }
  bool up() const { return pid_ > 0 && listening(port_); }
  std::string endpoint() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  TempDir dir_;
  int port_;
  pid_t pid_ = -1;
};

#ifdef RIGBENCH_RPC_SERVER
// llama.cpp's rpc-server on a free port of 127.0.0.1, CPU backend, one thread.
std::vector<std::string> rpc_server_argv(int port) {
  return {RIGBENCH_RPC_SERVER, "-H", "127.0.0.1", "-p", std::to_string(port), "-t", "1"};
}
#endif

std::vector<json> json_lines(const std::string& text) {
  std::vector<json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

ProcessResult rigbench(std::vector<std::string> args) {
  std::vector<std::string> argv = {RIGBENCH_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

// ---- Bad input that needs no rpc-server of ours ----------------------------------------

TEST(RpcE2E, RefusedEndpointIsOneLineNamingItExit1AndNothingStored) {
  TempDir dir;
  const std::string dead = "127.0.0.1:" + std::to_string(free_port());
  const auto r = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", dead, "-p", "8", "-n", "4", "-r", "1", "-t", "1",
                           "--db", dir.file("r.db"), "--energy", "off"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("rpc-server " + dead + ": connection refused"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.db")) &&
               testing::query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs") > 0);
}

TEST(RpcE2E, MalformedEndpointIsAUsageError) {
  const auto r = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", "localhost", "--no-db"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--rpc 'localhost': expected HOST:PORT"), std::string::npos) << r.err;
}

TEST(RpcE2E, FakeServerOfAnotherProtocolVersionIsOneLineNamingItExit1) {
  const int port = free_port();
  Server fake({"/usr/bin/env", "python3", RIGBENCH_FAKE_RPC_SERVER, "--port", std::to_string(port), "--major", "5"},
              port);
  ASSERT_TRUE(fake.up()) << "the fake rpc-server did not start";
  const auto r = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", fake.endpoint(), "-p", "8", "-n", "4", "-r", "1",
                           "-t", "1", "--no-db", "--energy", "off"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("rpc-server " + fake.endpoint() + ": speaks RPC protocol 5.0.0"), std::string::npos) << r.err;
}

TEST(RpcE2E, SilentServerIsABoundedWaitNamingIt) {
  // A listener that never answers HELLO (an rpc-server busy with another client looks so).
  const int port = free_port();
  Server fake({"/usr/bin/env", "python3", RIGBENCH_FAKE_RPC_SERVER, "--port", std::to_string(port), "--silent"}, port);
  ASSERT_TRUE(fake.up());
  const auto r = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", fake.endpoint(), "--no-db", "--energy", "off"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("rpc-server " + fake.endpoint() + ": no answer to HELLO within 5 s"), std::string::npos)
      << r.err;
  // Silence at HELLO is also an HTTP server at that port (llama-server's port given to --rpc
  // was blamed on another rpc client only): the line names both.
  EXPECT_NE(r.err.find("not an rpc-server, e.g. an HTTP server such as llama-server at that port"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("or an rpc-server busy with another client"), std::string::npos) << r.err;
}

#ifdef RIGBENCH_RPC_SERVER

// ---- Two real rpc-servers ---------------------------------------------------------------

class TwoServers : public ::testing::Test {
 protected:
  void SetUp() override {
    const int p1 = free_port();
    int p2 = free_port();
    while (p2 == p1) p2 = free_port();
    a_ = std::make_unique<Server>(rpc_server_argv(p1), p1);
    b_ = std::make_unique<Server>(rpc_server_argv(p2), p2);
    ASSERT_TRUE(a_->up() && b_->up()) << "ggml-rpc-server did not start";
  }
  std::string endpoints() const { return a_->endpoint() + "," + b_->endpoint(); }
  std::unique_ptr<Server> a_, b_;
};

TEST_F(TwoServers, ShippedModelSplitRunKeepsTopologyAndCompareShowsLocalAndSplit) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  // One command: the local run and the split run (-ts 1/1: half the layers each).
  const auto r = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", "none", "--rpc", endpoints(), "-ts", "1/1", "-p",
                           "32", "-n", "8", "-r", "2", "-t", "1", "--db", db, "--energy", "off", "-o", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto recs = json_lines(r.out);
  ASSERT_EQ(recs.size(), 4u);  // pp32 and tg8, local then split
  json split;
  for (const auto& rec : recs) {
    EXPECT_EQ(rec["status"], "ok");
    if (rec["params"]["rpc"] == "none") {
      EXPECT_FALSE(rec.contains("topology"));
      continue;
    }
    EXPECT_EQ(rec["params"]["rpc"], endpoints());
    ASSERT_TRUE(rec.contains("topology")) << rec.dump();
    if (rec["results"].contains("tg")) split = rec;
  }
  ASSERT_FALSE(split.is_null());
  const json& topo = split["topology"];
  ASSERT_GE(topo.size(), 2u);
  EXPECT_EQ(topo[0]["endpoint"], a_->endpoint());
  EXPECT_EQ(topo[1]["endpoint"], b_->endpoint());
  EXPECT_EQ(topo[0]["device"], "RPC0");
  EXPECT_EQ(topo[1]["device"], "RPC1");
  int layers = 0;
  for (const auto& t : topo) {
    layers += t["n_layers"].get<int>();
    if (!t["endpoint"].is_null()) {
      EXPECT_GT(t["memory_total_bytes"].get<uint64_t>(), 0u);
      EXPECT_GT(t["rtt_ms"].get<double>(), 0.0);
      EXPECT_GT(t["n_layers"].get<int>(), 0);  // -ts 1/1: each server holds layers
    }
  }
  EXPECT_EQ(layers, 5);  // stories260K: 5 blocks, every one placed (the output layer apart)
  EXPECT_TRUE(topo[1]["output_layer"].get<bool>());  // the last device holds the output layer
  EXPECT_GT(split["results"]["tg"]["avg_tps"].get<double>(), 0.0);
  // The record's identity keeps split and local apart; compare --by backend shows them side
  // by side, CPU (local) and RPC (split). Before, the local run's build listed RPC among its
  // backends and both runs were one "RPC" column; by machine, the faster of the two was shown.
  const auto c = rigbench({"compare", "--db", db, "--by", "backend", "-o", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("tg8,CPU,"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("tg8,RPC,"), std::string::npos) << c.out;
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(DISTINCT rpc) FROM runs"), 2);
  const auto md = rigbench({"compare", "--db", db});
  ASSERT_EQ(md.exit_code, 0) << md.err;
}

TEST_F(TwoServers, SyntheticModelSplitAcrossBoth) {
  TempDir dir;
  const std::string model = dir.file("tiny.gguf");
  const auto s = rigbench({"synth", "--preset", "SmolLM2-135M", "--quant", "Q4_0", "--output-file", model});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const auto r = rigbench({"bench", model, "--rpc", endpoints(), "-p", "0", "-n", "4", "-r", "1", "-t", "1", "--no-db",
                           "--energy", "off", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rec = json::parse(r.out)[0];
  const json& topo = rec["topology"];
  ASSERT_GE(topo.size(), 2u);
  int layers = 0;
  for (const auto& t : topo) layers += t["n_layers"].get<int>();
  EXPECT_EQ(layers, 30);  // SmolLM2-135M: 30 blocks
  EXPECT_GT(topo[0]["n_layers"].get<int>() * topo[1]["n_layers"].get<int>(), 0) << topo.dump();
}

// #14's target: fit --rpc within 2 % of llama.cpp's own no_alloc plan with the same servers, per
// device and for the host, with every layer offloaded (llama.cpp's pipeline parallelism: four
// copies of what crosses into each split). Before: stories260K RPC1 0.966 and host 1.240, the
// synthetic 1B RPC1 0.975. With flash attention and without (F32 masks, one V row id per value).
TEST_F(TwoServers, FitCheckEachDeviceAndTheHostWithin2PercentOfLlamaCppsPlan) {
  TempDir dir;
  const std::string synthetic = dir.file("llama1b.gguf");
  const auto s = rigbench({"synth", "--preset", "Llama-3.2-1B", "--quant", "Q4_K_M", "--header-only", "--output-file",
                           synthetic});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  for (const std::string& model : {std::string(RIGBENCH_TEST_MODEL), synthetic}) {
    for (const std::string fa : {"on", "off"}) {
      const auto r = rigbench({"fit", model, "--rpc", endpoints(), "-c", "4096", "-ngl", "-1", "-ts", "1,1", "-fa", fa,
                               "--check", "-o", "json"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const json rows = json::parse(r.out);
      ASSERT_EQ(rows.size(), 3u) << r.out;  // RPC0, RPC1, the host
      for (const auto& row : rows) {
        EXPECT_GT(row["llama_cpp_bytes"].get<uint64_t>(), 0u) << row.dump();
        EXPECT_NEAR(row["fit_per_llama_cpp"].get<double>(), 1.0, 0.02) << model << " -fa " << fa << ": " << row.dump();
      }
    }
  }
}

TEST_F(TwoServers, ServerLostMidRunKeepsFinishedRepetitionsNamesItExit1) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  bool seen = false;
  Server* victim = b_.get();
  // Kill the second server once the third repetition has begun (plain progress lines on stderr).
  const auto r = testing::run_process_signal_when(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--rpc", endpoints(), "-ts", "1/1", "-p", "0", "-n", "64", "-r",
       "auto", "--ci-target", "0.01", "--max-time", "120", "-t", "1", "--db", db, "--energy", "off", "--progress"},
      0,
      [victim](const std::string& err) {
        if (err.find("tg · repetition 3") != std::string::npos) {
          victim->stop();
          return true;
        }
        return false;
      },
      seen);
  ASSERT_TRUE(seen) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string last = r.err.substr(r.err.rfind("rigbench: error:"));
  EXPECT_EQ(count_lines(last), 1) << r.err;
  // The killed server is named (the other one too when it stopped answering within a second).
  EXPECT_NE(last.find("rpc-server "), std::string::npos) << r.err;
  EXPECT_NE(last.find(b_->endpoint()), std::string::npos) << r.err;
  EXPECT_NE(last.find(": connection lost mid-run"), std::string::npos) << r.err;
  // The run is stored as failed, with the repetitions that finished before the loss.
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) FROM runs"), 1);
  EXPECT_EQ(testing::query_text(db, "SELECT json_extract(record_json, '$.status') FROM runs"), "failed");
  EXPECT_GE(testing::query_int(db, "SELECT COUNT(*) FROM samples WHERE test = 'tg'"), 2);
}

TEST_F(TwoServers, CtrlCDuringASplitRunKeepsFinishedRepetitionsExit130) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  bool seen = false;
  const auto r = testing::run_process_signal_when(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--rpc", endpoints(), "-p", "0", "-n", "64", "-r", "auto",
       "--ci-target", "0.01", "--max-time", "120", "-t", "1", "--db", db, "--energy", "off", "--progress"},
      SIGINT, [](const std::string& err) { return err.find("tg · repetition 3") != std::string::npos; }, seen);
  ASSERT_TRUE(seen) << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_EQ(testing::query_text(db, "SELECT json_extract(record_json, '$.status') FROM runs"), "interrupted");
  EXPECT_GE(testing::query_int(db, "SELECT COUNT(*) FROM samples WHERE test = 'tg'"), 2);
  // The servers are still there for the next client.
  EXPECT_TRUE(a_->up() && b_->up());
}

// ---- The network term of fit's tg bound, through a relay that delays the link -------------

// bench/rpc_delay_relay.py between rigbench and one real rpc-server: each chunk held `delay_ms`
// each way (tc netem is not in this machine's kernel), commands counted on the wire.
class DelayedServer : public ::testing::Test {
 protected:
  void start(double delay_ms) {
    const int p = free_port();
    server_ = std::make_unique<Server>(rpc_server_argv(p), p);
    ASSERT_TRUE(server_->up()) << "ggml-rpc-server did not start";
    int q = free_port();
    while (q == p) q = free_port();
    counts_ = dir_.file("counts.json");
    relay_ = std::make_unique<Server>(
        std::vector<std::string>{"/usr/bin/env", "python3", RIGBENCH_DELAY_RELAY, "--target-port", std::to_string(p),
                                 "--listen-port", std::to_string(q), "--delay-ms", std::to_string(delay_ms),
                                 "--count-file", counts_, "--max-seconds", "280"},
        q);
    ASSERT_TRUE(relay_->up()) << "the delay relay did not start";
  }
  // Stops the relay (SIGTERM: it writes its counts) and reads them.
  json counts() {
    relay_->terminate();
    return json::parse(testing::read_file(counts_));
  }
  std::string endpoint() const { return relay_->endpoint(); }
  TempDir dir_;
  std::string counts_;
  std::unique_ptr<Server> server_, relay_;
};

// The network term over the round trip the probe measured through the relay is fit's formula
// exactly: one hop (the server holds every layer and the output layer), 1 round trip per token,
// bound = 1 / (1 / memory bound + (round trips x rtt + bytes x 8 / link)). How close that bound
// comes to a measured tg depends on the machine's load (the relay's wake-ups, the tokens' own
// time): a timing target, printed by bench/rpc_network_term (bound / measured at 10 ms each way,
// target 1 to 2), not asserted here.
TEST_F(DelayedServer, TgBoundThroughA10msRelayIsTheFormulaOverTheMeasuredRoundTripOneRoundTripPerTokenOnTheWire) {
  start(10);
  const auto m = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "256", "-ngl", "-1", "-o", "json"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const json net = json::parse(m.out)["network"];
  EXPECT_EQ(net["link_rtt_source"], "measured");
  // The relay holds each chunk 10 ms each way: the round trip is at least that, whatever the load.
  const double rtt_ms = net["link_rtt_ms"].get<double>();
  EXPECT_GE(rtt_ms, 20.0);
  EXPECT_EQ(net["hops"], 1);
  EXPECT_EQ(net["round_trips_per_token"], 1);
  EXPECT_EQ(net["link_gbps_source"], "assumed");
  const double gbps = net["link_gbps"].get<double>();
  const double bytes = static_cast<double>(net["network_bytes_per_token"].get<uint64_t>());
  const double network_ms = 1 * rtt_ms + bytes * 8 / (gbps * 1e9) * 1e3;
  EXPECT_NEAR(net["network_ms_per_token"].get<double>(), network_ms, 1e-9 * network_ms) << net.dump();
  const double memory = net["memory_bound_tps"].get<double>();
  const double bound = 1.0 / (1.0 / memory + network_ms / 1e3);
  EXPECT_NEAR(net["tg_bound_tps"].get<double>(), bound, 1e-9 * bound) << net.dump();
  // The link's latency stated as the relay adds it: the same formula over 20 ms.
  const auto f = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "256", "-ngl", "-1", "--link-rtt-ms",
                           "20", "-o", "json"});
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const json stated = json::parse(f.out)["network"];
  EXPECT_EQ(stated["link_rtt_source"], "stated");
  EXPECT_EQ(stated["network_bytes_per_token"], net["network_bytes_per_token"]);
  const double stated_ms = 20.0 + bytes * 8 / (gbps * 1e9) * 1e3;
  EXPECT_NEAR(stated["network_ms_per_token"].get<double>(), stated_ms, 1e-9 * stated_ms) << stated.dump();
  EXPECT_NEAR(stated["tg_bound_tps"].get<double>(), 1.0 / (1.0 / memory + stated_ms / 1e3), 1e-9 * bound)
      << stated.dump();
  // 16 tokens twice through the relay.
  const auto b = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-ngl", "-1", "-p", "0", "-n", "16", "-r",
                           "2", "-t", "1", "--no-db", "--energy", "off", "-o", "json"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_GT(json::parse(b.out)[0]["results"]["tg"]["avg_tps"].get<double>(), 0.0);
  // On the wire: one answer waited for per graph compute (one compute per token on this hop),
  // as fit/device_split.h kRpcRoundTripsPerHop says; the inputs go without an answer.
  const json c = counts();
  const int computes = c["computes"].get<int>();
  EXPECT_GE(computes, 16 * 2) << c.dump();
  EXPECT_EQ(c["turns_after_compute"].get<int>(), computes) << c.dump();
  EXPECT_EQ(c["commands"]["GET_TENSOR"].get<int>(), computes) << c.dump();
  EXPECT_GE(c["commands"]["SET_TENSOR"].get<int>(), 5 * computes) << c.dump();
}

// What crosses the wire per token, byte for byte, as fit counts it (fit::token_inputs). The relay
// sums the SET_TENSORs sent after the first graph compute; each later compute is one token with its
// inputs (the server holds every layer and the output layer). fit's SET_TENSOR part is its network
// bytes less GRAPH_RECOMPUTE (9 + 4), the GET_TENSOR request (9 + 296 + 16) and its answer, the
// logits (8 + n_vocab x 4).
uint64_t fit_set_tensor_bytes(const std::string& model, const std::string& endpoint, const std::string& fa,
                              uint64_t n_vocab) {
  const auto f = rigbench({"fit", model, "--rpc", endpoint, "-c", "256", "-ngl", "-1", "-fa", fa, "--link-rtt-ms", "0",
                           "-o", "json"});
  EXPECT_EQ(f.exit_code, 0) << f.err;
  if (f.exit_code != 0) return 0;
  return json::parse(f.out)["network"]["network_bytes_per_token"].get<uint64_t>() - 13 - 321 - (8 + n_vocab * 4);
}

// 16 generated tokens through `endpoint` (the relay counts them).
void generate_16_tokens(const std::string& model, const std::string& endpoint, const std::string& fa) {
  const auto b = rigbench({"bench", model, "--rpc", endpoint, "-ngl", "-1", "-fa", fa, "-p", "0", "-n", "16", "-r", "1",
                           "-t", "1", "--no-db", "--energy", "off", "-o", "json"});
  EXPECT_EQ(b.exit_code, 0) << b.err;
}

// Without flash attention the mask row is f32 and V's row ids are one i64 per value of a token's V
// (stories260K: 4 KV heads x 8 = 32 i64, 256 B; fit counted 8 B before).
TEST_F(DelayedServer, TokenInputsOnTheWireAreFitsBytesWithoutFlashAttention) {
  start(0);
  const uint64_t fit_set = fit_set_tensor_bytes(RIGBENCH_TEST_MODEL, endpoint(), "off", 512);
  generate_16_tokens(RIGBENCH_TEST_MODEL, endpoint(), "off");
  const json c = counts();
  const int computes = c["computes"].get<int>();
  ASSERT_GE(computes, 16) << c.dump();
  EXPECT_EQ(c["bytes_after_compute"]["SET_TENSOR"].get<uint64_t>(), static_cast<uint64_t>(computes - 1) * fit_set)
      << c.dump() << " fit " << fit_set;
  // The hidden state (64 f32), the mask row (256 f32 cells), position, K id, 32 V ids, output id,
  // and 6 SET_TENSOR headers (9 + 296 + 8).
  EXPECT_EQ(fit_set, 256u + 1024u + 4u + 8u + 256u + 4u + 6u * 313u);
}

#ifdef RIGBENCH_TEST_LLAMA_ARCHS
// A sliding-window model (llama.cpp's tiny Gemma 2, written by test-llama-archs: 128 tokens,
// n_embd 256, window 32) reads two caches: the window's mask and K/V row ids cross too (before,
// fit counted one mask and one pair of ids). With flash attention and without.
TEST_F(DelayedServer, TokenInputsOnTheWireOfASlidingWindowModelAreFitsBytes) {
  TempDir archs;
  const auto w = run_process({RIGBENCH_TEST_LLAMA_ARCHS, "-a", "gemma2", "-o", archs.path().string()});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::string model = archs.file("gemma2-dense.gguf");
  for (const std::string fa : {"on", "off"}) {
    start(0);
    const uint64_t fit_set = fit_set_tensor_bytes(model, endpoint(), fa, 128);
    generate_16_tokens(model, endpoint(), fa);
    const json c = counts();
    const int computes = c["computes"].get<int>();
    ASSERT_GE(computes, 16) << c.dump();
    EXPECT_EQ(c["bytes_after_compute"]["SET_TENSOR"].get<uint64_t>(), static_cast<uint64_t>(computes - 1) * fit_set)
        << "-fa " << fa << ": " << c.dump() << " fit " << fit_set;
  }
}
#endif

TEST_F(DelayedServer, FitJsonCarriesTheNetworkAndCheckHonoursTheFormat) {
  start(0);
  const auto f = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "256", "--link-gbps", "2.5", "-o",
                           "json"});
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const json net = json::parse(f.out)["network"];
  EXPECT_EQ(net["link_gbps"], 2.5);
  EXPECT_EQ(net["link_gbps_source"], "stated");
  EXPECT_EQ(net["link_rtt_source"], "measured");
  EXPECT_GT(net["link_rtt_ms"].get<double>(), 0.0);
  EXPECT_EQ(net["hops"], 1);
  EXPECT_EQ(net["round_trips_per_token"], 1);
  // stories260K: n_embd 64, n_vocab 512; the one server holds the output layer, so the logits
  // (512 x 4 B) come back: more than the hidden state each way.
  EXPECT_GT(net["network_bytes_per_token"].get<uint64_t>(), 512u * 4u + 64u * 4u);
  EXPECT_GT(net["network_ms_per_token"].get<double>(), 0.0);
  EXPECT_GT(net["memory_bound_tps"].get<double>(), net["tg_bound_tps"].get<double>());
  // --check -o json: llama.cpp's plan beside fit's, as JSON (before: a md table whatever -o said).
  const auto c = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "256", "--check", "-o", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const json rows = json::parse(c.out);
  ASSERT_EQ(rows.size(), 2u) << c.out;  // the server's device and the host
  EXPECT_GT(rows[0]["fit_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(rows[0]["llama_cpp_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(rows[1]["device"], "host (CPU)");
  const auto csv = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "256", "--check", "-o", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("device,fit_bytes,llama_cpp_bytes,fit_per_llama_cpp\n", 0), 0u) << csv.out;
}

// The user's report: fit --rpc over one server said "split over 1 devices" and its row read
// "fits | -" (JSON max_ctx 0). Now one device, and the split's largest context on the row.
TEST_F(DelayedServer, FitOverOneServerSaysOneDeviceAndCarriesTheLargestContext) {
  start(0);
  const auto md = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "512"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("split over 1 device, as llama.cpp places layers: RPC0 " + endpoint() + " 5 layers + output"),
            std::string::npos)
      << md.out;
  const auto j = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "512", "-o", "json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json row = json::parse(j.out)["devices"][0];
  EXPECT_EQ(row["verdict"], "fits");
  // stories260K trains at 2048 and fits a server's gigabytes at any context up to it (or -c).
  EXPECT_EQ(row["max_ctx"].get<int>(), 2048) << row.dump();
  EXPECT_EQ(row["note"], "5 layers + output");
}

// bench --rpc printed the local memory bound (32426.6 t/s for stories260K) beside the measured
// tg, where fit --rpc's bound for the same split carries the network (8480.48 t/s over
// loopback). Through a 10 ms relay the network is most of a token: bench's bound is fit's.
TEST_F(DelayedServer, BenchRpcBoundIsFitsWithTheNetworkTerm) {
  start(10);
  const auto f = rigbench({"fit", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "512", "-ngl", "-1", "-o", "json"});
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const json net = json::parse(f.out)["network"];
  const double memory = net["memory_bound_tps"].get<double>(), fit_bound = net["tg_bound_tps"].get<double>();
  const auto b = rigbench({"bench", RIGBENCH_TEST_MODEL, "--rpc", endpoint(), "-c", "512", "-ngl", "-1", "-p", "0",
                           "-n", "4", "-r", "1", "-t", "1", "--no-db", "--energy", "off", "-o", "json"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const double bench_bound = json::parse(b.out)[0]["roofline"]["tg_bound_tps"].get<double>();
  // The relay's 2 x 10 ms per round trip: at most 50 t/s, where the memory alone allows thousands;
  // fit's bound for the same split is in the same regime. (Each command probes its own round
  // trip, so the two differ with the machine's load: beside a build they read 40.4 and 29.7 t/s.
  // That they are one computation is held exactly by Preflight.RpcRunsBoundIsFitsWithTheNetworkTerm.)
  EXPECT_LE(bench_bound, 50.0) << "memory bound " << memory;
  EXPECT_LT(bench_bound, memory / 10);
  EXPECT_LE(fit_bound, 50.0) << "memory bound " << memory;
  EXPECT_GT(bench_bound, 0);
}

// In process: bench --rpc ignores SIGPIPE while it runs (ggml sends without MSG_NOSIGNAL) and
// puts back the disposition it found when it returns (before: left ignored for the process).
void on_sigpipe_for_test(int) {}

TEST_F(DelayedServer, BenchRpcInProcessPutsBackSigpipesHandlerWhenItReturns) {
  start(0);
  struct sigaction mine {}, before {}, after {};
  mine.sa_handler = &on_sigpipe_for_test;
  sigemptyset(&mine.sa_mask);
  ASSERT_EQ(sigaction(SIGPIPE, &mine, &before), 0);
  std::vector<std::string> args = {
      "rigbench", "bench", RIGBENCH_TEST_MODEL, "--rpc",    endpoint(), "-p", "0",   "-n", "2", "-r", "1",
      "-t",       "1",     "--no-db",           "--energy", "off",      "-o", "json"};
  CLI::App app;
  cli::BenchOptions opts;
  const CLI::App* bench = cli::add_bench_command(app, opts);
  const auto expanded = cli::expand_llama_bench_aliases(args, "bench", cli::declared_flags(*bench));
  ASSERT_TRUE(expanded) << expanded.error().message;
  std::vector<char*> argv;
  for (const auto& a : *expanded) argv.push_back(const_cast<char*>(a.c_str()));
  app.parse(static_cast<int>(argv.size()), argv.data());
  const Status s = cli::run_bench_command(opts);
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(sigaction(SIGPIPE, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, &on_sigpipe_for_test);
  sigaction(SIGPIPE, &before, nullptr);
}

#else
TEST(RpcE2E, TwoServersNeedThePeers) {
  GTEST_SKIP() << "ggml-rpc-server not built: configure with -DRIGBENCH_BUILD_PEERS=ON (scripts/test does)";
}
#endif

}  // namespace
}  // namespace rigbench
