#include "engine/llama_rpc.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ggml-backend.h>
#include <ggml.h>
#include <llama.h>
#if __has_include(<ggml-rpc.h>)
#include <ggml-rpc.h>
#define RIGBENCH_HAVE_GGML_RPC_H 1
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <map>
#include <mutex>

#include "core/clock.h"
#include "core/knobs.h"
#include "core/rpc_endpoints.h"
#include "core/strings.h"
#include "engine/llama_support.h"

namespace rigbench::engine {

namespace {

// ggml-rpc.cpp's wire format (llama.cpp v0.4.0, protocol 6.0.0): a request is
// | cmd (1 byte) | size (8 bytes, little endian) | data |, an answer | size (8 bytes) | data |.
#ifdef RIGBENCH_HAVE_GGML_RPC_H
constexpr int kProtoMajor = RPC_PROTO_MAJOR_VERSION;
constexpr int kProtoMinor = RPC_PROTO_MINOR_VERSION;
constexpr int kProtoPatch = RPC_PROTO_PATCH_VERSION;
#else
constexpr int kProtoMajor = 6, kProtoMinor = 0, kProtoPatch = 0;
#endif
constexpr uint8_t kCmdGetDeviceMemory = 11;
constexpr uint8_t kCmdHello = 14;  // "must be always 14" (ggml-rpc.cpp)
constexpr uint8_t kCmdDeviceCount = 15;
constexpr std::size_t kConnCapsSize = 24;  // transport.h RPC_CONN_CAPS_SIZE
constexpr uint32_t kMaxDevices = 64;       // a bound on what a server may claim

// A TCP connection whose every wait ends by a deadline.
class Conn {
 public:
  Conn(std::string endpoint, double timeout_s) : endpoint_(std::move(endpoint)), timeout_ms_(static_cast<int>(timeout_s * 1000)) {}
  ~Conn() {
    if (fd_ >= 0) ::close(fd_);
  }

  Status open() {
    const auto colon = endpoint_.rfind(':');
    const std::string host = endpoint_.substr(0, colon), port = endpoint_.substr(colon + 1);
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &res); rc != 0 || !res) {
      return error(std::string("cannot resolve the host (") + gai_strerror(rc) + ")");
    }
    fd_ = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd_ < 0) {
      ::freeaddrinfo(res);
      return error(std::string("socket: ") + std::strerror(errno));
    }
    int rc = ::connect(fd_, res->ai_addr, res->ai_addrlen);
    ::freeaddrinfo(res);
    if (rc < 0 && errno != EINPROGRESS) return connect_error(errno);
    if (rc < 0) {
      pollfd p{fd_, POLLOUT, 0};
      const int n = ::poll(&p, 1, timeout_ms_);
      if (n == 0) return error("no answer within " + seconds() + " (connect timed out)");
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len);
      if (n < 0 || err != 0) return connect_error(n < 0 ? errno : err);
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return {};
  }

  // One request and its answer of exactly `out_size` bytes.
  Status call(uint8_t cmd, const void* in, uint64_t in_size, void* out, uint64_t out_size, const char* what) {
    std::vector<uint8_t> msg(1 + 8 + in_size);
    msg[0] = cmd;
    std::memcpy(msg.data() + 1, &in_size, 8);
    if (in_size) std::memcpy(msg.data() + 9, in, in_size);
    if (Status s = send_all(msg.data(), msg.size(), what); !s) return s;
    uint64_t size = 0;
    if (Status s = recv_all(&size, 8, what); !s) return s;
    if (size != out_size) {
      return error(std::string("malformed answer to ") + what + " (" + std::to_string(size) + " bytes, expected " +
                   std::to_string(out_size) + "): not an rpc-server of protocol " + rpc_protocol_version());
    }
    return recv_all(out, out_size, what);
  }

  Status error(const std::string& what) const { return fail(ErrorCode::kRuntime, "rpc-server " + endpoint_ + ": " + what); }

 private:
  std::string seconds() const { return format_number(timeout_ms_ / 1000.0) + " s"; }
  static std::string format_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }

  Status connect_error(int err) const {
    if (err == ECONNREFUSED)
      return error("connection refused; is ggml-rpc-server running there (ggml-rpc-server -H HOST -p PORT)?");
    return error(std::string("cannot connect: ") + std::strerror(err));
  }

  Status wait(short events, const char* what) {
    pollfd p{fd_, events, 0};
    const int n = ::poll(&p, 1, timeout_ms_);
    if (n == 0) {
      // Silence at the first message is also what any other server gives (an HTTP server such
      // as llama-server waits for a request line that never comes).
      const bool first = std::string_view(what) == "HELLO";
      return error(std::string("no answer to ") + what + " within " + seconds() +
                   (first ? " (not an rpc-server, e.g. an HTTP server such as llama-server at that port, or an "
                            "rpc-server busy with another client: it serves one at a time)"
                          : " (an rpc-server serves one client at a time: is another one connected?)"));
    }
    if (n < 0) return error(std::string("poll: ") + std::strerror(errno));
    return {};
  }

  Status send_all(const void* data, std::size_t size, const char* what) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (std::size_t done = 0; done < size;) {
      if (Status s = wait(POLLOUT, what); !s) return s;
      const ssize_t n = ::send(fd_, p + done, size - done, MSG_NOSIGNAL);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) return error(std::string("connection lost while sending ") + what);
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  Status recv_all(void* data, std::size_t size, const char* what) {
    auto* p = static_cast<uint8_t*>(data);
    for (std::size_t done = 0; done < size;) {
      if (Status s = wait(POLLIN, what); !s) return s;
      const ssize_t n = ::recv(fd_, p + done, size - done, 0);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) {
        return error(std::string("closed the connection at ") + what + " (not an rpc-server of protocol " +
                     rpc_protocol_version() + ", or it is shutting down)");
      }
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  std::string endpoint_;
  int timeout_ms_;
  int fd_ = -1;
};

