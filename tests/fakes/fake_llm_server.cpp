// A fake LLM server for the serve-bench tests and bench/ scripts (loopback only): it speaks
// Ollama's NDJSON API (/api/version, /api/tags, /api/ps, /api/generate, /api/chat,
// /api/embed) or the OpenAI API as llama-server does (/v1/models, /props, /v1/completions,
// /v1/chat/completions with SSE, usage and llama-server's `timings`, /v1/embeddings: one vector
// per input after --ttft-ms, usage = the inputs' words), and
// streams its tokens at set times: the first after --ttft-ms, then one every --interval-ms.
// The timings it reports are the ones it was set to (prompt_ms = ttft, predicted_ms = the
// intervals), so both protocols carry the same figures.
//
// Faults, by request in arrival order (--faults ok,500,cut,malformed,stall,nostream, cycled):
//   500        answers HTTP 500 with an error body
//   cut        streams half the tokens, then closes the connection mid-stream
//   malformed  streams one token, then a line that is not JSON
//   stall      sends nothing for --stall-ms (past the client's timeout)
//   nostream   answers the whole completion as one JSON body (a server that does not stream)
//   exit       stops listening and exits without answering (later requests are refused)
//   drop       after --ttft-ms, resets the connection without answering: what a client sees
//              when a server closes a kept-alive connection as the request goes out (llama-
//              server's HTTP library closing an idle one), on cue
//   drop-kept  as drop when the request came on a kept-alive connection (one that served an
//              earlier request); answered as ok on a new connection
//   freeze     from this request on, the whole server answers nothing (every request, pings too,
//              waits --stall-ms) while it still accepts connections: a server that hangs
//   burst      every token in one write after --ttft-ms (a TPOT near 0, as a server that
//              sends a batch of tokens together); its timings as ok's
//
// Replay (--replay FILE[,FILE...], one file per request in arrival order, cycled): instead of
// its own tokens, the fake answers with a recorded stream, each write at its recorded time
// after the request came. A recording is JSONL, one write a line: {"at_ms": 12.5, "write":
// "data: {...}\n\ndata: {...}\n\n"} (a write may hold several events, or part of one), in the
// order written; the answer's content type is the protocol's (SSE, NDJSON).
//
// Usage: fake_llm_server --protocol ollama|openai [--port N] [--ttft-ms 50] [--interval-ms 10]
//        [--tokens N (ignore the length asked)] [--faults LIST] [--stall-ms 3000]
//        [--report-actual 1 (report the measured time to the first token written as the
//        prompt time, instead of the set one: the client's own delay is then TTFT - it)]
//        [--api-key KEY (answer 401 without it)] [--model NAME[,NAME...] (the models it has)]
//        [--lockstep 1 (every stream's tokens at shared decode steps, one every --interval-ms
//        on one clock for the whole server, as a continuous-batching server (llama-server
//        --parallel, vLLM, Ollama) writes one token of every active stream after each batch:
//        the first at the first step after --ttft-ms; without it each stream keeps its own
//        clock from its first token, so the streams' tokens fall apart from each other)]
// GET /fake/log lists the requests so far ("METHOD PATH CLIENT_PORT" a line).
// Prints "port N" on stdout once it listens (port 0: a free one), then serves until killed.
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

using nlohmann::json;

namespace {

struct Config {
  bool ollama = false;
  int port = 0;
  double ttft_ms = 50;
  double interval_ms = 10;
  int fixed_tokens = 0;  // > 0: ignore the length asked
  std::vector<std::string> faults;
  double stall_ms = 3000;
  std::string api_key;
  bool report_actual = false;  // timings.prompt_ms / prompt_eval_duration: the measured time to the first token
  bool lockstep = false;       // tokens at steps of one server-wide clock (see --lockstep)
  std::string model = "fake";  // the first of `models`
  std::vector<std::string> models{"fake"};
  std::vector<std::string> replay;  // --replay: recorded streams, one per request, cycled
};

// One write of a recorded stream: its bytes and when it was written (ms after the request came).
struct RecordedWrite {
  double at_ms = 0;
  std::string bytes;
};

// A recording (see --replay); exits 2 naming the file and line when it is not one.
std::vector<RecordedWrite> read_recording(const std::string& path) {
  std::vector<RecordedWrite> writes;
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) {
    std::fprintf(stderr, "fake_llm_server: --replay %s: cannot open it\n", path.c_str());
    std::exit(2);
  }
  std::string text;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  int line_no = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("at_ms") || !j["at_ms"].is_number() || !j.contains("write") ||
        !j["write"].is_string()) {
      std::fprintf(stderr, "fake_llm_server: --replay %s line %d: not {\"at_ms\": N, \"write\": \"...\"}\n",
                   path.c_str(), line_no);
      std::exit(2);
    }
    writes.push_back({j["at_ms"].get<double>(), j["write"].get<std::string>()});
  }
  return writes;
}

