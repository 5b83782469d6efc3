// rigbench: the context a memory plan is made for (llama.cpp's context parameters).
#pragma once

#include <string>

namespace rigbench::fit {

struct ContextParams {
  int n_ctx = 4096;          // tokens (before padding)
  int n_batch = 2048;
  int n_ubatch = 512;
  int n_seq = 1;             // --parallel
  std::string type_k = "f16";
  std::string type_v = "f16";
  bool flash_attn = true;    // llama.cpp's "auto" resolves to on for these backends
  bool offload_kqv = true;   // false = --no-kv-offload: the KV cache stays on the host
};

}  // namespace rigbench::fit
