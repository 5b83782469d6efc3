# scripts/backends.sh: sourced by scripts/setup. One function per GPU backend,
# backend_cmake_args_<name>, that installs what the backend needs from the system's packages and
# prints the CMake arguments of its build (one argument a line, so that a path with a space stays
# one argument); or, when it cannot be built here, says on stderr which package is missing and
# how to get it, and returns 1. Messages go to stderr through setup's say().

# cmake_args_words TEXT: the words of TEXT (CMAKE_ARGS) one a line, quoted as in the shell
# ('-DX=a b' or "-DX=a b" is one word; nothing is expanded or run); returns 1 and says why on
# an unmatched quote.
cmake_args_words() {
  local out
  out=$(xargs -r printf '%s\n' 2>&1 <<<"$1") || {
    say "error: CMAKE_ARGS '$1': an unmatched quote; quote a value with a space as the shell does (-DX=\"a b\")"
    return 1
  }
  [ -z "$out" ] || printf '%s\n' "$out"
}

# apt_install PACKAGE...: installs the Debian packages that are not installed yet (sudo when not
# root); returns 1, quietly, without Debian's tools or when apt fails.
apt_install() {
  command -v dpkg-query >/dev/null 2>&1 || return 1
  local p missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  say "installing Debian packages: ${missing[*]}"
  local sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
}

# --- Vulkan ------------------------------------------------------------------------------------
# ggml-vulkan at v0.4.0 uses vk::LayerSettingEXT (VK_EXT_layer_settings), which Debian 12's
# Vulkan-Headers 1.3.239 lack. Debian 13's libvulkan-dev 1.4.309.0-1 has them: setup fetches that
# one package with a private apt configuration (its own sources list, lists and cache under
# third_party/, Debian's archive key; the machine's apt sources are never touched), checks its
# sha256 and unpacks its headers into third_party/vulkan-headers. Debian 12's loader
# (libvulkan1) links and runs with them.
vulkan_headers_pkg=libvulkan-dev_1.4.309.0-1_amd64.deb
vulkan_headers_sha=8d329d465e16168afff58b1bd0dd6db46aac2cc3f56054a481b25a04e90b345a
vulkan_headers_dir=third_party/vulkan-headers

vulkan_headers_new_enough() {  # DIR holding vulkan/vulkan.hpp
  grep -q 'struct LayerSettingEXT' "$1/vulkan/vulkan_structs.hpp" 2>/dev/null
}

fetch_vulkan_headers() {
  local apt_dir=third_party/apt-trixie
  local o=(-o Dir::Etc::sourcelist="$root/$apt_dir/sources.list" -o Dir::Etc::sourceparts=-
           -o Dir::State::Lists="$root/$apt_dir/lists" -o Dir::Cache="$root/$apt_dir/cache"
           -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Get::List-Cleanup=0
           -o APT::Sandbox::User=root)
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/dl"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
    >"$apt_dir/sources.list"
  say "fetching Debian 13's Vulkan headers ($vulkan_headers_pkg, headers only) into $vulkan_headers_dir"
  if [ ! -f "$apt_dir/dl/$vulkan_headers_pkg" ]; then
    apt-get -qq "${o[@]}" update >/dev/null 2>&1 &&
      (cd "$apt_dir/dl" && apt-get -qq "${o[@]}" download libvulkan-dev=1.4.309.0-1 >/dev/null 2>&1) || return 1
  fi
  echo "$vulkan_headers_sha  $apt_dir/dl/$vulkan_headers_pkg" | sha256sum -c --quiet - >/dev/null 2>&1 || {
    say "error: sha256 mismatch for $apt_dir/dl/$vulkan_headers_pkg"; rm -f "$apt_dir/dl/$vulkan_headers_pkg"; return 1; }
  local tmp=$vulkan_headers_dir.partial
  rm -rf "$tmp" && mkdir -p "$tmp" && dpkg-deb -x "$apt_dir/dl/$vulkan_headers_pkg" "$tmp/deb" || return 1
  mv "$tmp/deb/usr/include" "$tmp/include" && rm -rf "$tmp/deb" "$vulkan_headers_dir" && mv "$tmp" "$vulkan_headers_dir"
}

