#include "net/stream_loop.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "net/resolve.h"

namespace rigbench::net {

namespace {

// Seconds a connection may sit idle and still be reused (see CURLOPT_MAXAGE_CONN below).
constexpr long kMaxIdleReuseS = 4;


using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxErrorBody = 64 * 1024;
constexpr int kMaxEvents = 128;

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string seconds_text(double s) { return std::to_string(static_cast<int>(std::lround(s))); }

}  // namespace

struct StreamLoop::Impl {
  struct Transfer {
    CURL* easy = nullptr;
    std::string body;
    ChunkFn on_chunk;  // empty: the whole body is collected (open_connections' GETs)
    DoneFn on_done;
    long status = 0;
    bool canceled = false;
    bool resent = false;    // sent again once on a fresh connection (see drain())
    CURLcode first_failure = CURLE_OK;  // what ended the first send, when resent
    std::string collected;  // a non-2xx body, or the whole body without on_chunk
  };

  Url url;
  ClientOptions options;
  std::string origin;  // scheme://host:port/base_path
  CURLM* multi = nullptr;
  int epfd = -1;
  curl_slist* get_headers = nullptr;
  curl_slist* post_headers = nullptr;
  long timer_ms = -1;  // libcurl's timer: -1 none, else due at timer_at
  std::string socket_error;  // an epoll_ctl that failed in on_socket: run() returns it
  Clock::time_point timer_at;
  std::vector<std::unique_ptr<Transfer>> live;
  std::vector<CURL*> spare;  // easy handles of ended transfers, reused

  Impl(const Url& u, ClientOptions o) : url(u), options(std::move(o)) {}

