# llama.cpp, the inference engine: pinned to release v0.4.0
# (commit 80fb11ac73e66d89eae2c6a91d8a77428fa733ed).
#
# RIGBENCH_LLAMA=system   use an installed llama.cpp (find_package(llama)); refuse one whose API differs
# RIGBENCH_LLAMA=bundled  add third_party/llama.cpp (cloned by scripts/setup) as a subproject
# RIGBENCH_LLAMA=auto     system if CMake finds one, otherwise bundled
# RIGBENCH_LLAMA_DIR      where the bundled sources are (default third_party/llama.cpp; the GPU
#                         device kit's trimmed copy, device-kit/llama.cpp, for bench/device_check)
#
# Defines the target rigbench::llama (libllama + ggml) and the cache entries
# RIGBENCH_LLAMA_SOURCE (system|bundled) and RIGBENCH_LLAMA_COMMIT.

set(RIGBENCH_LLAMA_PINNED_COMMIT 80fb11ac73e66d89eae2c6a91d8a77428fa733ed)
set(RIGBENCH_LLAMA_DIR ${CMAKE_SOURCE_DIR}/third_party/llama.cpp CACHE PATH
  "llama.cpp v0.4.0's sources for RIGBENCH_LLAMA=bundled")
get_filename_component(_bundled_dir "${RIGBENCH_LLAMA_DIR}" ABSOLUTE BASE_DIR ${CMAKE_SOURCE_DIR})

if(RIGBENCH_LLAMA STREQUAL "system" OR RIGBENCH_LLAMA STREQUAL "auto")
  find_package(llama CONFIG QUIET)
endif()

if(llama_FOUND)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_LIBRARIES llama)
  check_cxx_source_compiles([[
    #include <llama.h>
    int main() {
      llama_model_params p = llama_model_default_params();
      p.load_mode = LLAMA_LOAD_MODE_NONE;
      p.no_alloc = true;
      llama_context_params c = llama_context_default_params();
      c.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO;
      return (int) c.n_ctx;
    }]] RIGBENCH_SYSTEM_LLAMA_API_OK)
  unset(CMAKE_REQUIRED_LIBRARIES)
  if(NOT RIGBENCH_SYSTEM_LLAMA_API_OK)
    message(FATAL_ERROR "rigbench: the installed llama.cpp (${llama_DIR}, version ${llama_VERSION}) "
      "has an API that differs from release v0.4.0; configure with -DRIGBENCH_LLAMA=bundled "
      "after scripts/setup to use the pinned sources instead")
  endif()
  set(RIGBENCH_LLAMA_SOURCE system CACHE INTERNAL "")
  set(RIGBENCH_LLAMA_VOCAB_DIR "" CACHE INTERNAL "")  # synthetic models then get generated vocabularies
  set(RIGBENCH_LLAMA_COMMIT "${LLAMA_BUILD_COMMIT}" CACHE INTERNAL "")
  add_library(rigbench_llama INTERFACE)
  target_link_libraries(rigbench_llama INTERFACE llama)
  find_path(RIGBENCH_LLAMA_EXT_DIR llama-ext.h)
  if(RIGBENCH_LLAMA_EXT_DIR)
    target_include_directories(rigbench_llama INTERFACE ${RIGBENCH_LLAMA_EXT_DIR})
    target_compile_definitions(rigbench_llama INTERFACE RIGBENCH_HAVE_LLAMA_EXT=1)
  if(NOT GGML_BACKEND_DL)  # backends linked in: nothing for ggml_backend_load_all to find (engine/llama_support)
    target_compile_definitions(rigbench_llama INTERFACE RIGBENCH_GGML_STATIC_BACKENDS=1)
  endif()
  endif()
elseif(RIGBENCH_LLAMA STREQUAL "system")
  message(FATAL_ERROR "rigbench: RIGBENCH_LLAMA=system but no installed llama.cpp was found "
    "(set CMAKE_PREFIX_PATH to its prefix, or use -DRIGBENCH_LLAMA=bundled)")
