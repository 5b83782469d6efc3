// rigbench: typed reads of one architecture's GGUF metadata keys ("<arch>.<suffix>"), for the
// readers of a model's shape (model_shape.cpp, memory_layout.cpp, projector_shape.cpp: "clip.*"). Not thread-safe
// beyond the gguf_context it borrows; never owns it.
#pragma once

#include <gguf.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rigbench::model {

struct GgufReader {
  const gguf_context* ctx;
  std::string arch;

  int64_t find(const std::string& suffix) const { return gguf_find_key(ctx, (arch + "." + suffix).c_str()); }

  // A scalar unsigned key of any integer type; `def` when absent.
  uint64_t u(const std::string& suffix, uint64_t def = 0) const {
    const int64_t id = find(suffix);
    if (id < 0) return def;
    switch (gguf_get_kv_type(ctx, id)) {
      case GGUF_TYPE_UINT8: return gguf_get_val_u8(ctx, id);
      case GGUF_TYPE_UINT16: return gguf_get_val_u16(ctx, id);
      case GGUF_TYPE_UINT32: return gguf_get_val_u32(ctx, id);
      case GGUF_TYPE_UINT64: return gguf_get_val_u64(ctx, id);
      case GGUF_TYPE_INT32: return static_cast<uint64_t>(std::max(0, gguf_get_val_i32(ctx, id)));
      case GGUF_TYPE_INT64: return static_cast<uint64_t>(std::max<int64_t>(0, gguf_get_val_i64(ctx, id)));
      case GGUF_TYPE_BOOL: return gguf_get_val_bool(ctx, id);
      default: return def;
    }
  }

  // A per-layer key: an array of n values, or a scalar repeated.
  std::vector<uint32_t> per_layer(const std::string& suffix, uint32_t n, uint32_t def) const {
    std::vector<uint32_t> out(n, def);
    const int64_t id = find(suffix);
    if (id < 0) return out;
    if (gguf_get_kv_type(ctx, id) == GGUF_TYPE_ARRAY) {
      const gguf_type t = gguf_get_arr_type(ctx, id);
      const size_t len = std::min<size_t>(gguf_get_arr_n(ctx, id), n);
      const void* data = gguf_get_arr_data(ctx, id);
      for (size_t i = 0; i < len; ++i) {
        if (t == GGUF_TYPE_UINT32) out[i] = static_cast<const uint32_t*>(data)[i];
        else if (t == GGUF_TYPE_INT32)
          out[i] = static_cast<uint32_t>(std::max(0, static_cast<const int32_t*>(data)[i]));
        else if (t == GGUF_TYPE_UINT8 || t == GGUF_TYPE_BOOL) out[i] = static_cast<const uint8_t*>(data)[i];
        else if (t == GGUF_TYPE_INT8)
          out[i] = static_cast<uint32_t>(std::max<int8_t>(0, static_cast<const int8_t*>(data)[i]));
        else if (t == GGUF_TYPE_UINT16) out[i] = static_cast<const uint16_t*>(data)[i];
      }
      return out;
    }
    std::fill(out.begin(), out.end(), static_cast<uint32_t>(u(suffix, def)));
    return out;
  }

  // A string key; "" when absent or not a string.
  std::string str(const std::string& suffix) const {
    const int64_t id = find(suffix);
    return id >= 0 && gguf_get_kv_type(ctx, id) == GGUF_TYPE_STRING ? gguf_get_val_str(ctx, id) : "";
  }

  bool has(const std::string& suffix) const { return find(suffix) >= 0; }
  bool is_array(const std::string& suffix) const {
    const int64_t id = find(suffix);
    return id >= 0 && gguf_get_kv_type(ctx, id) == GGUF_TYPE_ARRAY;
  }
};

}  // namespace rigbench::model
