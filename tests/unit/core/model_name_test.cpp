// A new user benched models/stories260K.gguf (GGUF general.name "llama") and imported the same
// file's llama-bench JSON (which names only the file): compare and report showed "llama F32"
// for one and "stories260K F32" for the other. One name for a file, whoever measured it.
#include "core/model_name.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

TEST(ModelName, AFileIsItsFileNameWhateverItsGeneralNameSays) {
  // bench and embed (model::inspect) and a llama-bench row (model_filename, no general.name)
  EXPECT_EQ(model_file_name("/work/models/stories260K.gguf", "llama", false), "stories260K");
  EXPECT_EQ(model_file_name("models/stories260K.gguf", "", false), "stories260K");
  // two files that both say "LLaMA v2" are told apart by their names too
  EXPECT_EQ(model_file_name("same_name/llama-2-7b.F32.gguf", "LLaMA v2", false), "llama-2-7b.F32");
}

TEST(ModelName, ASyntheticFileIsItsPresetsName) {
  EXPECT_EQ(
      model_file_name("/home/u/.cache/rigbench/models/Llama-3.2-1B-Q4_K_M.synthetic-v2.gguf", "Llama-3.2-1B", true),
      "Llama-3.2-1B");
  EXPECT_EQ(model_file_name("/tmp/x.gguf", "", true), "x");  // no general.name: the file's
}

TEST(ModelName, FileStemKeepsOtherExtensionsAndReadsWindowsPaths) {
  EXPECT_EQ(model_file_stem("C:\\models\\llama-2-7b.Q4_0.GGUF"), "llama-2-7b.Q4_0");
  EXPECT_EQ(model_file_stem("models/7B/ggml-model-q4_0.bin"), "ggml-model-q4_0.bin");  // 2023 builds
  EXPECT_EQ(model_file_stem("x.gguf"), "x");
}

// llama-server names a model by the path it was given (-m): serve-bench names it as bench names
// that file; other servers' ids are names already.
TEST(ModelName, AServedModelWhoseIdIsAPathIsNamedByItsFile) {
  EXPECT_EQ(served_model_name("/work/models/stories260K.gguf"), "stories260K");
  EXPECT_EQ(served_model_name("models/Qwen3-8B-Q4_K_M.GGUF"), "Qwen3-8B-Q4_K_M");
  EXPECT_EQ(served_model_name("C:\\models\\x.bin"), "x.bin");
  EXPECT_EQ(served_model_name("llama3:8b"), "llama3:8b");                                 // Ollama
  EXPECT_EQ(served_model_name("meta-llama/Llama-3.1-8B-Instruct"), "meta-llama/Llama-3.1-8B-Instruct");  // vLLM
  EXPECT_EQ(served_model_name("my-alias"), "my-alias");                                   // llama-server --alias
}

}  // namespace
}  // namespace rigbench
