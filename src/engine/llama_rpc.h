// rigbench: llama.cpp's RPC backend (ggml-rpc): the devices of rpc-servers on other machines
// (llama.cpp's tools/rpc, `ggml-rpc-server`) taking part in a run as llama.cpp places them.
//
// ggml's RPC client aborts the process when a server refuses, speaks another protocol version
// or goes away. So every endpoint is first probed here, with our own bounded socket calls
// (connect, HELLO, DEVICE_COUNT, GET_DEVICE_MEMORY: the wire format of ggml-rpc.cpp), before
// ggml ever connects to it; and a server lost mid-run reaches the handler set with
// on_rpc_server_lost() instead of a bare abort.
//
// Thread safety: the functions may be called from any one thread at a time; the lost-server
// handler runs on ggml's RPC dispatcher thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::engine {

// One device of an rpc-server, as the server reports it.
struct RpcServerDevice {
  uint64_t memory_free_bytes = 0;   // bytes, the server's ggml_backend_dev_memory (free)
  uint64_t memory_total_bytes = 0;  // bytes, the server's ggml_backend_dev_memory (total)
};

// What a probe of one rpc-server found.
struct RpcServerInfo {
  std::string endpoint;  // "HOST:PORT" as given
  int proto_major = 0, proto_minor = 0, proto_patch = 0;  // the server's RPC protocol version
  double rtt_ms = 0;  // ms, median of 5 DEVICE_COUNT round trips (an 8-byte request, a 12-byte answer)
  std::vector<RpcServerDevice> devices;  // in the server's order
};

// The RPC protocol version this build's client speaks ("6.0.0"); "" when the build has no
// RPC backend.
std::string rpc_protocol_version();

// Whether this build of llama.cpp has the RPC backend (GGML_RPC=ON).
bool rpc_supported();

// Probes `endpoint` ("HOST:PORT"; a host name or an IPv4 address): connects, says HELLO,
// checks the protocol version, counts the devices, reads each one's memory, and times 5
// round trips. Every wait is bounded by `timeout_s`. The answer is kept for the process: a
// second probe of the same endpoint returns it without connecting (an rpc-server serves one
// client at a time, and this process may hold that connection).
// Errors (kRuntime, one line naming the endpoint): refused, unreachable, timed out (e.g. the
// server is busy with another client), another protocol version, a malformed answer.
Result<RpcServerInfo> probe_rpc_server(const std::string& endpoint, double timeout_s = 5);

// A ggml device of an attached rpc-server.
struct RpcDevice {
  std::string endpoint;             // "HOST:PORT"
  std::string name;                 // ggml device name ("RPC0", "RPC1", ... in attach order)
  std::string description;          // ggml's description (the endpoint, in llama.cpp v0.4.0)
  uint64_t memory_free_bytes = 0;   // bytes, ggml_backend_dev_memory through the RPC backend
  uint64_t memory_total_bytes = 0;  // bytes
  double rtt_ms = 0;                // ms, the probe's round trip (before the first run)
};

// Probes every endpoint (probe_rpc_server), then registers each with ggml's RPC backend, as
// llama-bench's -rpc does (idempotent per endpoint), and returns their devices in order.
// SIGPIPE is ignored from here until end_rpc_run() (ggml's client sends without MSG_NOSIGNAL;
// a lost server must reach on_rpc_server_lost, not end the process with exit 141).
// Errors: the first failed probe's; kRuntime when the build has no RPC backend.
Result<std::vector<RpcDevice>> attach_rpc_servers(const std::vector<std::string>& endpoints);

// The ggml devices of `endpoints` (attached before) followed by nothing: for
// llama_model_params.devices, the local GPUs are prepended by the caller. Opaque pointers
// (ggml_backend_dev_t). Empty when none is attached.
std::vector<void*> rpc_device_handles(const std::vector<std::string>& endpoints);

// Where a load puts layers: llama_model_params.devices and .tensor_split for an --rpc value and
// a -ts value, as llama.cpp's default selection orders devices (rpc-servers first, then this
// machine's GPUs; integrated GPUs only without a GPU), but with only the rpc-servers named
// (a local run after a split run in one process uses this machine's devices alone).
struct Placement {
  std::vector<void*> devices;      // ggml_backend_dev_t, null-terminated; empty = llama.cpp's own choice
  std::vector<float> split;        // llama_max_devices() shares; empty = by free memory
  std::vector<RpcDevice> remote;   // the rpc-servers' devices, attached
};
// Errors: kUsage for a bad value; attach_rpc_servers' errors.
Result<Placement> placement_for(const std::string& rpc, const std::string& tensor_split);

// Called once, on ggml's RPC dispatcher thread, when a server is lost mid-run (ggml would
// abort): `what` is one line naming the endpoint(s) that no longer answer. The handler must
// not return (it saves what finished and ends the process); if it does, the process aborts
// as ggml would. An empty handler restores ggml's own abort message.
void on_rpc_server_lost(std::function<void(const std::string& what)> handler);

// The run that attached rpc-servers is over: SIGPIPE goes back to the disposition it had
// before attach_rpc_servers ignored it. A no-op when nothing was attached since the last call.
void end_rpc_run();

}  // namespace rigbench::engine
