#include "measure/serve_load.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

#include "core/strings.h"
#include "core/text_lines.h"
#include "hw/activity.h"
#include "hw/file_text.h"
#include "measure/prompt_suite.h"
#include "net/stream_loop.h"

namespace rigbench::measure {

namespace {

using Clock = std::chrono::steady_clock;

// Stalled streams and this many pings in a row unanswered (each within 2 s): the server is lost
// (llama-server after SIGTERM can hold its listening socket open a while, answering nothing).
constexpr int kUnansweredPings = 3;

double seconds_since(Clock::time_point origin) { return std::chrono::duration<double>(Clock::now() - origin).count(); }

// Common English words; most tokenizers give each (with its leading space) one token.
constexpr const char* kWords[] = {
    "time",   "year",   "people", "way",     "day",     "man",       "thing",    "woman",   "life",       "child",
    "world",  "school", "state",  "family",  "student", "group",     "country",  "problem", "hand",       "part",
    "place",  "case",   "week",   "company", "system",  "program",   "question", "work",    "government", "number",
    "night",  "point",  "home",   "water",   "room",    "mother",    "area",     "money",   "story",      "fact",
    "month",  "lot",    "right",  "study",   "book",    "eye",       "job",      "word",    "business",   "issue",
    "side",   "kind",   "head",   "house",   "service", "friend",    "father",   "power",   "hour",       "game",
    "line",   "end",    "member", "law",     "car",     "city",      "name",     "team",    "minute",     "idea",
    "kid",    "body",   "back",   "parent",  "face",    "others",    "level",    "office",  "door",       "health",
    "person", "art",    "war",    "history", "party",   "result",    "change",   "morning", "reason",     "girl",
    "guy",    "moment", "air",    "teacher", "force",   "education", "dog",      "cat",     "tree",       "sun"};

// One line of a server's answer for a message: whitespace runs folded, at most 160 characters.
std::string one_line(const std::string& body) {
  std::string out;
  for (const char c : body) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (space) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
    if (out.size() >= 160) break;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::vector<ServePrompt> random_prompts(int count, int input_tokens, int output_tokens, uint64_t seed,
                                        const std::function<Result<std::vector<int>>(const std::string&)>& tokenize) {
  return random_prompts_of(std::vector<std::pair<int, int>>(static_cast<std::size_t>(std::max(count, 0)),
                                                            {input_tokens, output_tokens}),
                           seed, tokenize);
}

std::vector<ServePrompt> random_prompts_of(const std::vector<std::pair<int, int>>& lengths, uint64_t seed,
                                           const std::function<Result<std::vector<int>>(const std::string&)>& tokenize) {
  const int count = static_cast<int>(lengths.size());
  int input_tokens = 0;  // the longest prompt's
  for (const auto& [in, out] : lengths) input_tokens = std::max(input_tokens, in);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kWords) - 1);
  const auto words = [&](int n) {
    std::string text;
    for (int w = 0; w < n; ++w) {
      if (w > 0) text.push_back(' ');
      text += kWords[pick(rng)];
    }
    return text;
  };
  std::vector<ServePrompt> prompts;
  // Token ids: one /tokenize call for one long random text (twice the words asked, as a word
  // may be more than one token, plus one word per prompt); prompt i is a window of
  // input_tokens ids at an offset of its own (drawn without replacement: the text has at
  // least input_tokens + count + 8 offsets when a word is a token or more), so no prompt is
  // another's repeat (a repeat would hit the server's prompt cache and shorten its TTFT), and
  // the server is asked once, not once per prompt.
  if (tokenize && count > 0) {
    auto ids = tokenize(words(input_tokens * 2 + 8 + count));
    if (ids && static_cast<int>(ids->size()) > input_tokens) {
      std::vector<std::size_t> offsets(ids->size() - static_cast<std::size_t>(input_tokens) + 1);
      std::iota(offsets.begin(), offsets.end(), std::size_t{0});
      std::shuffle(offsets.begin(), offsets.end(), rng);
      for (int i = 0; i < count; ++i) {
        const auto [in, out] = lengths[static_cast<std::size_t>(i)];
        ServePrompt p;
        p.max_tokens = out;
        const std::size_t at = offsets[static_cast<std::size_t>(i) % offsets.size()];
        p.tokens.assign(ids->begin() + static_cast<std::ptrdiff_t>(at),
                        ids->begin() + static_cast<std::ptrdiff_t>(at) + in);
        p.input_tokens = in;
        prompts.push_back(std::move(p));
      }
      return prompts;
    }
  }
  // No /tokenize: input_tokens words, about one token each.
  for (const auto& [in, out] : lengths) {
    ServePrompt p;
    p.max_tokens = out;
    p.text = words(in);
    prompts.push_back(std::move(p));
  }
  return prompts;
}

void add_shared_prefix(std::vector<ServePrompt>& prompts, int prefix_tokens, uint64_t seed,
                       const std::function<Result<std::vector<int>>(const std::string&)>& tokenize, double share) {
  if (prefix_tokens <= 0 || prompts.empty()) return;
  // The prefix is the first prompt of its own random draw (one word a token, or token ids).
  const std::vector<ServePrompt> drawn = random_prompts(1, prefix_tokens, 1, seed, tokenize);
  const ServePrompt& prefix = drawn.front();
  // The prompts that carry it: the first round(share x n) of a seeded shuffle of their places.
  std::vector<std::size_t> order(prompts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(seed ^ 0x5eed5ba5eULL);
  std::shuffle(order.begin(), order.end(), rng);
  const auto carrying = static_cast<std::size_t>(std::llround(std::clamp(share, 0.0, 1.0) * prompts.size()));
  order.resize(carrying);
  // Token-id prompts get the prefix's ids (the same tokenizer drew both), text prompts its words.
  for (const std::size_t i : order) {
    ServePrompt& p = prompts[i];
    if (!p.tokens.empty()) {
      p.tokens.insert(p.tokens.begin(), prefix.tokens.begin(), prefix.tokens.end());
      p.input_tokens = static_cast<int>(p.tokens.size());
    } else {
      p.text = prefix.text + (p.text.empty() ? "" : " " + p.text);
    }
  }
}

ArrivalGaps::ArrivalGaps(double rate, double burstiness, uint64_t seed)
    : rng_(seed),
      gamma_(std::isfinite(burstiness) && burstiness > 0 ? burstiness : 1.0,
             1.0 / (rate * (std::isfinite(burstiness) && burstiness > 0 ? burstiness : 1.0))) {
  if (!std::isfinite(burstiness)) even_s_ = 1.0 / rate;
}

double ArrivalGaps::next() { return even_s_ > 0 ? even_s_ : gamma_(rng_); }

uint64_t run_seed(uint64_t seed, std::size_t model_index, std::size_t step_index) {
  const auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(mix(mix(seed) ^ static_cast<uint64_t>(model_index)) ^ static_cast<uint64_t>(step_index));
}

Result<std::vector<ServePrompt>> read_prompt_file(const std::string& spec, int default_output_tokens) {
  // "builtin": bench's built-in prompt suite (its "text" and "n_gen" keys are read below).
  const std::string path = spec == "builtin" ? builtin_suite_path() : spec;
  const std::optional<std::string> text = hw::read_file_text(path);
  if (!text) return fail(ErrorCode::kNotFound, "prompt file '" + path + "': cannot open it");
  std::vector<ServePrompt> prompts;
  for (const auto& [n, line] : nonblank_lines(*text)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    const auto bad = [&](const std::string& what) {
      return fail(ErrorCode::kInvalidInput, "prompt file '" + path + "' line " + std::to_string(n) + ": " + what);
    };
    if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
    ServePrompt p;
    p.max_tokens = default_output_tokens;
    if (j.contains("prompt") && j["prompt"].is_string()) {
      p.text = j["prompt"].get<std::string>();
    } else if (j.contains("text") && j["text"].is_string()) {  // a prompt suite's line (bench --prompts)
      p.text = j["text"].get<std::string>();
    } else if (j.contains("messages") && j["messages"].is_array()) {
      for (const auto& m : j["messages"]) {
        if (!m.is_object() || !m.contains("content") || !m["content"].is_string())
          return bad("a message without text 'content'");
        if (!p.text.empty()) p.text += "\n";
        p.text += m["content"].get<std::string>();
      }
    } else {
      return bad("no \"prompt\" text and no \"messages\" array");
    }
    for (const char* key : {"max_tokens", "output_tokens", "n_gen"}) {
      if (j.contains(key)) {
        if (!j[key].is_number_integer() || j[key].get<int>() < 1)
          return bad(std::string("\"") + key + "\" is not a count >= 1");
        p.max_tokens = j[key].get<int>();
      }
    }
    prompts.push_back(std::move(p));
  }
  if (prompts.empty()) return fail(ErrorCode::kInvalidInput, "prompt file '" + path + "': no prompts");
  return prompts;
}

namespace {

// A request in flight: its trace so far and the reader of its stream.
struct Pending {
  RequestTrace t;
  std::unique_ptr<net::StreamReader> reader;
};

// The request's JSON body; fills what the trace knows before it is sent.
std::string begin_request(const LoadOptions& o, const ServePrompt& prompt, RequestTrace& t) {
  t.asked_output_tokens = prompt.max_tokens;
  t.client_input_tokens = prompt.input_tokens;
  net::GenerationRequest req;
  req.model = o.model;
  req.prompt = prompt.text;
  if (o.api == net::Api::kOpenAiCompletions) req.prompt_tokens = prompt.tokens;
  if (req.prompt_tokens.empty() && o.api != net::Api::kOpenAiCompletions) t.client_input_tokens = -1;
  req.max_tokens = prompt.max_tokens;
  req.ignore_eos = o.ignore_eos;
  return net::request_body(o.api, req);
}

// A fresh reader and an empty token list: the request is sent now, at `start_s`.
void restart(Pending& p, const LoadOptions& o, double start_s) {
  p.reader = net::make_stream_reader(o.api);
  p.reader->keep_text(o.save_responses || o.turns > 1);  // a turn's answer joins its session's history
  p.t.token_s.clear();
  p.t.content_s = -1;
  // No growth per token, up to 64 Ki tokens reserved (a longer answer grows as usual).
  p.t.token_s.reserve(static_cast<std::size_t>(std::clamp(p.t.asked_output_tokens, 0, 1 << 16)) + 1);
  p.t.start_s = start_s;
}

// Bytes of the answer that arrived at `at` (seconds since the origin): each text piece they
// complete is a token at that time. False when the run was stopped (Ctrl-C).
bool take_chunk(Pending& p, const LoadOptions& o, std::string_view chunk, double at) {
  const bool no_content = p.reader->content_pieces() == 0;
  const int n = p.reader->feed(chunk);
  for (int i = 0; i < n; ++i) p.t.token_s.push_back(at);
  if (no_content && p.reader->content_pieces() > 0) p.t.content_s = at;
  return !(o.stop != nullptr && o.stop->load());
}

// The request ended at `at` with `reply`: its outcome, the server's counts and timings.
void end_request(Pending& p, const LoadOptions& o, const net::HttpReply& reply, double at) {
  RequestTrace& t = p.t;
  net::StreamReader& reader = *p.reader;
  if (reply.ok() || reply.error == net::ErrorKind::kCut) {
    const bool no_content = reader.content_pieces() == 0;
    const int n = reader.finish();
    for (int i = 0; i < n; ++i) t.token_s.push_back(at);
    if (no_content && reader.content_pieces() > 0) t.content_s = at;
  }
  t.end_s = at;
  t.http_status = reply.status;
  if (reply.ok()) {
    t.error = net::stream_outcome(reader, t.error_message);
  } else if (reply.error == net::ErrorKind::kCut && reader.error() != net::ErrorKind::kNone) {
    t.error = reader.error();  // bad bytes, then a lost connection: the bytes are the fault
    t.error_message = reader.error_message();
  } else {
    t.error = reply.error;
    t.error_message = reply.message;
    if (reply.error == net::ErrorKind::kHttpStatus && !reply.body.empty())
      t.error_message += ": " + one_line(reply.body);
  }
  t.error_message = net::without_secret(t.error_message, o.client.api_key);
  if (auto n = reader.prompt_tokens()) t.prompt_tokens = *n;
  if (auto c = reader.completion_tokens()) t.completion_tokens = *c;
  t.server = reader.timings();
  if (t.error == net::ErrorKind::kNone) t.model_event = reader.model_event();
  if (o.save_responses || o.turns > 1) t.response = reader.text();
}

// Starts the request of prompt `index` on `loop`; `on_end` gets its trace when it ended.
// `origin` (read when the request starts, its chunks arrive and it ends) is the time zero of
// the trace's times; `chunks` counts every chunk that arrives (the stall probe's activity).
Status start_request(net::StreamLoop& loop, const LoadOptions& o, const ServePrompt& prompt, std::size_t index,
                     const Clock::time_point& origin, std::size_t& chunks, std::function<void(RequestTrace&&)> on_end) {
  auto p = std::make_shared<Pending>();
  p->t.prompt_index = index;
  std::string body = begin_request(o, prompt, p->t);
  restart(*p, o, seconds_since(origin));
  return loop.post_stream(
      net::generation_path(o.api), std::move(body),
      [p, &o, &origin, &chunks](std::string_view chunk) {
        ++chunks;
        return take_chunk(*p, o, chunk, seconds_since(origin));
      },
      [p, &o, &origin, on_end = std::move(on_end)](net::HttpReply&& reply) {
        end_request(*p, o, reply, seconds_since(origin));
        on_end(std::move(p->t));
      });
}

}  // namespace

LoadResult run_load(const LoadOptions& o, const std::function<void(const RequestTrace&)>& on_done) {
  LoadResult result;
  const auto stopped = [&] { return o.stop != nullptr && o.stop->load(); };
  static const ServePrompt kEmpty;
  const auto prompt_at = [&](std::size_t i) -> const ServePrompt& {
    return o.prompts.empty() ? kEmpty : o.prompts[i % o.prompts.size()];
  };
  int limit = o.num_requests > 0 ? std::min(o.num_requests, kMaxRequestsPerRun) : kMaxRequestsPerRun;
  if (!o.arrival_s.empty()) limit = std::min(limit, static_cast<int>(o.arrival_s.size()));  // a trace's requests
  const int slots = std::max(1, std::min(o.concurrency, limit));
  // The client could not go on (see LoadResult::client_error): what ended is kept.
  const auto broken = [&](const Error& e) {
    result.client_error = e.message;
    result.interrupted = true;
    return result;
  };

  // One thread and one event loop for every request, the warm-up's too (net/stream_loop.h):
  // the client that is measured is the one that was warmed.
  auto opened = net::StreamLoop::open(o.url, o.client, slots);
  if (!opened) return broken(opened.error());
  net::StreamLoop& loop = **opened;
  Clock::time_point origin = Clock::now();
  std::size_t loop_bytes = 0;  // chunks received so far, every request's
  // The warm-up: one request at a time, not counted.
  for (int i = 0; i < o.warmup && !stopped(); ++i) {
    bool ended = false;
    const auto at = static_cast<std::size_t>(i);
    if (Status s = start_request(loop, o, prompt_at(at), at, origin, loop_bytes, [&](RequestTrace&& t) {
          result.warmup.push_back(std::move(t));
          ended = true;
        });
        !s) {
      return broken(s.error());
    }
    while (!ended) {
      if (stopped()) loop.cancel_all();  // Ctrl-C: it ends now, as canceled
      if (Status s = loop.run(0.05); !s) {
        loop.cancel_all();
        return broken(s.error());
      }
    }
  }
  if (o.stop_if_warmup_fails && !result.warmup.empty() && !stopped() &&
      std::all_of(result.warmup.begin(), result.warmup.end(),
                  [](const RequestTrace& t) { return t.error != net::ErrorKind::kNone; })) {
    result.warmup_failed = true;
    return result;
  }
  const bool timed = o.duration_s > 0;
  Clock::time_point deadline;
  const auto past_deadline = [&] { return timed && Clock::now() >= deadline; };

  // Open-loop arrivals (ArrivalGaps), drawn in order as requests are started; an infinite rate
  // is the closed loop (every request at once, at most `slots` in flight: vLLM's inf).
  const bool traced = !o.arrival_s.empty();
  const bool open_loop = traced || (o.rate > 0 && std::isfinite(o.rate));
  ArrivalGaps gap(o.rate > 0 && std::isfinite(o.rate) ? o.rate : 1.0, o.burstiness, o.seed);
  int next = 0;
  // The time the next counted request is due: the trace's, else the gaps' sum so far.
  const auto due_s = [&](int i, double previous_s) {
    if (!traced) return previous_s + gap.next();
    const auto at = static_cast<std::size_t>(i);
    return at < o.arrival_s.size() ? o.arrival_s[at] : std::numeric_limits<double>::infinity();
  };
  double next_arrival_s = traced ? o.arrival_s.front() : 0;
  double last_end_s = 0;

  // The connections are opened (a cheap GET each) before the first counted request: no TTFT
  // holds a TCP handshake.
  if (!stopped()) {
    if (auto n = loop.open_connections(net::ping_path(o.api), slots); !n) return broken(n.error());
  }
  if (o.before_counted) o.before_counted();
  origin = Clock::now();
  const double cpu_at_origin_s = hw::own_cpu_seconds();
  deadline =
      origin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timed ? o.duration_s : 0));

