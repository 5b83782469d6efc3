// rigbench: prompt suites for `bench --prompts FILE|builtin`: the JSONL reader and the suite
// run (each prompt's prefill, TTFT and greedy generation, every token timed).
//
// A suite file is JSONL, one prompt a line (blank lines skipped):
//   {"id": "code-1", "category": "code", "text": "Write ...", "n_gen": 128}
//   {"id": "chat-1", "category": "chat", "messages": [{"role": "user", "content": "..."}], "n_gen": 64}
// id: unique in the file (default "line N"); category: free text (default "none"); exactly one
// of "text" (a string) and "messages" (role/content objects); n_gen: the output length in
// tokens, >= 1 (default 128). "text" is fed as a user message through the model's chat
// template when the model has one, as it is otherwise; "messages" need a template.
// The built-in suite is data/prompts/builtin.jsonl ($RIGBENCH_DATA_DIR/prompts/builtin.jsonl).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "engine/engine.h"
#include "measure/plan.h"
#include "measure/runner.h"

namespace rigbench::measure {

struct SuitePrompt {
  int line = 0;  // 1-based line in the file, for errors
  std::string id;
  std::string category;
  std::string text;                           // "text", or empty
  std::vector<engine::ChatMessage> messages;  // "messages", or empty
  int n_gen = 128;
};

struct PromptSuite {
  std::string name;    // "builtin" or the file's name (without directories)
  std::string source;  // what errors name: the path given, or "builtin"
  std::string hash;    // "xxh64:<16 hex>" of the file's bytes
  std::vector<SuitePrompt> prompts;
};

// Parses suite `content` read from `source` (named in errors). Errors (kInvalidInput), one
// line naming the source and line: not JSONL (a line that is not a JSON object), no text, both
// text and messages, a message without role or content, an output length that is not a whole
// number >= 1, a repeated id; a file without prompts.
Result<PromptSuite> parse_prompt_suite(const std::string& content, const std::string& source,
                                       const std::string& name);

// Reads the suite `spec`: "builtin" (the built-in suite) or a file path. Errors: kNotFound
// when the file cannot be read; parse_prompt_suite's.
Result<PromptSuite> read_prompt_suite(const std::string& spec);

// The path of the built-in suite: $RIGBENCH_DATA_DIR/prompts/builtin.jsonl, else the source
// tree's data/prompts/builtin.jsonl.
std::string builtin_suite_path();

// A prompt as the model sees it: its text through the chat template (or as it is), tokenized.
struct PreparedPrompt {
  const SuitePrompt* prompt = nullptr;
  std::vector<int32_t> tokens;
};

// Prepares every prompt of `suite` on the model loaded in `engine` and checks it fits `n_ctx`
// (0 = no limit given: the context is then made to fit the longest). Errors (kInvalidInput),
// naming the source and line: messages on a model without a chat template, a template
// llama.cpp does not know, a prompt whose tokens plus n_gen exceed n_ctx.
Result<std::vector<PreparedPrompt>> prepare_prompts(engine::Engine& engine, const PromptSuite& suite, int n_ctx);

// The context a suite's run opens when -c is not given (tc.params.n_ctx 0): the longest prompt's
// tokens plus its n_gen, tokens; 0 for no prompts.
int suite_n_ctx(const std::vector<PreparedPrompt>& prepared);

// Runs the suite on `tc`'s model with `tc`'s knobs: load, tokenize, context of tc.params.n_ctx
// (0 = the longest prompt plus its n_gen), `warmup` passes of the first prompt's prefill and
// one token, then tc.params.repetitions runs of the whole suite, each prompt per run:
//   clear KV; t0; decode the prompt (synchronized); t1; greedy sample; t2; then until n_gen
//   tokens (or end of generation, unless ignore_eos): decode the last token, sample, each
//   token's latency timed. prefill = t1 - t0, TTFT = t2 - t0, generation = the rest.
// The result is RunOutcome::results.suite (pp, tg, ttft absent). Errors: load, context and
// prepare_prompts' errors, kRuntime when a decode fails; cancellation sets interrupted.
// Energy (with a `mark`, as Runner::set_phase_marker): once the context exists, an idle window
// of `idle_s` seconds marked "idle"; then in the runs (not the warmup) each prompt's prefill
// (t0 to t1) marked "pp" and its generation after the first token (t2 to the last token)
// marked "tg", "" between them; a window cut by an interruption or a failed call ends with
// power::kDropWindow (not kept). RunOutcome::marked_tokens holds the kept windows' tokens, the
// same windows as the energy (the finished prompts of a run cut short included), while the
// results keep whole runs only.
Result<RunOutcome> run_suite(engine::Engine& engine, const std::atomic<bool>& cancel, const TestCase& tc,
                             const PromptSuite& suite, bool ignore_eos,
                             const std::function<void(const std::string&)>& progress = {}, const PhaseMarker& mark = {},
                             double idle_s = 0);

}  // namespace rigbench::measure