#pragma pack(push, 1)
struct HelloAnswer {
  uint8_t major, minor, patch, padding;
  uint8_t conn_caps[kConnCapsSize];
};
struct MemoryAnswer {
  uint64_t free_mem, total_mem;
};
#pragma pack(pop)

struct Attached {
  RpcServerInfo info;
  std::vector<ggml_backend_dev_t> devices;
};

std::mutex& state_mutex() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, RpcServerInfo>& probed() {
  static std::map<std::string, RpcServerInfo> m;
  return m;
}
std::map<std::string, Attached>& attached() {
  static std::map<std::string, Attached> m;
  return m;
}
std::function<void(const std::string&)>& lost_handler() {
  static std::function<void(const std::string&)> h;
  return h;
}

// Whether `endpoint` still takes a TCP connection within a second (a live rpc-server does,
// even while it serves this process: the kernel queues the connection).
bool answers(const std::string& endpoint) {
  Conn c(endpoint, 1.0);
  return static_cast<bool>(c.open());
}

// ggml's abort callback: a failure of the RPC client becomes the lost-server handler's call.
void on_ggml_abort(const char* message) {
  const std::string msg = message ? message : "";
  const bool rpc = msg.find("RPC") != std::string::npos || msg.find("rpc") != std::string::npos;
  std::function<void(const std::string&)> handler;
  std::vector<std::string> endpoints;
  {
    std::lock_guard<std::mutex> lock(state_mutex());
    handler = lost_handler();
    for (const auto& [e, a] : attached()) endpoints.push_back(e);
  }
  if (rpc && handler && !endpoints.empty()) {
    std::vector<std::string> gone;
    for (const auto& e : endpoints) {  // bounded: at most one second per endpoint
      if (!answers(e)) gone.push_back(e);
    }
    if (gone.empty()) gone = endpoints;
    // ggml's message is "file:line: text"; keep the text.
    std::string text = msg;
    if (auto pos = text.find(": "); pos != std::string::npos) text = text.substr(pos + 2);
    handler("rpc-server " + join(gone, ", ") + ": connection lost mid-run (llama.cpp's RPC client: " + trim(text) + ")");
  }
  std::fprintf(stderr, "%s\n", msg.c_str());  // as ggml prints it; abort() follows
}

}  // namespace

std::string rpc_protocol_version() {
  if (!rpc_supported()) return "";
  return std::to_string(kProtoMajor) + "." + std::to_string(kProtoMinor) + "." + std::to_string(kProtoPatch);
}

bool rpc_supported() {
  init_llama();
  return ggml_backend_reg_by_name("RPC") != nullptr;
}