// --replay's recordings, read before the server listens.
std::vector<std::vector<RecordedWrite>> g_recordings;

// Answers with recording `writes`, each at its time after `entered`.
void replay(const Config& cfg, const std::vector<RecordedWrite>& writes, httplib::Response& res,
            std::chrono::steady_clock::time_point entered) {
  res.set_chunked_content_provider(cfg.ollama ? "application/x-ndjson" : "text/event-stream",
                                   [writes, entered](size_t, httplib::DataSink& sink) {
                                     for (const RecordedWrite& w : writes) {
                                       std::this_thread::sleep_until(
                                           entered + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                         std::chrono::duration<double, std::milli>(w.at_ms)));
                                       if (!sink.write(w.bytes.data(), w.bytes.size())) return false;
                                     }
                                     sink.done();
                                     return true;
                                   });
}

bool has_model(const Config& cfg, const std::string& name) {
  for (const auto& m : cfg.models) {
    if (name == m || name == m + ":latest") return true;
  }
  return false;
}

std::atomic<long> g_requests{0};
std::atomic<bool> g_frozen{false};  // fault "freeze": every request waits --stall-ms

// Every request so far, "METHOD PATH CLIENT_PORT" (GET /fake/log).
std::mutex g_log_mu;
std::vector<std::string> g_log;

// --lockstep's server-wide clock: the first step at or after `t`, steps `interval_ms` apart
// from the first time any stream asked.
std::chrono::steady_clock::time_point next_step(std::chrono::steady_clock::time_point t, double interval_ms) {
  static const auto epoch = std::chrono::steady_clock::now();
  const double since_ms = std::chrono::duration<double, std::milli>(t - epoch).count();
  const double steps = interval_ms > 0 ? std::ceil(since_ms / interval_ms) : 0;
  return epoch + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double, std::milli>(steps * interval_ms));
}

// Whether the connection from `remote_port` served a request before the one being handled.
bool kept_alive(int remote_port) {
  const std::string tail = " " + std::to_string(remote_port);
  std::lock_guard lock(g_log_mu);
  int seen = 0;
  for (const auto& line : g_log) {
    if (line.size() > tail.size() && line.compare(line.size() - tail.size(), tail.size(), tail) == 0) ++seen;
  }
  return seen > 1;  // the log holds the request being handled too
}

// Resets the connection from the client's `remote_port` now (RST: SO_LINGER 0, then its last
// descriptor closed), without answering. The descriptor number is left to /dev/null, which
// httplib then fails to write to and closes itself, so no other connection takes the number
// meanwhile. httplib does not hand a handler its socket: it is found by its peer's port.
void reset_connection(int remote_port) {
  for (int fd = 3; fd < 4096; ++fd) {
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) != 0 || peer.ss_family != AF_INET) continue;
    if (ntohs(reinterpret_cast<const sockaddr_in&>(peer).sin_port) != remote_port) continue;
    const linger hard{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
      dup2(null, fd);
      close(null);
    }
    return;
  }
}

void sleep_ms(double ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

// Words in the prompt (the fake's "tokens").
int count_words(const json& body) {
  std::string text;
  if (body.contains("prompt")) {
    if (body["prompt"].is_string()) text = body["prompt"].get<std::string>();
    if (body["prompt"].is_array()) return static_cast<int>(body["prompt"].size());
  }
  if (body.contains("messages") && body["messages"].is_array()) {
    for (const auto& m : body["messages"]) text += " " + m.value("content", "");
  }
  int n = 0;
  bool in = false;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (!space && !in) ++n;
    in = !space;
  }
  return n;
}

