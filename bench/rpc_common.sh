# Sourced by bench/rpc_*: starts ggml-rpc-servers on free ports of 127.0.0.1 (CPU backend) and
# stops them when the script exits. Needs the peers built (RIGBENCH_BUILD_PEERS=ON scripts/setup
# builds ggml-rpc-server beside llama-bench).
rpc_pids=()
rpc_cleanup() { for p in "${rpc_pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap rpc_cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start_rpc_server PORT [THREADS]: waits (at most 30 s) until it listens.
start_rpc_server() {
  "$build_dir/bin/ggml-rpc-server" -H 127.0.0.1 -p "$1" -t "${2:-1}" >/dev/null 2>&1 &
  rpc_pids+=($!)
  for _ in $(seq 300); do
    python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $1)))" && return 0
    sleep 0.1
  done
  echo "ggml-rpc-server did not start on port $1" >&2
  exit 1
}
build_peers() {
  RIGBENCH_BUILD_PEERS=ON scripts/setup >&2
  cmake --build "$build_dir" -j2 --target llama-bench ggml-rpc-server >&2
}
