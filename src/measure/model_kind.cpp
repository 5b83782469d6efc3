#include "measure/model_kind.h"

#include "engine/llama_embed.h"

namespace rigbench::measure {

Result<std::string> bench_refusal_for_encoder(const std::string& path) {
  auto m = engine::read_embed_model(path);
  if (!m) return std::unexpected(m.error());
  if (m->causal) return std::string();
  return "model '" + path + "': an encoder (embedding model, pooling " + m->pooling +
         "): it generates nothing, so pp, tg and TTFT do not apply; use `rigbench embed " + path + "`";
}

Status check_embedding_model(const std::string& path) {
  auto m = engine::read_embed_model(path);
  if (!m) return std::unexpected(m.error());
  if (m->pooling == "none") {
    return fail(ErrorCode::kUsage, "model '" + path +
                                       "': not an embedding model (its GGUF declares no pooling type); a "
                                       "generative model is measured by `rigbench bench " +
                                       path + "`");
  }
  return {};
}

}  // namespace rigbench::measure