else()
  if(NOT EXISTS ${_bundled_dir}/CMakeLists.txt)
    message(FATAL_ERROR "rigbench: ${_bundled_dir} is missing; run scripts/setup, which clones "
      "llama.cpp v0.4.0 there from the npm package node-llama-cpp@3.21.1")
  endif()
  # Only libllama and ggml, statically linked, unless the peers are wanted.
  set(BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
  set(GGML_NATIVE ON CACHE BOOL "")
  # ggml's AMX matmul (compiled in by -march=native on CPUs that report AMX) crashes with a
  # segfault in ggml_backend_amx_mul_mat on quantized models on our machines (llama-bench
  # too); keep it out unless asked for. The AVX-512/AVX2 kernels run instead.
  option(RIGBENCH_GGML_AMX "Let ggml use Intel AMX when -march=native offers it" OFF)
  if(NOT RIGBENCH_GGML_AMX AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    include(CheckCCompilerFlag)
    check_c_compiler_flag("-mno-amx-tile" RIGBENCH_HAVE_MNO_AMX)
    if(RIGBENCH_HAVE_MNO_AMX)
      string(APPEND CMAKE_C_FLAGS " -mno-amx-tile -mno-amx-int8 -mno-amx-bf16")
      string(APPEND CMAKE_CXX_FLAGS " -mno-amx-tile -mno-amx-int8 -mno-amx-bf16")
    endif()
  endif()
  # Their warnings are not ours to fix (GCC 12 floods -Wmaybe-uninitialized in AVX-512 intrinsics).
  set(GGML_ALL_WARNINGS OFF CACHE BOOL "" FORCE)
  set(LLAMA_ALL_WARNINGS OFF CACHE BOOL "" FORCE)
  # ggml's RPC backend (ggml-rpc.cpp + its transport, two files): `bench --rpc` and `fit --rpc`
  # reach llama.cpp's rpc-server on other machines. With the peers, tools/rpc builds the server
  # too (target ggml-rpc-server), which the RPC tests start on 127.0.0.1.
  option(RIGBENCH_GGML_RPC "Build ggml's RPC backend (bench --rpc, fit --rpc) and, with the peers, ggml-rpc-server" ON)
  set(GGML_RPC ${RIGBENCH_GGML_RPC} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_SERVER ${RIGBENCH_BUILD_PEERS} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_TOOLS ${RIGBENCH_BUILD_PEERS} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_COMMON ${RIGBENCH_BUILD_PEERS} CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_APP OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_UI OFF CACHE BOOL "" FORCE)
  set(LLAMA_USE_PREBUILT_UI OFF CACHE BOOL "" FORCE)
  set(LLAMA_OPENSSL OFF CACHE BOOL "" FORCE)
  set(LLAMA_BUILD_COMMIT ${RIGBENCH_LLAMA_PINNED_COMMIT} CACHE STRING "" FORCE)
  # libmtmd (tools/mtmd: clip and the multimodal projectors), standalone when the tools are not
  # built: `fit --check --mmproj` loads the projector with no_alloc as llama-server's fitting does
  # (mtmd_get_memory_usage). A trimmed copy without tools/mtmd (the GPU device kit's) goes without.
  if(EXISTS ${_bundled_dir}/tools/mtmd/CMakeLists.txt)
    set(LLAMA_BUILD_MTMD ON CACHE BOOL "" FORCE)
    set(MTMD_VIDEO OFF CACHE BOOL "" FORCE)
  endif()
  add_subdirectory(${_bundled_dir} ${CMAKE_BINARY_DIR}/llama.cpp EXCLUDE_FROM_ALL)

  # A GPU backend (GGML_VULKAN, GGML_CUDA, GGML_METAL, ...) adds GGML_USE_<BACKEND> to ggml's
  # public definitions; only ggml's own backend registry reads it (ggml-backend-reg.cpp, which
  # keeps it). Off the consumers (libllama, llama-bench, rigbench), whose objects are then
  # the CPU build's and come from ccache: a backend's build compiles little beyond its backend.
  get_target_property(_ggml_public_defs ggml INTERFACE_COMPILE_DEFINITIONS)
  if(_ggml_public_defs)
    list(FILTER _ggml_public_defs EXCLUDE REGEX "^GGML_USE_(CUDA|HIP|MUSA|VULKAN|METAL|SYCL|OPENCL|CANN)$")
    set_target_properties(ggml PROPERTIES INTERFACE_COMPILE_DEFINITIONS "${_ggml_public_defs}")
  endif()
  set(RIGBENCH_LLAMA_SOURCE bundled CACHE INTERNAL "")
  set(RIGBENCH_LLAMA_VOCAB_DIR ${_bundled_dir}/models CACHE INTERNAL "")
  set(RIGBENCH_LLAMA_COMMIT ${RIGBENCH_LLAMA_PINNED_COMMIT} CACHE INTERNAL "")
  add_library(rigbench_llama INTERFACE)
  target_link_libraries(rigbench_llama INTERFACE llama ggml)
  if(TARGET mtmd)
    target_link_libraries(rigbench_llama INTERFACE mtmd)
    target_compile_definitions(rigbench_llama INTERFACE RIGBENCH_HAVE_MTMD=1)
  endif()
  # llama-ext.h (memory breakdown per buffer type) is a staging header in src/.
  target_include_directories(rigbench_llama SYSTEM INTERFACE ${_bundled_dir}/src ${_bundled_dir}/include)
  target_compile_definitions(rigbench_llama INTERFACE RIGBENCH_HAVE_LLAMA_EXT=1)
  if(NOT GGML_BACKEND_DL)  # backends linked in: nothing for ggml_backend_load_all to find (engine/llama_support)
    target_compile_definitions(rigbench_llama INTERFACE RIGBENCH_GGML_STATIC_BACKENDS=1)
  endif()
  # llama.cpp's own fitting of -ngl/-ts/-ot to free device memory (common_fit_params, what
  # llama-bench's -fitt/-fitc run): two files of libcommon (fit.cpp and the log it writes to),
  # not the whole library, which the default build does not compile. bench -fitt/-fitc.
  add_library(rigbench_llama_fit STATIC ${_bundled_dir}/common/fit.cpp ${_bundled_dir}/common/log.cpp
    ${CMAKE_SOURCE_DIR}/src/engine/llama_common_shim.cpp)
  target_include_directories(rigbench_llama_fit SYSTEM PUBLIC ${_bundled_dir}/common)
  target_link_libraries(rigbench_llama_fit PUBLIC llama ggml)
  target_link_libraries(rigbench_llama INTERFACE rigbench_llama_fit)
  target_compile_definitions(rigbench_llama INTERFACE RIGBENCH_HAVE_LLAMA_FIT=1)
  # With RIGBENCH_BUILD_PEERS, llama.cpp's tests/test-llama-archs too (`-o DIR` writes one small
  # random model per architecture: the corpus of bench/fit_every_arch and the fit_every_arch test).
  if(RIGBENCH_BUILD_PEERS AND TARGET llama-common)
    add_executable(test-llama-archs EXCLUDE_FROM_ALL ${_bundled_dir}/tests/test-llama-archs.cpp)
    target_link_libraries(test-llama-archs PRIVATE llama llama-common)
    # llama.cpp's own embedding example (examples/ is not built otherwise): the peer of
    # `rigbench embed` in bench/embed_latency.
    add_executable(llama-embedding EXCLUDE_FROM_ALL ${_bundled_dir}/examples/embedding/embedding.cpp)
    target_link_libraries(llama-embedding PRIVATE llama llama-common)
  endif()
  # With RIGBENCH_BUILD_PEERS the llama-bench, llama-server, llama-embedding and ggml-rpc-server targets exist
  # (not part of the default build): bench scripts build the one they need by name.
endif()
add_library(rigbench::llama ALIAS rigbench_llama)
message(STATUS "rigbench: llama.cpp from ${RIGBENCH_LLAMA_SOURCE} (commit ${RIGBENCH_LLAMA_COMMIT})")