// An embeddings request's inputs: how many texts ("input": a string or an array) and their words.
std::pair<int, int> embed_inputs(const httplib::Request& q) {
  const json body = json::parse(q.body, nullptr, false);
  if (!body.is_object() || !body.contains("input")) return {0, 0};
  json texts = body["input"].is_array() ? body["input"] : json::array({body["input"]});
  int words = 0;
  for (const auto& t : texts) words += count_words(json{{"prompt", t.is_string() ? t.get<std::string>() : ""}});
  return {static_cast<int>(texts.size()), words};
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool authorized(const Config& cfg, const httplib::Request& req, httplib::Response& res) {
  if (cfg.api_key.empty()) return true;
  if (req.get_header_value("Authorization") == "Bearer " + cfg.api_key) return true;
  res.status = 401;
  res.set_content(R"({"error":{"message":"Invalid API Key","type":"authentication_error"}})", "application/json");
  return false;
}

void generate(const Config& cfg, const httplib::Request& req, httplib::Response& res, bool chat) {
  const auto entered = std::chrono::steady_clock::now();  // the request parsed, the handler entered
  if (!authorized(cfg, req, res)) return;
  const long index = g_requests.fetch_add(1);
  const std::string fault = cfg.faults.empty() ? "ok" : cfg.faults[static_cast<std::size_t>(index) % cfg.faults.size()];
  const json body = json::parse(req.body, nullptr, false);
  if (body.is_discarded()) {
    res.status = 400;
    res.set_content(R"({"error":"bad json"})", "application/json");
    return;
  }
  const std::string model = body.value("model", "");
  if (!has_model(cfg, model)) {
    res.status = 404;
    res.set_content(json{{"error", "model '" + model + "' not found"}}.dump(), "application/json");
    return;
  }
  int asked = 128;
  if (cfg.ollama) {
    if (body.contains("options") && body["options"].contains("num_predict")) asked = body["options"]["num_predict"];
  } else if (body.contains("max_tokens")) {
    asked = body["max_tokens"];
  }
  if (!g_recordings.empty()) {
    replay(cfg, g_recordings[static_cast<std::size_t>(index) % g_recordings.size()], res, entered);
    return;
  }
  const int n = cfg.fixed_tokens > 0 ? cfg.fixed_tokens : asked;
  const int prompt_n = count_words(body);
  const double predicted_ms = cfg.interval_ms * (n > 0 ? n - 1 : 0);
  if (fault == "freeze") {
    g_frozen = true;
    sleep_ms(cfg.stall_ms);
    return;
  }
  if (fault == "exit") {
    std::_Exit(0);  // every connection closes; nothing listens any more
  }
  if (fault == "drop" || (fault == "drop-kept" && kept_alive(req.remote_port))) {
    sleep_ms(cfg.ttft_ms);
    reset_connection(req.remote_port);
    return;
  }
  if (fault == "500") {
    res.status = 500;
    res.set_content(R"({"error":{"message":"the fake's set internal error","code":500}})", "application/json");
    return;
  }
  if (fault == "nostream") {
    json whole = cfg.ollama ? json{{"model", model}, {"response", "all at once"}, {"done", true}}
                            : json{{"choices", json::array({{{"text", "all at once"}, {"finish_reason", "length"}}})}};
    res.set_content(cfg.ollama ? whole.dump() : whole.dump(2), "application/json");
    return;
  }
  const Config c = cfg;
  res.set_chunked_content_provider(
      cfg.ollama ? "application/x-ndjson" : "text/event-stream",
      [c, fault, n, prompt_n, predicted_ms, chat, model, entered](size_t, httplib::DataSink& sink) {
        const auto send = [&](const std::string& s) { return sink.write(s.data(), s.size()); };
        if (fault == "stall") {
          sleep_ms(c.stall_ms);
          return false;
        }
        const int upto = fault == "cut" ? n / 2 : (fault == "malformed" ? 1 : n);
        // The first token at ttft after the handler was entered (the headers' write included);
        // --lockstep: at the first step of the server's clock after that.
        using Clock = std::chrono::steady_clock;
        auto first = entered + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double, std::milli>(c.ttft_ms));
        if (c.lockstep) first = next_step(first, c.interval_ms);
        std::this_thread::sleep_until(first);
        const auto start = c.lockstep ? first : Clock::now();
        double first_ms = c.ttft_ms;  // --report-actual: when the first token was written, measured
        std::string burst;  // fault "burst": every token, written at once after the loop
        for (int i = 0; i < upto; ++i) {
          if (i > 0 && fault != "burst") {
            // On schedule from the first token: i intervals after it, whatever writing cost.
            std::this_thread::sleep_until(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                      std::chrono::duration<double, std::milli>(c.interval_ms * i)));
          }
          const std::string word = " tok" + std::to_string(i);
          std::string line;
          if (c.ollama) {
            json j = {{"model", model}, {"created_at", "2026-11-30T00:00:00Z"}, {"done", false}};
            if (chat) j["message"] = {{"role", "assistant"}, {"content", word}};
            else j["response"] = word;
            line = j.dump() + "\n";
          } else {
            json choice = {{"index", 0}, {"finish_reason", nullptr}};
            if (chat) choice["delta"] = {{"content", word}};
            else choice["text"] = word;
            line = "data: " + json{{"choices", json::array({choice})}}.dump() + "\n\n";
          }
          if (fault == "burst") {
            burst += line;
            continue;
          }
          if (!send(line)) return false;
          if (i == 0 && c.report_actual) {
            first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - entered).count();
          }
        }
        if (!burst.empty() && !send(burst)) return false;
        if (fault == "cut") return false;  // the connection closes mid-stream
        if (fault == "malformed") {
          send(c.ollama ? "{\"response\": \"broken\n" : "data: {\"choices\": [oops\n\n");
          sink.done();
          return true;
        }
        if (c.ollama) {
          json done = {{"model", model},
                       {"created_at", "2026-11-30T00:00:00Z"},
                       {"done", true},
                       {"done_reason", "length"},
                       {"total_duration", static_cast<int64_t>((c.ttft_ms + predicted_ms) * 1e6)},
                       {"load_duration", 1000000},
                       {"prompt_eval_count", prompt_n},
                       {"prompt_eval_duration", static_cast<int64_t>(first_ms * 1e6)},
                       {"eval_count", n},
                       {"eval_duration", static_cast<int64_t>(predicted_ms * 1e6)}};
          if (chat) done["message"] = {{"role", "assistant"}, {"content", ""}};
          else done["response"] = "";
          send(done.dump() + "\n");
        } else {
          json fin = {{"choices", json::array({{{"index", 0},
                                                {"finish_reason", "length"},
                                                {chat ? "delta" : "text", chat ? json::object() : json("")}}})}};
          send("data: " + fin.dump() + "\n\n");
          json usage = {
              {"choices", json::array()},
              {"usage", {{"prompt_tokens", prompt_n}, {"completion_tokens", n}, {"total_tokens", prompt_n + n}}},
              {"timings",
               {{"prompt_n", prompt_n},
                {"prompt_ms", first_ms},
                {"predicted_n", n},
                {"predicted_ms", predicted_ms},
                {"predicted_per_second", predicted_ms > 0 ? 1e3 * n / predicted_ms : 0.0}}}};
          send("data: " + usage.dump() + "\n\n");
          send("data: [DONE]\n\n");
        }
        sink.done();
        return true;
      });
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--protocol") cfg.ollama = v == "ollama";
    else if (k == "--port") cfg.port = std::atoi(v.c_str());
    else if (k == "--ttft-ms") cfg.ttft_ms = std::atof(v.c_str());
    else if (k == "--interval-ms") cfg.interval_ms = std::atof(v.c_str());
    else if (k == "--tokens") cfg.fixed_tokens = std::atoi(v.c_str());
    else if (k == "--faults") cfg.faults = split(v);
    else if (k == "--stall-ms") cfg.stall_ms = std::atof(v.c_str());
    else if (k == "--report-actual") cfg.report_actual = v == "1";
    else if (k == "--lockstep") cfg.lockstep = v == "1";
    else if (k == "--api-key") cfg.api_key = v;
    else if (k == "--replay") cfg.replay = split(v);
    else if (k == "--model") {
      cfg.models = split(v);
      cfg.model = cfg.models.empty() ? "" : cfg.models.front();
    } else {
      std::fprintf(stderr, "fake_llm_server: unknown flag %s\n", k.c_str());
      return 2;
    }
  }
  for (const auto& path : cfg.replay) g_recordings.push_back(read_recording(path));
  httplib::Server svr;
  svr.new_task_queue = [] { return new httplib::ThreadPool(160); };
  svr.set_keep_alive_max_count(100000);
  svr.set_tcp_nodelay(true);  // each token leaves when written (Nagle would hold small writes ~40 ms)
  // GET /fake/log: every request so far, one line each, "METHOD PATH CLIENT_PORT", in arrival
  // order (which connection each request came on: tests of connection reuse).
  svr.set_pre_routing_handler([&cfg](const httplib::Request& q, httplib::Response&) {
    if (g_frozen.load()) sleep_ms(cfg.stall_ms);
    if (q.path != "/fake/log") {
      std::lock_guard lock(g_log_mu);
      g_log.push_back(q.method + " " + q.path + " " + std::to_string(q.remote_port));
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  svr.Get("/fake/log", [](const httplib::Request&, httplib::Response& res) {
    std::string text;
    {
      std::lock_guard lock(g_log_mu);
      for (const auto& line : g_log) text += line + "\n";
    }
    res.set_content(text, "text/plain");
  });
  if (cfg.ollama) {
    svr.Get("/api/version", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"version":"0.0.0-fake"})", "application/json");
    });
    svr.Get("/api/tags", [&](const httplib::Request&, httplib::Response& res) {
      json list = json::array();
      for (const auto& m : cfg.models) list.push_back({{"name", m + ":latest"}});
      res.set_content(json{{"models", list}}.dump(), "application/json");
    });
    svr.Get("/api/ps", [&](const httplib::Request&, httplib::Response& res) {
      res.set_content(json{{"models", json::array({{{"name", cfg.model + ":latest"}}})}}.dump(), "application/json");
    });
    svr.Post("/api/generate", [&](const httplib::Request& q, httplib::Response& r) { generate(cfg, q, r, false); });
    svr.Post("/api/chat", [&](const httplib::Request& q, httplib::Response& r) { generate(cfg, q, r, true); });
    svr.Post("/api/embed", [&](const httplib::Request& q, httplib::Response& r) {
      if (!authorized(cfg, q, r)) return;
      const auto [n, words] = embed_inputs(q);
      json vectors = json::array();
      for (int i = 0; i < n; ++i) vectors.push_back({0.1, 0.2, 0.3, 0.4});
      sleep_ms(cfg.ttft_ms);
      r.set_content(json{{"model", cfg.model}, {"embeddings", vectors}, {"prompt_eval_count", words}}.dump(),
                    "application/json");
    });
  } else {
    svr.Get("/v1/models", [&](const httplib::Request&, httplib::Response& res) {
      json list = json::array();
      for (const auto& m : cfg.models) list.push_back({{"id", m}});
      res.set_content(json{{"object", "list"}, {"data", list}}.dump(), "application/json");
    });
    svr.Get("/props", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"build_info":"b0-fake"})", "application/json");
    });
    svr.Post("/tokenize", [](const httplib::Request& q, httplib::Response& r) {  // one id per word
      const json body = json::parse(q.body, nullptr, false);
      json ids = json::array();
      const int n = body.is_object() ? count_words(json{{"prompt", body.value("content", "")}}) : 0;
      for (int i = 0; i < n; ++i) ids.push_back(100 + i);
      r.set_content(json{{"tokens", ids}}.dump(), "application/json");
    });
    svr.Post("/v1/completions", [&](const httplib::Request& q, httplib::Response& r) { generate(cfg, q, r, false); });
    svr.Post("/v1/chat/completions",
             [&](const httplib::Request& q, httplib::Response& r) { generate(cfg, q, r, true); });
    svr.Post("/v1/embeddings", [&](const httplib::Request& q, httplib::Response& r) {
      if (!authorized(cfg, q, r)) return;
      const auto [n, words] = embed_inputs(q);
      json data = json::array();
      for (int i = 0; i < n; ++i) data.push_back({{"index", i}, {"embedding", {0.1, 0.2, 0.3, 0.4}}});
      sleep_ms(cfg.ttft_ms);
      r.set_content(json{{"data", data}, {"usage", {{"prompt_tokens", words}, {"total_tokens", words}}}}.dump(),
                    "application/json");
    });
  }
  int port = cfg.port;
  if (port == 0) {
    port = svr.bind_to_any_port("127.0.0.1");
  } else if (!svr.bind_to_port("127.0.0.1", port)) {
    port = -1;
  }
  if (port <= 0) {
    std::fprintf(stderr, "fake_llm_server: cannot listen on 127.0.0.1\n");
    return 1;
  }
  std::printf("port %d\n", port);
  std::fflush(stdout);
  return svr.listen_after_bind() ? 0 : 1;
}
