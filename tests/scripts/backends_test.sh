#!/usr/bin/env bash
# scripts/backends.sh without a GPU toolkit (ctest backends_setup, label unit: no network, no
# sudo, no build): a backend that cannot be built names what is missing and how to get it, and
# returns 1 with nothing on stdout (setup then builds no folder for it); one that can prints
# its CMake arguments, one a line; and scripts/setup hands CMake each argument whole (a value or
# path with a space stays one argument: CMAKE_ARGS quoted as in the shell, a backend's paths).
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
check cuda_no_gpu 0 $'^-DGGML_CUDA=ON\n-DCMAKE_CUDA_COMPILER='"$tmp/bin/nvcc"$'\n-DCMAKE_CUDA_ARCHITECTURES=90\n' 'no NVIDIA GPU visible' \
  env -u CUDACXX CUDA_HOME="$tmp" PATH=/usr/bin:/bin bash -c 'source scripts/backends.sh; say() { printf "%s\n" "$*" >&2; }; backend_cmake_args_cuda'
# No NVIDIA driver (no libcuda.so.1: the toolkit alone, as on a build machine): built without
# CUDA's VMM pool, which links the driver's library, so that the binary starts and says that no
# CUDA device is present; with the driver (a stand-in ldconfig lists it) VMM stays on.
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/ldconfig" && chmod +x "$tmp/bin/ldconfig"
check cuda_no_driver_no_vmm 0 '-DGGML_CUDA_NO_VMM=ON$' 'no NVIDIA driver \(libcuda.so.1\) here' \
  env CUDACXX="$tmp/bin/nvcc" PATH="$tmp/bin:/usr/bin:/bin" bash -c 'source scripts/backends.sh; cuda_driver_dirs=(); say() { printf "%s\n" "$*" >&2; }; backend_cmake_args_cuda'
mkdir -p "$tmp/driver/bin"
printf '#!/bin/sh\necho "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1"\n' >"$tmp/driver/bin/ldconfig"
chmod +x "$tmp/driver/bin/ldconfig"
check cuda_driver_keeps_vmm 0 '-DGGML_CUDA_NO_VMM=OFF$' '^$' \
  env CUDACXX="$tmp/bin/nvcc" RIGBENCH_CUDA_ARCHITECTURES=89 PATH="$tmp/driver/bin:$tmp/bin:/usr/bin:/bin" bash -c 'source scripts/backends.sh; cuda_driver_dirs=(); say() { printf "%s\n" "$*" >&2; }; backend_cmake_args_cuda'
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
# CMAKE_ARGS is split into words as the shell splits them: a quoted value with a space is one word.
check cmake_args_quoted 0 $'^-DA=1\n-DB=a b\n-DC=c d$' '^$' cmake_args_words "-DA=1 '-DB=a b' \"-DC=c d\""
check cmake_args_empty 0 '^$' '^$' cmake_args_words ''
check cmake_args_unmatched_quote 1 '^$' "CMAKE_ARGS '-DA=\"x': an unmatched quote" cmake_args_words '-DA="x'
# scripts/setup itself, copied into a folder whose path has a space, with a fake cmake that
# writes each argument it gets on a line of its own (and a fake dpkg-query, the npm packages in
# place, an installed llama.cpp asked for: nothing is installed or fetched): CMAKE_ARGS' quoted
# value and a CUDA toolkit under a path with a space reach CMake as one argument each.
fake="$tmp/a tree"
mkdir -p "$fake/scripts" "$fake/fakebin" "$fake/my cuda/bin"
cp scripts/setup scripts/backends.sh scripts/packages.sh "$fake/scripts/"
for p in chart.js:4.6.1 playwright-core:1.65.1; do
  mkdir -p "$fake/third_party/npm/node_modules/${p%%:*}"
  printf '{\n  "version": "%s"\n}\n' "${p#*:}" >"$fake/third_party/npm/node_modules/${p%%:*}/package.json"
done
printf '#!/bin/sh\nexit 0\n' >"$fake/my cuda/bin/nvcc"
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$fake/fakebin/dpkg-query"
printf '#!/bin/sh\nexit 1\n' >"$fake/fakebin/ninja"
cat >"$fake/fakebin/cmake" <<'FAKE'
#!/usr/bin/env bash
if [ "$1" = --build ]; then mkdir -p "$2/bin" && : >"$2/bin/rigbench" && chmod +x "$2/bin/rigbench"; exit 0; fi
dir=
for a in "$@"; do [ "${prev:-}" = -B ] && dir=$a; prev=$a; done
printf '%s\n' "$@" >"$dir/cmake-args.txt" && : >"$dir/build.ninja"
FAKE
chmod +x "$fake/fakebin/"* "$fake/my cuda/bin/nvcc"
check setup_args_with_spaces_fake_cmake 0 '' 'ready: build-cuda/bin/rigbench' \
  env -u CUDACXX PATH="$fake/fakebin:/usr/bin:/bin" CUDA_HOME="$fake/my cuda" RIGBENCH_LLAMA=system \
  RIGBENCH_BACKENDS=cuda RIGBENCH_CUDA_ARCHITECTURES=89 CMAKE_ARGS="-DRIGBENCH_X='a b' -DRIGBENCH_Y=1" \
  "$fake/scripts/setup"
check setup_cmake_arg_with_space 0 '' '' grep -qx -- '-DRIGBENCH_X=a b' "$fake/build/cmake-args.txt"
check setup_cmake_arg_after_it 0 '' '' grep -qx -- '-DRIGBENCH_Y=1' "$fake/build/cmake-args.txt"
check setup_cuda_path_with_space 0 '' '' grep -qx -- "-DCMAKE_CUDA_COMPILER=$fake/my cuda/bin/nvcc" "$fake/build-cuda/cmake-args.txt"
[ "$failures" -eq 0 ]