  // The epoll set and the multi handle; "" or what failed, one line.
  std::string init(int connections) {
    global_init();
    origin = url.scheme + "://" + url.host + ":" + std::to_string(url.port) + url.base_path;
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) return std::string("epoll_create1 failed: ") + std::strerror(errno);
    multi = curl_multi_init();
    if (multi == nullptr) return "curl_multi_init failed (out of memory?)";
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &Impl::on_socket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &Impl::on_timer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, static_cast<long>(std::max(1, connections) + 4));
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_NOTHING);  // HTTP/1.1: one request a connection
    const char* accept = "Accept: application/json, text/event-stream, application/x-ndjson";
    get_headers = curl_slist_append(get_headers, accept);
    post_headers = curl_slist_append(post_headers, accept);
    post_headers = curl_slist_append(post_headers, "Content-Type: application/json");
    post_headers = curl_slist_append(post_headers, "Expect:");  // no 100-continue round trip
    if (!options.api_key.empty()) {
      const std::string bearer = "Authorization: Bearer " + options.api_key;
      get_headers = curl_slist_append(get_headers, bearer.c_str());
      post_headers = curl_slist_append(post_headers, bearer.c_str());
    }
    return "";
  }

  ~Impl() {
    for (auto& t : live) {
      if (multi != nullptr) curl_multi_remove_handle(multi, t->easy);
      curl_easy_cleanup(t->easy);
    }
    for (CURL* e : spare) curl_easy_cleanup(e);
    if (multi != nullptr) curl_multi_cleanup(multi);
    curl_slist_free_all(get_headers);
    curl_slist_free_all(post_headers);
    if (epfd >= 0) close(epfd);
  }

  static int on_socket(CURL*, curl_socket_t s, int what, void* userp, void* socketp) {
    auto* self = static_cast<Impl*>(userp);
    if (what == CURL_POLL_REMOVE) {
      epoll_ctl(self->epfd, EPOLL_CTL_DEL, s, nullptr);
      return 0;
    }
    epoll_event ev{};
    ev.data.fd = s;
    ev.events = ((what & CURL_POLL_IN) != 0 ? static_cast<uint32_t>(EPOLLIN) : 0u) |
                ((what & CURL_POLL_OUT) != 0 ? static_cast<uint32_t>(EPOLLOUT) : 0u);
    // libcurl's socket pointer (`socketp`, set by curl_multi_assign) marks a socket in the set:
    // one epoll_ctl per change, not a MOD that fails before each ADD.
    // A socket that cannot be watched would never be read (its transfer would wait for its
    // timeout): the failure is kept and ends run() with it.
    auto failed = [&](const char* op) {
      if (self->socket_error.empty()) {
        self->socket_error = std::string("epoll_ctl ") + op + " of socket " + std::to_string(s) + " failed: " +
                             std::strerror(errno);
      }
    };
    if (socketp != nullptr) {
      if (epoll_ctl(self->epfd, EPOLL_CTL_MOD, s, &ev) != 0) failed("MOD");
    } else if (epoll_ctl(self->epfd, EPOLL_CTL_ADD, s, &ev) == 0 ||
               (errno == EEXIST && epoll_ctl(self->epfd, EPOLL_CTL_MOD, s, &ev) == 0)) {
      curl_multi_assign(self->multi, s, self);  // in the set: later changes are one MOD
    } else {
      failed("ADD");
    }
    return 0;
  }

  static int on_timer(CURLM*, long timeout_ms, void* userp) {
    auto* self = static_cast<Impl*>(userp);
    self->timer_ms = timeout_ms;
    if (timeout_ms >= 0) self->timer_at = Clock::now() + std::chrono::milliseconds(timeout_ms);
    return 0;
  }

  static size_t on_write(char* data, size_t, size_t n, void* p) {
    auto* t = static_cast<Transfer*>(p);
    if (t->status == 0) curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->status);
    const bool success = t->status >= 200 && t->status < 300;
    if (!success || !t->on_chunk) {
      if (t->collected.size() < kMaxErrorBody || !t->on_chunk) t->collected.append(data, n);
      return n;
    }
    if (!t->on_chunk(std::string_view(data, n))) {
      t->canceled = true;
      return 0;  // not n: libcurl ends the transfer (CURLE_WRITE_ERROR)
    }
    return n;
  }

  Status start(const std::string& path, std::unique_ptr<Transfer> t, bool post) {
    CURL* e = nullptr;
    if (!spare.empty()) {
      e = spare.back();
      spare.pop_back();
    } else {
      e = curl_easy_init();
      if (e == nullptr) return fail(ErrorCode::kRuntime, "libcurl: curl_easy_init failed (out of memory?)");
    }
    t->easy = e;
    const std::string where = origin + path;
    curl_easy_setopt(e, CURLOPT_URL, where.c_str());
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Impl::on_write);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 0L);  // a spare handle may carry a 1 (below, drain())
    curl_easy_setopt(e, CURLOPT_PROXY, "");  // as HttpClient: the URL's server, never an environment proxy
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_s * 1e3));
    // A kept-alive connection idle longer than kMaxIdleReuseS is not reused: llama-server's
    // HTTP library closes idle connections after 5 s, and a request sent as the server closes
    // its connection ends with nothing received, counted as refused (libcurl's own limit is
    // 118 s). Just under 5 s, so that --rate's gaps of a few seconds still reuse a connection
    // (no TTFT holds a handshake) where the server keeps it. Seen once in a few hundred sweeps
    // on a loaded machine; the cause is inferred, not proven.
    curl_easy_setopt(e, CURLOPT_MAXAGE_CONN, kMaxIdleReuseS);
    // The request's time limit (a wait for the next byte as long as that is past it too).
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout_s * 1e3));
    if (!url.user.empty() && options.api_key.empty()) {
      curl_easy_setopt(e, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
      curl_easy_setopt(e, CURLOPT_USERNAME, url.user.c_str());
      curl_easy_setopt(e, CURLOPT_PASSWORD, url.password.c_str());
    }
    if (post) {
      curl_easy_setopt(e, CURLOPT_HTTPHEADER, post_headers);
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t->body.size()));
      curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body.data());
    } else {
      curl_easy_setopt(e, CURLOPT_HTTPHEADER, get_headers);
      curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
      // open_connections' GETs each open a connection: libcurl would send them one after
      // another on a connection already idle in the pool (the warm-up's), as each is answered
      // before it starts the next.
      curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
    }
    if (const CURLMcode added = curl_multi_add_handle(multi, e); added != CURLM_OK) {
      spare.push_back(e);
      return fail(ErrorCode::kRuntime, std::string("libcurl: curl_multi_add_handle failed: ") + curl_multi_strerror(added));
    }
    live.push_back(std::move(t));
    return {};
  }

  // The transfer's outcome from libcurl's code, as HttpClient classifies httplib's.
  HttpReply outcome(Transfer& t, CURLcode code) const {
    HttpReply r;
    if (t.status == 0) curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.status);
    r.status = static_cast<int>(t.status);
    char* type = nullptr;
    if (curl_easy_getinfo(t.easy, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type != nullptr) r.content_type = type;
    r.body = std::move(t.collected);
    const bool answered = t.status != 0;
    if (t.canceled || code == CURLE_ABORTED_BY_CALLBACK) {
      r.error = ErrorKind::kCanceled;
      r.message = "canceled";
      return r;
    }
    switch (code) {
      case CURLE_OK:
        if (r.status < 200 || r.status >= 300) {
          r.error = ErrorKind::kHttpStatus;
          r.message = "HTTP " + std::to_string(r.status);
        }
        return r;
      case CURLE_COULDNT_CONNECT:
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_RESOLVE_PROXY:
        r.error = ErrorKind::kRefused;
        r.message = cannot_connect_text(url.host);  // a name that does not resolve is said so
        return r;
      case CURLE_OPERATION_TIMEDOUT: {
        r.error = ErrorKind::kTimeout;
        curl_off_t connect_us = 0;
        curl_easy_getinfo(t.easy, CURLINFO_CONNECT_TIME_T, &connect_us);
        if (connect_us <= 0) r.message = "no connection within " + seconds_text(options.connect_timeout_s) + " s";
        else if (answered) r.message = "the answer ran past " + seconds_text(options.timeout_s) + " s";
        else r.message = "no answer for " + seconds_text(options.timeout_s) + " s";
        return r;
      }
      default:
        if (answered) {
          r.error = ErrorKind::kCut;
          r.message = "connection closed mid-answer";
        } else {
          r.error = ErrorKind::kRefused;
          r.message = std::string("connection closed before an answer (") + curl_easy_strerror(code) + ")";
        }
        return r;
    }
  }

  std::unique_ptr<Transfer> take(Transfer* t) {
    const auto at = std::find_if(live.begin(), live.end(), [&](const auto& p) { return p.get() == t; });
    std::unique_ptr<Transfer> owned = std::move(*at);
    *at = std::move(live.back());
    live.pop_back();
    curl_multi_remove_handle(multi, owned->easy);
    return owned;
  }

  // A request that a kept-alive connection lost before any answer (the server closed or reset
  // it as the request went out: llama-server's HTTP library does so when its threads are all
  // held by idle connections) is sent once more on a new connection, as browsers and HTTP
  // libraries do: nothing reached the server's application. Its caller's clock keeps running
  // from the first send, so the lost attempt counts in its TTFT. libcurl itself sends such a
  // request again, up to 5 times, but on the next idle connection of its pool, which the
  // server may have closed too: when it gives up, this sends it on a new connection
  // (tests/e2e/stream_loop_test.cpp holds both). Seen as 1 request in 8 counted "refused"
  // (libcurl: 55 failed sending, 56 failure receiving) in about 1 sweep of 4 beside other
  // tests; ServeBenchLlamaServer.ConcurrencySweep124 holds it.
  static bool may_resend(const Transfer& t, CURLcode code) {
    if (t.resent || t.canceled || t.status != 0) return false;
    if (code != CURLE_SEND_ERROR && code != CURLE_RECV_ERROR && code != CURLE_GOT_NOTHING) return false;
    long response = 0, new_connections = 1;
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &response);
    curl_easy_getinfo(t.easy, CURLINFO_NUM_CONNECTS, &new_connections);
    return response == 0 && new_connections == 0;  // no answer, on a reused connection
  }

  // Ended transfers: their handles back to `spare`, then each DoneFn (which may start more).
  void drain() {
    std::vector<std::pair<std::unique_ptr<Transfer>, HttpReply>> ended;
    std::vector<std::unique_ptr<Transfer>> resend;
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
      if (m->msg != CURLMSG_DONE) continue;
      const CURLcode code = m->data.result;
      char* priv = nullptr;
      curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
      std::unique_ptr<Transfer> owned = take(reinterpret_cast<Transfer*>(priv));
      if (may_resend(*owned, code)) {
        owned->resent = true;
        owned->first_failure = code;
        resend.push_back(std::move(owned));
        continue;
      }
      HttpReply reply = outcome(*owned, code);
      spare.push_back(owned->easy);
      ended.emplace_back(std::move(owned), std::move(reply));
    }
    for (auto& t : resend) {
      CURL* e = t->easy;
      curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
      if (curl_multi_add_handle(multi, e) != CURLM_OK) {  // not sent again: it ends as it failed
        HttpReply reply = outcome(*t, t->first_failure);
        spare.push_back(e);
        ended.emplace_back(std::move(t), std::move(reply));
        continue;
      }
      live.push_back(std::move(t));
    }
    for (auto& [t, reply] : ended) {
      if (t->on_done) t->on_done(std::move(reply));
    }
  }

  Status run(double max_wait_s) {
    int running = 0;
    long wait_ms = static_cast<long>(std::ceil(std::max(0.0, max_wait_s) * 1e3));
    if (timer_ms >= 0) {
      const auto due = std::chrono::ceil<std::chrono::milliseconds>(timer_at - Clock::now()).count();
      wait_ms = std::min<long>(wait_ms, std::max<long>(0, due));
    }
    epoll_event events[kMaxEvents];
    const int n = epoll_wait(epfd, events, kMaxEvents, static_cast<int>(wait_ms));
    if (n < 0 && errno != EINTR) return fail(ErrorCode::kRuntime, std::string("epoll_wait failed: ") + std::strerror(errno));
    for (int i = 0; i < n; ++i) {
      int flags = 0;
      if ((events[i].events & EPOLLIN) != 0) flags |= CURL_CSELECT_IN;
      if ((events[i].events & EPOLLOUT) != 0) flags |= CURL_CSELECT_OUT;
      if ((events[i].events & (EPOLLERR | EPOLLHUP)) != 0) flags |= CURL_CSELECT_ERR;
      curl_multi_socket_action(multi, events[i].data.fd, flags, &running);
    }
    if (timer_ms >= 0 && Clock::now() >= timer_at) {
      timer_ms = -1;
      curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    drain();
    if (!socket_error.empty()) return fail(ErrorCode::kRuntime, "serve-bench's client: " + socket_error);
    return {};
  }
};

