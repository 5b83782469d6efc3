#!/usr/bin/env bash
# scripts/backends.sh without a GPU toolkit (ctest backends_setup, label unit: no network, no
# sudo, no build): a backend that cannot be built names what is missing and how to get it, and
# returns 1 with nothing on stdout (setup then builds no folder for it); one that can prints
# its CMake arguments.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
say() { printf 'setup: %s\n' "$*" >&2; }
source scripts/backends.sh
failures=0
check() {  # check NAME EXPECTED_RC EXPECTED_STDOUT_PATTERN EXPECTED_STDERR_PATTERN COMMAND...
  local name=$1 rc_want=$2 out_want=$3 err_want=$4; shift 4
  local out err rc
  out=$("$@" 2>/tmp/backends_test.$$) && rc=0 || rc=$?
  err=$(cat /tmp/backends_test.$$); rm -f /tmp/backends_test.$$
  if [ "$rc" != "$rc_want" ] || ! [[ $out =~ $out_want ]] || ! [[ $err =~ $err_want ]]; then
    printf 'FAIL %s: rc %s (want %s)\n  stdout: %s\n  stderr: %s\n' "$name" "$rc" "$rc_want" "$out" "$err"
    failures=$((failures + 1))
  else
    printf 'ok   %s\n' "$name"
  fi
}
# No nvcc anywhere: the toolkit is named with how to install it.
check cuda_missing 1 '^$' "cuda: nvcc \(NVIDIA's CUDA toolkit\) was not found.*apt-get install cuda-toolkit" \
  env -u CUDACXX CUDA_HOME=/nonexistent PATH=/usr/bin:/bin bash -c 'source scripts/backends.sh; say() { printf "%s\n" "$*" >&2; }; backend_cmake_args_cuda'
# An nvcc (a stand-in script) and no GPU: one architecture, 90 unless asked.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" && printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/nvcc" && chmod +x "$tmp/bin/nvcc"
check cuda_no_gpu 0 "-DGGML_CUDA=ON -DCMAKE_CUDA_COMPILER=$tmp/bin/nvcc -DCMAKE_CUDA_ARCHITECTURES=90" 'no NVIDIA GPU visible' \
  env -u CUDACXX CUDA_HOME="$tmp" PATH=/usr/bin:/bin bash -c 'source scripts/backends.sh; say() { printf "%s\n" "$*" >&2; }; backend_cmake_args_cuda'
check cuda_arch_asked 0 'CMAKE_CUDA_ARCHITECTURES=89' '' \
  env CUDACXX="$tmp/bin/nvcc" RIGBENCH_CUDA_ARCHITECTURES=89 bash -c 'source scripts/backends.sh; say() { :; }; backend_cmake_args_cuda'
if [ "$(uname -s)" != Darwin ]; then
  check metal_not_macos 1 '^$' 'metal: Apple.s Metal exists only on macOS' backend_cmake_args_metal
fi
# The header check that decides whether Debian 13's Vulkan headers are fetched.
mkdir -p "$tmp/old/vulkan" "$tmp/new/vulkan"
echo 'struct PhysicalDeviceFeatures {};' >"$tmp/old/vulkan/vulkan_structs.hpp"
echo 'struct LayerSettingEXT {};' >"$tmp/new/vulkan/vulkan_structs.hpp"
check vulkan_headers_old 1 '^$' '^$' vulkan_headers_new_enough "$tmp/old"
check vulkan_headers_new 0 '^$' '^$' vulkan_headers_new_enough "$tmp/new"
[ "$failures" -eq 0 ]
