#include "net/http_client.h"

#include <httplib.h>

#include <chrono>

#include "net/resolve.h"

namespace rigbench::net {

const char* error_kind_key(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kNone: return "";
    case ErrorKind::kRefused: return "refused";
    case ErrorKind::kHttpStatus: return "http_status";
    case ErrorKind::kMalformed: return "malformed_stream";
    case ErrorKind::kCut: return "cut_mid_stream";
    case ErrorKind::kTimeout: return "timeout";
    case ErrorKind::kCanceled: return "canceled";
  }
  return "";
}

const char* error_kind_text(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kNone: return "";
    case ErrorKind::kRefused: return "connection refused";
    case ErrorKind::kHttpStatus: return "HTTP status";
    case ErrorKind::kMalformed: return "malformed stream";
    case ErrorKind::kCut: return "cut mid-stream";
    case ErrorKind::kTimeout: return "timeout";
    case ErrorKind::kCanceled: return "canceled";
  }
  return "";
}

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::microseconds to_us(double s) { return std::chrono::microseconds(static_cast<int64_t>(s * 1e6)); }

}  // namespace

struct HttpClient::Impl {
  Url url;
  ClientOptions options;
  httplib::Client client;
  bool used = false;  // a request went through on the current connection

  Impl(const Url& u, ClientOptions o)
      : url(u), options(std::move(o)), client(u.scheme + "://" + u.host + ":" + std::to_string(u.port)) {
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    client.set_connection_timeout(to_us(options.connect_timeout_s));
    client.set_read_timeout(to_us(options.timeout_s));
    client.set_write_timeout(to_us(options.timeout_s));
    client.set_follow_location(false);
    // user:password@ in the URL: HTTP basic auth (the bearer key wins when both are given).
    if (!url.user.empty() && options.api_key.empty()) client.set_basic_auth(url.user, url.password);
#ifdef CPPHTTPLIB_OPENSSL_SUPPORT
    client.enable_server_certificate_verification(true);
#endif
  }

  httplib::Headers headers() const {
    httplib::Headers h = {{"Accept", "application/json, text/event-stream, application/x-ndjson"}};
    if (!options.api_key.empty()) h.emplace("Authorization", "Bearer " + options.api_key);
    return h;
  }

  // Classifies a transport failure. `last_byte` is when the last byte arrived (or the request
  // was sent): a read that failed after the read timeout is a timeout, earlier a lost connection.
  HttpReply transport_error(httplib::Error err, bool got_bytes, Clock::time_point last_byte) const {
    HttpReply r;
    const double idle_s = std::chrono::duration<double>(Clock::now() - last_byte).count();
    switch (err) {
      case httplib::Error::Connection:
      case httplib::Error::BindIPAddress:
        r.error = ErrorKind::kRefused;
        r.message = cannot_connect_text(url.host);  // a name that does not resolve is said so
        break;
      case httplib::Error::ConnectionTimeout:
        r.error = ErrorKind::kTimeout;
        r.message = "no connection within " + std::to_string(static_cast<int>(options.connect_timeout_s)) + " s";
        break;
      case httplib::Error::Canceled:
        r.error = ErrorKind::kCanceled;
        r.message = "canceled";
        break;
      case httplib::Error::Read:
      case httplib::Error::Write:
      case httplib::Error::Unknown:
      default:
        if (idle_s >= options.timeout_s * 0.95) {
          r.error = ErrorKind::kTimeout;
          r.message = "no answer for " + std::to_string(static_cast<int>(options.timeout_s)) + " s";
        } else if (got_bytes) {
          r.error = ErrorKind::kCut;
          r.message = "connection closed mid-answer";
        } else {
          r.error = ErrorKind::kRefused;
          r.message = "connection closed before an answer (" + httplib::to_string(err) + ")";
        }
        break;
    }
    return r;
  }

  HttpReply send(const std::string& method, const std::string& path, const std::string& body) {
    httplib::Request req;
    req.method = method;
    req.path = url.base_path + path;
    req.headers = headers();
    if (!body.empty() || method == "POST") {
      req.body = body;
      req.set_header("Content-Type", "application/json");
    }
    HttpReply reply;
    bool got_bytes = false;
    Clock::time_point last_byte = Clock::now();
    req.response_handler = [&](const httplib::Response& res) {
      reply.status = res.status;
      reply.content_type = res.get_header_value("Content-Type");
      got_bytes = true;
      last_byte = Clock::now();
      return true;
    };
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
      last_byte = Clock::now();
      got_bytes = true;
      reply.body.append(data, n);
      return true;
    };
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    const bool sent = client.send(req, res, err);
    if (!sent || err != httplib::Error::Success) {
      HttpReply failed = transport_error(err, got_bytes, last_byte);
      if (!got_bytes && used && (err == httplib::Error::Read || err == httplib::Error::Write)) {
        failed.stale_connection = true;
      }
      used = false;
      client.stop();  // the next request opens a new connection
      failed.status = reply.status;
      failed.content_type = reply.content_type;
      failed.body = std::move(reply.body);
      return failed;
    }
    used = true;
    if (reply.status == 0) reply.status = res.status;
    if (reply.status < 200 || reply.status >= 300) {
      reply.error = ErrorKind::kHttpStatus;
      reply.message = "HTTP " + std::to_string(reply.status);
    }
    return reply;
  }
};

HttpClient::HttpClient(const Url& url, ClientOptions options)
    : impl_(std::make_unique<Impl>(url, std::move(options))) {}
HttpClient::~HttpClient() = default;

HttpReply HttpClient::get(const std::string& path) { return impl_->send("GET", path, ""); }

HttpReply HttpClient::post(const std::string& path, const std::string& json_body) {
  return impl_->send("POST", path, json_body);
}

}  // namespace rigbench::net
