// rigbench: the HTTP client of serve-bench's probes (the server's API, models, /tokenize) and
// of its --embeddings requests (cpp-httplib inside; only net/ includes its header); generation
// requests, streamed, go through net/stream_loop.h. One client holds one keep-alive
// connection: give each embeddings worker its own.
//
// An API key is sent as "Authorization: Bearer KEY" and is kept in no other form: no
// message, log or record of this layer contains it.
#pragma once

#include <memory>
#include <string>

#include "net/url.h"

namespace rigbench::net {

// Why a request failed, the kinds the benchmark counts (keys in JSON: error_kind_key()).
enum class ErrorKind {
  kNone,
  kRefused,     // no connection (refused, unreachable, name not resolved)
  kHttpStatus,  // an answer other than 2xx
  kMalformed,   // the body is not the stream the API speaks (bad JSON, not SSE, an error event)
  kCut,         // the stream ended before its last event (connection closed mid-way)
  kTimeout,     // no byte for the read timeout, or the request ran past its time limit
  kCanceled,    // the caller stopped it (Ctrl-C)
};

// "refused", "http_status", "malformed_stream", "cut_mid_stream", "timeout", "canceled" ("" for kNone).
const char* error_kind_key(ErrorKind kind);
// For people: "connection refused", "HTTP status", "malformed stream", "cut mid-stream", "timeout".
const char* error_kind_text(ErrorKind kind);

struct HttpReply {
  int status = 0;        // HTTP status; 0 when no answer came
  std::string body;      // the whole body (StreamLoop::post_stream: a non-2xx answer's only)
  std::string content_type;
  ErrorKind error = ErrorKind::kNone;  // kNone, kRefused, kTimeout, kCut (connection lost), kCanceled, kHttpStatus
  std::string message;                 // one line when error != kNone
  // The request failed before any byte came back on a kept-alive connection that had served
  // an earlier request: the server most likely closed it in the meantime, and the request can
  // be sent again on a new connection (as HTTP clients do; serve_embed does it once).
  bool stale_connection = false;
  bool ok() const { return error == ErrorKind::kNone; }
};

struct ClientOptions {
  std::string api_key;     // "" = no Authorization header
  double timeout_s = 60;   // a request's time limit, and the longest wait for the next byte
  double connect_timeout_s = 10;
};

class HttpClient {
 public:
  HttpClient(const Url& url, ClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpReply get(const std::string& path);
  HttpReply post(const std::string& path, const std::string& json_body);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rigbench::net
