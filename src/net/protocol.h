// rigbench: the two streaming APIs local servers speak, as request bodies, the server's
// identity and its embeddings. OpenAI's (/v1/chat/completions, /v1/completions; SSE,
// `stream_options.include_usage`) and Ollama's (/api/generate, /api/chat; NDJSON). Their
// streamed answers are read by net/stream_reader.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "net/http_client.h"

namespace rigbench::net {

enum class Api { kOpenAiChat, kOpenAiCompletions, kOllamaGenerate, kOllamaChat };

// "openai-chat", "openai-completions", "ollama-generate", "ollama-chat".
const char* api_name(Api api);
// Accepts the names above and the families "openai" (= openai-completions, as vLLM's
// `bench serve --backend openai` and this client's detection) and "ollama" (= ollama-generate).
// nullopt for any other name.
std::optional<Api> parse_api(std::string_view name);
bool is_ollama(Api api);
// The path of the generation endpoint ("/v1/chat/completions", "/api/generate", ...).
const char* generation_path(Api api);
// A cheap GET every server of the API answers ("/v1/models", "/api/version"): a load worker
// opens its connection with it before the counted requests start.
const char* ping_path(Api api);

// What a request asks the server to generate.
struct GenerationRequest {
  std::string model;
  std::string prompt;              // text; for chat APIs the one user message
  std::vector<int> prompt_tokens;  // token ids instead of text (openai-completions only; llama-server, vLLM)
  int max_tokens = 128;            // output length asked for
  bool ignore_eos = true;          // ask for exactly max_tokens (ignore_eos, min_tokens; Ollama: num_predict only)
};

// The JSON body of the streaming request.
std::string request_body(Api api, const GenerationRequest& request);

// --- the server's identity --------------------------------------------------------------

struct ServerInfo {
  std::string api_family;  // "openai" or "ollama"
  std::string version;     // Ollama's /api/version, llama-server's /props build_info, vLLM's /version; "" unknown
  std::string software;    // "ollama", "llama.cpp", "" unknown
  std::vector<std::string> models;  // the models the server lists (/v1/models ids, /api/tags names)
  std::vector<std::string> loaded;  // models loaded now (Ollama's /api/ps; OpenAI: the listed ones)
  // llama-server's /props model_path: the file it serves, as its -m gave it (relative to the
  // server's working directory); "" unknown (other servers; llama-server's router mode: "none").
  std::string model_path;
};

// Parses /v1/models ({"data":[{"id":...}]}) or Ollama's /api/tags ({"models":[{"name":...}]})
// or /api/ps. Errors: kInvalidInput when the body is not that shape.
Result<std::vector<std::string>> parse_model_list(std::string_view body, bool ollama);

// Asks the server which API it speaks (Ollama answers /api/version; OpenAI-compatible
// servers /v1/models), unless `forced` names the family, and which models it has.
// Errors (kRuntime, one line naming the URL): unreachable, 401/403 (an API key is needed),
// neither API answering.
Result<ServerInfo> probe_server(HttpClient& client, const Url& url, std::optional<Api> forced);

// The model to ask for: `wanted` when the server has it (or cannot list), else the one loaded
// model; errors name the models the server has.
Result<std::string> choose_model(const ServerInfo& info, const std::string& wanted, const Url& url);

// llama-server's /tokenize: the token ids of `text` (no special tokens). Errors: kRuntime
// (the server has no /tokenize, or its answer is not {"tokens": [...]}).
Result<std::vector<int>> tokenize(HttpClient& client, const std::string& text);

// `text` with every occurrence of `secret` replaced by "***" (messages that quote a server's
// answer never carry the API key).
std::string without_secret(std::string text, const std::string& secret);

// --- embeddings -------------------------------------------------------------------------

// /v1/embeddings or Ollama's /api/embed for `inputs`; returns the vectors' dimension and count.
struct EmbeddingReply {
  int count = 0;
  int dimension = 0;
  std::optional<int> prompt_tokens;
};
const char* embedding_path(bool ollama);
std::string embedding_body(bool ollama, const std::string& model, const std::vector<std::string>& inputs);
Result<EmbeddingReply> parse_embedding_reply(bool ollama, std::string_view body);

}  // namespace rigbench::net
