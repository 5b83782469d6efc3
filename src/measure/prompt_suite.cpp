#include "measure/prompt_suite.h"

#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "core/clock.h"
#include "core/data_dir.h"
#include "core/text_lines.h"
#include "hw/file_text.h"
#include "power/summary.h"

namespace rigbench::measure {

namespace {

using nlohmann::json;

std::string xxh64_hex(const std::string& bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "xxh64:%016llx",
                static_cast<unsigned long long>(XXH64(bytes.data(), bytes.size(), 0)));
  return buf;
}

}  // namespace

Result<PromptSuite> parse_prompt_suite(const std::string& content, const std::string& source,
                                       const std::string& name) {
  PromptSuite suite;
  suite.name = name;
  suite.source = source;
  suite.hash = xxh64_hex(content);
  std::set<std::string> ids;
  for (const auto& [line, text] : nonblank_lines(content)) {
    const std::string at = "prompts '" + source + "' line " + std::to_string(line) + ": ";
    auto bad = [&](const std::string& what) { return fail(ErrorCode::kInvalidInput, at + what); };
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return bad("not JSONL (each line one JSON object)");
    SuitePrompt p;
    p.line = line;
    if (j.contains("id")) {
      if (!j["id"].is_string() || j["id"].get<std::string>().empty()) return bad("id is not a non-empty string");
      p.id = j["id"].get<std::string>();
    } else {
      p.id = "line " + std::to_string(line);
    }
    if (!ids.insert(p.id).second) return bad("id '" + p.id + "' appears twice");
    p.category = "none";
    if (j.contains("category")) {
      if (!j["category"].is_string() || j["category"].get<std::string>().empty())
        return bad("category is not a non-empty string");
      p.category = j["category"].get<std::string>();
    }
    const bool has_text = j.contains("text"), has_messages = j.contains("messages");
    if (has_text && has_messages) return bad("both text and messages; give one");
    if (has_text) {
      if (!j["text"].is_string() || j["text"].get<std::string>().empty()) return bad("no text (\"text\" is empty)");
      p.text = j["text"].get<std::string>();
    } else if (has_messages) {
      if (!j["messages"].is_array() || j["messages"].empty()) return bad("no text (\"messages\" is not a list of messages)");
      for (const json& m : j["messages"]) {
        if (!m.is_object() || !m.contains("role") || !m["role"].is_string() || !m.contains("content") ||
            !m["content"].is_string()) {
          return bad("a message without a \"role\" and \"content\" string");
        }
        p.messages.push_back({m["role"].get<std::string>(), m["content"].get<std::string>()});
      }
    } else {
      return bad("no text (give \"text\" or \"messages\")");
    }
    if (j.contains("n_gen")) {
      const json& n = j["n_gen"];
      if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > 1000000) {
        return bad("output length n_gen " + n.dump() + ": must be a whole number of tokens >= 1");
      }
      p.n_gen = n.get<int>();
    }
    suite.prompts.push_back(std::move(p));
  }
  if (suite.prompts.empty()) return fail(ErrorCode::kInvalidInput, "prompts '" + source + "': no prompts in the file");
  return suite;
}

std::string builtin_suite_path() { return data_file_path("prompts/builtin.jsonl"); }

Result<PromptSuite> read_prompt_suite(const std::string& spec) {
  const bool builtin = spec == "builtin";
  const std::string path = builtin ? builtin_suite_path() : spec;
  const std::optional<std::string> content = hw::read_file_text(path);
  if (!content) {
    return fail(ErrorCode::kNotFound, "prompts '" + spec + "': cannot read " + (builtin ? "the built-in suite at '" + path + "'" : std::string("the file")));
  }
  return parse_prompt_suite(*content, spec,
                            builtin ? std::string("builtin") : std::filesystem::path(path).filename().string());
}

int suite_n_ctx(const std::vector<PreparedPrompt>& prepared) {
  int n_ctx = 0;
  for (const PreparedPrompt& pp : prepared) n_ctx = std::max(n_ctx, static_cast<int>(pp.tokens.size()) + pp.prompt->n_gen);
  return n_ctx;
}

Result<std::vector<PreparedPrompt>> prepare_prompts(engine::Engine& engine, const PromptSuite& suite, int n_ctx) {
  std::vector<PreparedPrompt> out;
  const bool templated = engine.has_chat_template();
  for (const SuitePrompt& p : suite.prompts) {
    const std::string at = "prompts '" + suite.source + "' line " + std::to_string(p.line) + ": ";
    std::string text = p.text;
    if (!p.messages.empty() || templated) {
      if (!templated) {
        return fail(ErrorCode::kInvalidInput,
                    at + "chat messages, but the model has no chat template; give \"text\" instead");
      }
      const std::vector<engine::ChatMessage> messages =
          p.messages.empty() ? std::vector<engine::ChatMessage>{{"user", p.text}} : p.messages;
      auto applied = engine.apply_chat_template(messages);
      if (!applied) return fail(ErrorCode::kInvalidInput, at + applied.error().message);
      text = std::move(*applied);
    }
    auto tokens = engine.tokenize(text);
    if (!tokens) return fail(tokens.error().code, at + tokens.error().message);
    const auto needed = static_cast<int64_t>(tokens->size()) + p.n_gen;
    if (n_ctx > 0 && needed > n_ctx) {
      return fail(ErrorCode::kInvalidInput, at + "the prompt (" + std::to_string(tokens->size()) +
                                                " tokens) and its n_gen " + std::to_string(p.n_gen) +
                                                " are longer than the context (-c " + std::to_string(n_ctx) +
                                                "); shorten it or raise -c");
    }
    out.push_back({&p, std::move(*tokens)});
  }
  return out;
}