  int refused_in_a_row = 0;  // counted requests refused one after another (LoadOptions::lost_after_refused)
  // The stall probe (LoadOptions::stall_probe_s): the last time a byte came or a request
  // started, and the last probe.
  double last_activity_s = 0, last_probe_s = 0;
  bool stopped_listening = false;  // the probe was refused: the in-flight requests are lost
  int unanswered = 0;              // probes in a row that got no answer (kUnansweredPings)
  // Multi-turn chats (LoadOptions::turns > 1): one session per slot, each turn re-sending the
  // session's history (its prompts and answers so far) before a new prompt, after a think time.
  struct Session {
    std::string history;  // the turns so far, prompts and answers, one after another
    int turn = 0;         // turns done
    double ready_s = 0;   // the next turn may start (seconds since the origin)
    bool busy = false;
  };
  std::vector<Session> sessions(o.turns > 1 ? static_cast<std::size_t>(slots) : 0);
  const auto start_one = [&](Session* s = nullptr) {
    const auto at = static_cast<std::size_t>(o.warmup + next++);
    last_activity_s = seconds_since(origin);
    ServePrompt prompt = prompt_at(at);
    int turn = 1;
    if (s != nullptr) {
      s->busy = true;
      turn = s->turn + 1;
      if (s->turn > 0) prompt.text = s->history + "\n" + prompt.text;
      prompt.tokens.clear();
      prompt.input_tokens = -1;
    }
    return start_request(loop, o, prompt, at, origin, loop_bytes, [&, s, turn, sent = prompt.text](RequestTrace&& t) {
      t.turn = turn;
      if (s != nullptr) {  // the answer joins the history; the session's last turn starts a new one
        s->busy = false;
        s->turn = turn < o.turns ? turn : 0;
        s->history = s->turn > 0 ? sent + "\n" + t.response : std::string();
        s->ready_s = t.end_s + (s->turn > 0 ? o.think_time_s : 0);
        if (!o.save_responses) t.response.clear();
      }
      last_end_s = std::max(last_end_s, t.end_s);
      last_activity_s = std::max(last_activity_s, t.end_s);
      if (stopped_listening && t.error == net::ErrorKind::kCanceled) {
        t.error = net::ErrorKind::kCut;
        t.error_message = "the server stopped accepting connections with this request in flight";
      }
      refused_in_a_row = t.error == net::ErrorKind::kRefused ? refused_in_a_row + 1 : 0;
      if (o.lost_after_refused > 0 && refused_in_a_row >= o.lost_after_refused && !result.server_lost) {
        result.server_lost = true;
        result.lost_reason = std::to_string(o.lost_after_refused) + " requests in a row refused";
      }
      if (on_done) on_done(t);
      result.requests.push_back(std::move(t));
    });
  };
  bool canceled = false;
  Status client;  // an error: the client failed (LoadResult::client_error)
  for (;;) {
    if ((stopped() || !client) && !canceled) {
      loop.cancel_all();  // Ctrl-C or a client failure: what is in flight ends now, as canceled
      canceled = true;
    }
    const bool may_start = next < limit && !stopped() && client && !past_deadline() && !result.server_lost;
    if (!may_start && loop.in_flight() == 0) break;
    double wait_s = 0.05;  // at most: Ctrl-C and the deadline are seen within it
    if (may_start && open_loop) {
      const double now_s = seconds_since(origin);
      while (client && next < limit && loop.in_flight() < slots && next_arrival_s <= now_s) {
        client = start_one();
        next_arrival_s = due_s(next, next_arrival_s);
      }
      if (next < limit && loop.in_flight() < slots) wait_s = std::min(wait_s, std::max(0.0, next_arrival_s - now_s));
    } else if (may_start && !sessions.empty()) {
      const double now_s = seconds_since(origin);
      // The turns the sessions under way have yet to send: a new session starts only on the
      // requests they leave, so that --num-requests is whole sessions where it allows (a slot
      // that finished its session first took a turn of the other slot's, a race on a busy machine).
      int reserved = 0;
      for (const Session& s : sessions) {
        if (s.turn > 0 || s.busy) reserved += o.turns - s.turn - (s.busy ? 1 : 0);
      }
      for (Session& s : sessions) {
        const bool fresh = s.turn == 0 && !s.busy;
        if (client && next < limit && !s.busy && s.ready_s <= now_s && (!fresh || next + reserved < limit)) {
          client = start_one(&s);
          reserved += fresh ? o.turns - 1 : -1;
        }
        if (!s.busy && s.ready_s > now_s) wait_s = std::min(wait_s, s.ready_s - now_s);
      }
    } else if (may_start) {
      while (client && next < limit && loop.in_flight() < slots) client = start_one();
    }
    if (!client) continue;  // cancel what is in flight (above), then end
    const std::size_t bytes_before = loop_bytes;
    client = loop.run(wait_s);
    const double now_s = seconds_since(origin);
    if (loop_bytes != bytes_before) last_activity_s = now_s;
    // Streams stalled: does the server still take connections? (Refused: it is gone, as after
    // SIGTERM, where llama-server stops listening but holds its streams open.)
    if (o.lost_after_refused > 0 && loop.in_flight() > 0 && !result.server_lost &&
        now_s - last_activity_s >= o.stall_probe_s && now_s - last_probe_s >= o.stall_probe_s) {
      last_probe_s = now_s;
      net::ClientOptions quick = o.client;
      quick.connect_timeout_s = quick.timeout_s = std::min(o.client.timeout_s, 2.0);
      net::HttpClient probe(o.url, quick);
      const net::ErrorKind ping = probe.get(net::ping_path(o.api)).error;
      unanswered = ping == net::ErrorKind::kTimeout ? unanswered + 1 : 0;
      const std::string stalled = " while " + std::to_string(loop.in_flight()) + " requests stalled " +
                                  format_fixed(seconds_since(origin) - last_activity_s, 1) + " s";
      if (ping == net::ErrorKind::kRefused) result.lost_reason = "it stopped accepting connections" + stalled;
      if (unanswered >= kUnansweredPings) {
        result.lost_reason = "it stopped answering (" + std::to_string(unanswered) + " pings of " +
                             format_fixed(quick.timeout_s, 0) + " s unanswered)" + stalled;
      }
      if (!result.lost_reason.empty()) {
        result.server_lost = true;
        stopped_listening = true;
        loop.cancel_all();
      }
    } else if (now_s - last_activity_s < o.stall_probe_s) {
      unanswered = 0;
    }
  }
  result.duration_s = last_end_s;
  if (next > 0) {
    const double wall_s = seconds_since(origin);
    if (wall_s > 0) result.client_cpu_pct = 100.0 * (hw::own_cpu_seconds() - cpu_at_origin_s) / wall_s;
  }
  result.interrupted = stopped() || !client;
  if (!client) result.client_error = client.error().message;
  return result;
}

}  // namespace rigbench::measure