Result<RpcServerInfo> probe_rpc_server(const std::string& endpoint, double timeout_s) {
  {
    std::lock_guard<std::mutex> lock(state_mutex());
    if (auto it = probed().find(endpoint); it != probed().end()) return it->second;
  }
  Conn c(endpoint, timeout_s);
  if (Status s = c.open(); !s) return std::unexpected(s.error());
  RpcServerInfo info;
  info.endpoint = endpoint;
  std::array<uint8_t, kConnCapsSize> caps{};  // plain TCP: no transport upgrade offered
  HelloAnswer hello{};
  if (Status s = c.call(kCmdHello, caps.data(), caps.size(), &hello, sizeof hello, "HELLO"); !s)
    return std::unexpected(s.error());
  info.proto_major = hello.major;
  info.proto_minor = hello.minor;
  info.proto_patch = hello.patch;
  // ggml-rpc.cpp's own rule: the same major version, a minor version not above ours.
  if (hello.major != kProtoMajor || hello.minor > kProtoMinor) {
    return std::unexpected(c.error("speaks RPC protocol " + std::to_string(hello.major) + "." +
                                   std::to_string(hello.minor) + "." + std::to_string(hello.patch) +
                                   ", this rigbench's llama.cpp speaks " + rpc_protocol_version() +
                                   "; run a ggml-rpc-server built from the same llama.cpp release")
                           .error());
  }
  uint32_t count = 0;
  std::vector<double> rtts;
  for (int i = 0; i < 5; ++i) {
    const int64_t t0 = now_ns();
    if (Status s = c.call(kCmdDeviceCount, nullptr, 0, &count, sizeof count, "DEVICE_COUNT"); !s)
      return std::unexpected(s.error());
    rtts.push_back(static_cast<double>(now_ns() - t0) / 1e6);
  }
  std::sort(rtts.begin(), rtts.end());
  info.rtt_ms = rtts[rtts.size() / 2];
  if (count == 0 || count > kMaxDevices) {
    return std::unexpected(c.error("reports " + std::to_string(count) + " devices").error());
  }
  for (uint32_t d = 0; d < count; ++d) {
    MemoryAnswer mem{};
    if (Status s = c.call(kCmdGetDeviceMemory, &d, sizeof d, &mem, sizeof mem, "GET_DEVICE_MEMORY"); !s)
      return std::unexpected(s.error());
    info.devices.push_back({mem.free_mem, mem.total_mem});
  }
  std::lock_guard<std::mutex> lock(state_mutex());
  probed()[endpoint] = info;
  return info;
}

namespace {
// SIGPIPE's disposition before attach_rpc_servers ignored it, until end_rpc_run().
struct SigpipeState {
  std::mutex mutex;
  bool held = false;
  struct sigaction previous {};
};
SigpipeState& sigpipe_state() {
  static SigpipeState s;
  return s;
}
}  // namespace

void end_rpc_run() {
  SigpipeState& sp = sigpipe_state();
  std::lock_guard<std::mutex> lock(sp.mutex);
  if (!sp.held) return;
  sigaction(SIGPIPE, &sp.previous, nullptr);
  sp.held = false;
}

