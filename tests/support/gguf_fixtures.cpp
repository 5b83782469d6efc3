#include "support/gguf_fixtures.h"

#include <ggml.h>
#include <gguf.h>

#include <fstream>
#include <stdexcept>

#include "support/temp_dir.h"

namespace rigbench::testing {

void write_gguf_with_key(const std::string& src, const std::string& dst, const std::string& key,
                         const std::string& value) {
  // New metadata, then the original tensor data section (tensor offsets are relative to it).
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  gguf_context* ctx = gguf_init_from_file(src.c_str(), params);
  if (!ctx) throw std::runtime_error("cannot read " + src);
  const std::size_t data_offset = gguf_get_data_offset(ctx);
  gguf_set_val_str(ctx, key.c_str(), value.c_str());
  const bool ok = gguf_write_to_file(ctx, dst.c_str(), /*only_meta=*/true);
  gguf_free(ctx);
  if (!ok) throw std::runtime_error("cannot write " + dst);
  std::ofstream out(dst, std::ios::binary | std::ios::app);
  out << read_file(src).substr(data_offset);
}

void write_truncated(const std::string& src, const std::string& dst, std::size_t n_bytes) {
  write_file(dst, read_file(src).substr(0, n_bytes));
}

}  // namespace rigbench::testing