Result<std::unique_ptr<StreamLoop>> StreamLoop::open(const Url& url, ClientOptions options, int connections) {
  auto impl = std::make_unique<Impl>(url, std::move(options));
  if (std::string why = impl->init(connections); !why.empty()) {
    return fail(ErrorCode::kRuntime, "serve-bench's client: " + why);
  }
  return std::unique_ptr<StreamLoop>(new StreamLoop(std::move(impl)));
}
StreamLoop::StreamLoop(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StreamLoop::~StreamLoop() = default;

Result<int> StreamLoop::open_connections(const std::string& path, int n) {
  int answered = 0, pending = 0;
  Status status;
  for (int i = 0; i < n && status; ++i) {
    auto t = std::make_unique<Impl::Transfer>();
    t->on_done = [&](HttpReply&& r) {
      --pending;
      if (r.status != 0) ++answered;
    };
    status = impl_->start(path, std::move(t), false);
    if (status) ++pending;
  }
  // Bounded: libcurl ends each GET by its connect and request time limits.
  while (pending > 0 && status) status = impl_->run(0.1);
  if (!status) {
    cancel_all();  // no DoneFn refers to this frame after it returns
    return std::unexpected(status.error());
  }
  return answered;
}

Status StreamLoop::post_stream(const std::string& path, std::string json_body, ChunkFn on_chunk, DoneFn on_done) {
  auto t = std::make_unique<Impl::Transfer>();
  t->body = std::move(json_body);
  t->on_chunk = std::move(on_chunk);
  t->on_done = std::move(on_done);
  return impl_->start(path, std::move(t), true);
}

Status StreamLoop::run(double max_wait_s) { return impl_->run(max_wait_s); }

void StreamLoop::cancel_all() {
  std::vector<std::unique_ptr<Impl::Transfer>> all = std::move(impl_->live);
  impl_->live.clear();
  for (auto& t : all) {
    curl_multi_remove_handle(impl_->multi, t->easy);
    impl_->spare.push_back(t->easy);
  }
  for (auto& t : all) {
    HttpReply r;
    r.status = static_cast<int>(t->status);
    r.error = ErrorKind::kCanceled;
    r.message = "canceled";
    if (t->on_done) t->on_done(std::move(r));
  }
}

int StreamLoop::in_flight() const { return static_cast<int>(impl_->live.size()); }

}  // namespace rigbench::net