Result<RunOutcome> run_suite(engine::Engine& engine, const std::atomic<bool>& cancel, const TestCase& tc,
                             const PromptSuite& suite, bool ignore_eos,
                             const std::function<void(const std::string&)>& progress, const PhaseMarker& mark,
                             double idle_s) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  BenchParams p = tc.params;
  if (Status s = engine.load(tc.model_path, p); !s) return std::unexpected(s.error());
  auto prepared = prepare_prompts(engine, suite, p.n_ctx);
  if (!prepared) return std::unexpected(prepared.error());
  if (p.n_ctx <= 0) p.n_ctx = suite_n_ctx(*prepared);
  if (Status s = engine.open_context(p); !s) return std::unexpected(s.error());

  RunOutcome out;
  out.params = p;
  engine.settings_used(out.params);
  SuiteResult result;
  result.name = suite.name;
  result.hash = suite.hash;
  result.ignore_eos = ignore_eos;
  for (const PreparedPrompt& pp : *prepared) {
    PromptResult r;
    r.id = pp.prompt->id;
    r.category = pp.prompt->category;
    r.n_prompt_tokens = static_cast<int>(pp.tokens.size());
    r.n_gen_asked = pp.prompt->n_gen;
    result.prompts.push_back(std::move(r));
  }

  // One prompt: prefill, first token, then the rest, every token timed.
  struct Timing {
    int64_t prefill = 0, ttft = 0, gen = 0;
    int generated = 0;
    std::vector<int64_t> itl;
  };
  // Energy phases bracket the timed regions of the runs (not the warmup); a mark is taken
  // outside the clock readings.
  auto phase = [&](bool timed, const char* name) {
    if (timed && mark) mark(name);
  };
  PhaseTokens marked;  // the tokens of the windows marked and finished
  auto run_prompt = [&](const PreparedPrompt& pp, int n_gen, Timing& t, bool timed) -> Status {
    engine.clear();
    phase(timed, "pp");
    const int64_t t0 = now_ns();
    if (Status s = engine.decode_tokens(pp.tokens); !s) return s;
    const int64_t t1 = now_ns();
    phase(timed, "");
    if (timed) marked.pp += static_cast<double>(pp.tokens.size());
    auto token = engine.sample_token();
    if (!token) return std::unexpected(token.error());
    const int64_t t2 = now_ns();
    phase(timed, "tg");
    t.prefill = t1 - t0;
    t.ttft = t2 - t0;
    t.generated = 1;
    int64_t last = t2;
    int32_t tok = *token;
    while (t.generated < n_gen && (ignore_eos || !engine.is_end_of_generation(tok))) {
      if (cancel.load()) return fail(ErrorCode::kInterrupted, "interrupted");
      if (Status s = engine.decode_tokens({tok}); !s) return s;
      auto next = engine.sample_token();
      if (!next) return std::unexpected(next.error());
      tok = *next;
      const int64_t now = now_ns();
      t.itl.push_back(now - last);
      last = now;
      ++t.generated;
    }
    t.gen = last - t2;
    phase(timed, "");
    if (timed) marked.tg += t.generated - 1;
    return {};
  };

  auto body = [&]() -> Status {
    if (mark && idle_s > 0) {  // idle baseline: the model loaded, nothing running
      say("idle baseline");
      mark("idle");
      for (double left = idle_s; left > 0 && !cancel.load(); left -= 0.1) {
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.1)));
      }
      mark("");
    }
    for (int w = 0; w < p.warmup && !cancel.load() && !prepared->empty(); ++w) {
      say("warmup " + std::to_string(w + 1) + "/" + std::to_string(p.warmup));
      Timing t;
      if (Status s = run_prompt(prepared->front(), 2, t, false); !s) return s;
    }
    for (int run = 0; run < p.repetitions && !cancel.load(); ++run) {
      const std::string suite_run = "suite run " + std::to_string(run + 1) + "/" + std::to_string(p.repetitions);
      std::vector<Timing> timings(prepared->size());
      for (std::size_t i = 0; i < prepared->size(); ++i) {
        if (cancel.load()) return fail(ErrorCode::kInterrupted, "interrupted");
        // Each prompt is a step of its own: a suite of long generations takes minutes.
        say(suite_run + ", prompt " + std::to_string(i + 1) + "/" + std::to_string(prepared->size()) + " " +
            (*prepared)[i].prompt->id);
        if (Status s = run_prompt((*prepared)[i], (*prepared)[i].prompt->n_gen, timings[i], true); !s) {
          phase(true, power::kDropWindow);  // the window it cut (if any): energy without its tokens
          return s;
        }
      }
      // A run counts once every prompt finished: the runs of a suite stay whole.
      for (std::size_t i = 0; i < timings.size(); ++i) {
        PromptResult& r = result.prompts[i];
        r.prefill_ns.push_back(timings[i].prefill);
        r.ttft_ns.push_back(timings[i].ttft);
        r.gen_ns.push_back(timings[i].gen);
        r.n_generated.push_back(timings[i].generated);
        r.itl_ns.push_back(std::move(timings[i].itl));
      }
      ++result.runs;
    }
    return {};
  };
  if (Status s = body(); !s) {
    if (s.error().code != ErrorCode::kInterrupted) return std::unexpected(s.error());
    out.interrupted = true;
  }
  if (cancel.load()) out.interrupted = true;
  if (result.runs > 0) out.results.suite = std::move(result);
  out.marked_tokens = marked;
  out.memory = engine.memory();
  out.devices_used = engine.devices_used();
  return out;
}

}  // namespace rigbench::measure
