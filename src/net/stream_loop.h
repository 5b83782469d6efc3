// rigbench: many streamed HTTP requests on one thread (serve-bench's load). libcurl's multi
// interface does the HTTP (connections, chunked bodies, keep-alive, timeouts, TLS); this
// class is its event loop: one epoll set over the transfers' non-blocking sockets, so a token
// arriving on any of N streams costs one wake-up of one thread, not a thread per stream (at 64
// streams, cpp-httplib's thread per stream cost 6.3 % of a core; bench/serve_client_cpu).
//
// Every function, and every callback, runs on the thread that calls run(): the callbacks need
// no lock. Connections are kept alive and reused by later requests of the same loop.
// An API key is sent as "Authorization: Bearer KEY" and kept in no other form (as HttpClient).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "net/http_client.h"
#include "net/url.h"

namespace rigbench::net {

class StreamLoop {
 public:
  // Opens the loop: an epoll set and a libcurl multi handle. `connections`: how many
  // connections the loop keeps open for reuse (the most in flight). Errors (kRuntime, one
  // line naming the call): the system refused either (file descriptors or memory exhausted).
  static Result<std::unique_ptr<StreamLoop>> open(const Url& url, ClientOptions options, int connections);
  ~StreamLoop();
  StreamLoop(const StreamLoop&) = delete;
  StreamLoop& operator=(const StreamLoop&) = delete;

  // Called with each chunk of a 2xx body as it arrives; returns false to stop that request
  // (its reply then says kCanceled). A non-2xx body is collected in the reply instead.
  using ChunkFn = std::function<bool(std::string_view)>;
  // Called once when the request ended, with the outcome (reply.body: a non-2xx answer's body).
  using DoneFn = std::function<void(HttpReply&&)>;

  // Sends `n` GETs of `path` at once, each on a new connection of its own, and runs until all
  // have answered: the connections stay open for the requests that follow (beside any opened
  // before, e.g. by a warm-up request). Returns how many
  // answered. Errors: as post_stream's and run()'s; every request in flight is then ended as
  // by cancel_all() (the GETs, and any other request started before: call it first).
  Result<int> open_connections(const std::string& path, int n);
  // Starts a streamed POST of `json_body` (returns at once; run() moves it). A request whose
  // kept-alive connection was lost before any answer (libcurl 55, 56 or 52, no status, no new
  // connection) is sent once more on a fresh connection, without a call to either function:
  // the caller's clock keeps running from the first send. Errors (kRuntime; then neither
  // function is ever called): libcurl cannot make a transfer (curl_easy_init, memory).
  Status post_stream(const std::string& path, std::string json_body, ChunkFn on_chunk, DoneFn on_done);
  // Waits up to `max_wait_s` for bytes on any request, and handles what came: chunks and
  // finished requests call their functions. Returns after the first batch of events.
  // Errors (kRuntime): epoll_wait failed (other than by a signal), or a socket of a request
  // could not be added to or changed in the epoll set (epoll_ctl: it would never be read).
  Status run(double max_wait_s);
  // Ends every request in flight now; each one's DoneFn is called with kCanceled.
  void cancel_all();
  int in_flight() const;

 private:
  struct Impl;
  explicit StreamLoop(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rigbench::net