Result<std::vector<RpcDevice>> attach_rpc_servers(const std::vector<std::string>& endpoints) {
  init_llama();
  ggml_backend_reg_t rpc_reg = ggml_backend_reg_by_name("RPC");
  if (!rpc_reg) {
    return fail(ErrorCode::kRuntime,
                "--rpc: this rigbench's llama.cpp has no RPC backend (build it with -DGGML_RPC=ON; scripts/setup does)");
  }
  using AddServer = ggml_backend_reg_t (*)(const char*);
  auto add_server = reinterpret_cast<AddServer>(ggml_backend_reg_get_proc_address(rpc_reg, "ggml_backend_rpc_add_server"));
  if (!add_server) return fail(ErrorCode::kRuntime, "--rpc: llama.cpp's RPC backend lacks ggml_backend_rpc_add_server");
  // ggml's client writes to its sockets without MSG_NOSIGNAL: a server gone mid-run would end
  // the process with SIGPIPE (exit 141) before its failed send reaches the abort above. Ignored
  // until end_rpc_run(), which puts back what it was.
  {
    SigpipeState& sp = sigpipe_state();
    std::lock_guard<std::mutex> lock(sp.mutex);
    if (!sp.held) {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      sp.held = sigaction(SIGPIPE, &ignore, &sp.previous) == 0;
    }
  }
  std::vector<RpcDevice> out;
  for (const auto& e : endpoints) {
    bool have = false;
    {
      std::lock_guard<std::mutex> lock(state_mutex());
      have = attached().count(e) != 0;
    }
    if (!have) {
      auto info = probe_rpc_server(e);
      if (!info) return std::unexpected(info.error());
      ggml_set_abort_callback(&on_ggml_abort);  // before ggml's client first connects
      ggml_backend_reg_t reg = add_server(e.c_str());
      if (!reg) return fail(ErrorCode::kRuntime, "rpc-server " + e + ": reports no devices");
      ggml_backend_register(reg);
      Attached a;
      a.info = *info;
      for (std::size_t i = 0; i < ggml_backend_reg_dev_count(reg); ++i) a.devices.push_back(ggml_backend_reg_dev_get(reg, i));
      std::lock_guard<std::mutex> lock(state_mutex());
      attached()[e] = std::move(a);
    }
    std::lock_guard<std::mutex> lock(state_mutex());
    const Attached& a = attached().at(e);
    for (ggml_backend_dev_t dev : a.devices) {
      RpcDevice d;
      d.endpoint = e;
      d.name = ggml_backend_dev_name(dev);
      d.description = ggml_backend_dev_description(dev);
      d.rtt_ms = a.info.rtt_ms;
      out.push_back(std::move(d));
    }
  }
  // Memory through ggml's RPC backend, outside the lock (it talks to the server).
  std::vector<ggml_backend_dev_t> handles;
  for (void* h : rpc_device_handles(endpoints)) handles.push_back(static_cast<ggml_backend_dev_t>(h));
  for (std::size_t i = 0; i < out.size() && i < handles.size(); ++i) {
    size_t free = 0, total = 0;
    ggml_backend_dev_memory(handles[i], &free, &total);
    out[i].memory_free_bytes = free;
    out[i].memory_total_bytes = total;
  }
  return out;
}

std::vector<void*> rpc_device_handles(const std::vector<std::string>& endpoints) {
  std::vector<void*> out;
  std::lock_guard<std::mutex> lock(state_mutex());
  for (const auto& e : endpoints) {
    auto it = attached().find(e);
    if (it == attached().end()) continue;
    for (ggml_backend_dev_t dev : it->second.devices) out.push_back(dev);
  }
  return out;
}

Result<Placement> placement_for(const std::string& rpc, const std::string& tensor_split) {
  Placement out;
  auto endpoints = parse_rpc_endpoints(rpc);
  if (!endpoints) return std::unexpected(endpoints.error());
  if (!endpoints->empty()) {
    auto attached_devices = attach_rpc_servers(*endpoints);
    if (!attached_devices) return std::unexpected(attached_devices.error());
    out.remote = std::move(*attached_devices);
  }
  auto is_rpc = [](ggml_backend_dev_t dev) {
    return std::string(ggml_backend_reg_name(ggml_backend_dev_backend_reg(dev))) == "RPC";
  };
  bool rpc_known = false;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) rpc_known = rpc_known || is_rpc(ggml_backend_dev_get(i));
  if (rpc_known) {
    out.devices = rpc_device_handles(*endpoints);
    std::vector<void*> gpus, igpus;
    for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
      ggml_backend_dev_t dev = ggml_backend_dev_get(i);
      if (is_rpc(dev)) continue;
      const auto type = ggml_backend_dev_type(dev);
      if (type == GGML_BACKEND_DEVICE_TYPE_GPU) gpus.push_back(dev);
      else if (type == GGML_BACKEND_DEVICE_TYPE_IGPU && igpus.empty()) igpus.push_back(dev);
    }
    out.devices.insert(out.devices.end(), gpus.begin(), gpus.end());
    if (gpus.empty()) out.devices.insert(out.devices.end(), igpus.begin(), igpus.end());
    out.devices.push_back(nullptr);
  }
  // -ts: shares per device, in the order above ("0.00" = by free memory, llama.cpp's default).
  if (const std::vector<double> shares = tensor_split_shares(tensor_split); !shares.empty()) {
    if (shares.size() > llama_max_devices())
      return fail(ErrorCode::kUsage,
                  "-ts/--tensor-split '" + trim(tensor_split) + "': more shares than devices llama.cpp takes");
    out.split.assign(llama_max_devices(), 0.0f);
    for (std::size_t i = 0; i < shares.size(); ++i) out.split[i] = static_cast<float>(shares[i]);
  }
  return out;
}

void on_rpc_server_lost(std::function<void(const std::string& what)> handler) {
  std::lock_guard<std::mutex> lock(state_mutex());
  lost_handler() = std::move(handler);
}

}  // namespace rigbench::engine