backend_cmake_args_vulkan() {
  if [ "$(uname -s)" = Darwin ]; then
    say "error: vulkan: on macOS use RIGBENCH_BACKENDS=metal (MoltenVK is not set up by this script)"
    return 1
  fi
  if ! apt_install libvulkan-dev glslc spirv-headers mesa-vulkan-drivers; then
    say "error: vulkan: needs the Vulkan loader and headers, the glslc shader compiler, the SPIR-V headers and a Vulkan driver (Debian: sudo apt-get install libvulkan-dev glslc spirv-headers mesa-vulkan-drivers; elsewhere the LunarG Vulkan SDK), which could not be installed"
    return 1
  fi
  command -v glslc >/dev/null 2>&1 || { say "error: vulkan: glslc is not on PATH (Debian package glslc)"; return 1; }
  local inc=/usr/include
  if ! vulkan_headers_new_enough "$inc"; then
    if ! vulkan_headers_new_enough "$vulkan_headers_dir/include"; then
      fetch_vulkan_headers || {
        say "error: vulkan: the Vulkan headers in $inc are too old for ggml-vulkan (vk::LayerSettingEXT is missing) and Debian 13's libvulkan-dev 1.4.309.0-1 could not be fetched from deb.debian.org; unpack newer Vulkan-Headers (that package's usr/include, or the LunarG SDK's include) into $vulkan_headers_dir/include and run setup again"
        return 1
      }
    fi
    inc=$root/$vulkan_headers_dir/include
  fi
  printf '%s\n' -DGGML_VULKAN=ON "-DVulkan_INCLUDE_DIR=$inc"
}

# --- CUDA --------------------------------------------------------------------------------------
# The NVIDIA driver's user-space library (libcuda.so.1), which the toolkit does not ship (only a
# link stub): in the dynamic linker's cache or in one of these folders.
cuda_driver_dirs=(/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib/wsl/lib)
cuda_driver_present() {
  local d
  ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' && return 0
  for d in "${cuda_driver_dirs[@]}"; do [ -e "$d/libcuda.so.1" ] && return 0; done
  return 1
}

backend_cmake_args_cuda() {
  local nvcc=${CUDACXX:-}
  [ -n "$nvcc" ] || nvcc=$(command -v nvcc 2>/dev/null) || true
  local home=${CUDA_HOME:-/usr/local/cuda}
  [ -n "$nvcc" ] || { [ -x "$home/bin/nvcc" ] && nvcc=$home/bin/nvcc; } || true
  if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
    say "error: cuda: nvcc (NVIDIA's CUDA toolkit) was not found on PATH, in CUDACXX or in $home/bin; install the toolkit (NVIDIA's apt repository: sudo apt-get install cuda-toolkit; or Debian's non-free nvidia-cuda-toolkit) and run setup again"
    return 1
  fi
  local arch=${RIGBENCH_CUDA_ARCHITECTURES:-}
  if [ -z "$arch" ]; then
    if nvidia-smi -L >/dev/null 2>&1; then arch=native; else
      arch=90
      say "cuda: no NVIDIA GPU visible; compiling for compute capability 9.0 (H100/H200); set RIGBENCH_CUDA_ARCHITECTURES (e.g. 89 for RTX 40, 86 for RTX 30) for another"
    fi
  fi
  # ggml-cuda links the driver's libcuda.so.1 for its virtual-memory pool (VMM). Without an
  # NVIDIA driver (no GPU: a build-only machine) a binary linked with it does not even start
  # ("libcuda.so.1: cannot open shared object file"); without VMM it links only the toolkit's
  # libcudart, which loads the driver at run time, finds none, and ggml lists no CUDA device:
  # rigbench then says so. VMM stays on where the driver is installed.
  local vmm=OFF
  cuda_driver_present || {
    vmm=ON
    say "cuda: no NVIDIA driver (libcuda.so.1) here; building without CUDA's virtual-memory pool (GGML_CUDA_NO_VMM) so that the binary starts and reports that no CUDA device is present"
  }
  printf '%s\n' -DGGML_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" "-DCMAKE_CUDA_ARCHITECTURES=$arch"
  # ccache where it is installed (a GPU machine's image may have none: bench/device_check)
  if command -v ccache >/dev/null 2>&1; then echo -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache; fi
  echo "-DGGML_CUDA_NO_VMM=$vmm"
}

# --- Metal -------------------------------------------------------------------------------------
backend_cmake_args_metal() {
  if [ "$(uname -s)" != Darwin ]; then
    say "error: metal: Apple's Metal exists only on macOS (this is $(uname -s)); use RIGBENCH_BACKENDS=vulkan or cuda here"
    return 1
  fi
  xcrun -f metal >/dev/null 2>&1 || say "metal: the Metal compiler (xcrun metal) was not found; ggml embeds its shader source and compiles it at run time"
  printf '%s\n' -DGGML_METAL=ON -DGGML_METAL_EMBED_LIBRARY=ON
}
