#include "model/gguf_inspect.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "model/gguf_file.h"
#include "model/model_file.h"
#include "model/model_shape.h"
#include "support/gguf_fixtures.h"
#include "support/temp_dir.h"

namespace rigbench::model {
namespace {

TEST(Inspect, ReadsTheShippedModel) {
  auto info = inspect(RIGBENCH_TEST_MODEL);
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->arch, "llama");
  // 48 tensors of n_embd 64, n_ff 172, 5 layers, 4 KV heads of 8, vocab 512:
  // 2 * 512*64 (embd, output) + 64 (output norm) + 5 * (2*64 + 2*64*64 + 2*64*32 + 3*64*172).
  EXPECT_EQ(info->n_params, 292800u);
  EXPECT_EQ(info->size_bytes, 1185376u);
  EXPECT_EQ(info->file_type, "F32");
  EXPECT_FALSE(info->synthetic);
  EXPECT_EQ(info->fingerprint.rfind("xxh64:", 0), 0u);
  EXPECT_EQ(info->fingerprint.size(), 6u + 16u);
}

TEST(Fingerprint, ChangesWithOneByteOfWeights) {
  testing::TempDir dir;
  std::string bytes = testing::read_file(RIGBENCH_TEST_MODEL);
  testing::write_file(dir.file("a.gguf"), bytes);
  bytes[bytes.size() - 10] ^= 0x01;
  testing::write_file(dir.file("b.gguf"), bytes);
  auto a = fingerprint(dir.file("a.gguf"));
  auto b = fingerprint(dir.file("b.gguf"));
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(*a, *fingerprint(RIGBENCH_TEST_MODEL));
}

TEST(Inspect, MissingFileIsNotFound) {
  auto info = inspect("/nonexistent/model.gguf");
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(info.error().message, "model '/nonexistent/model.gguf': no such file");
}

TEST(Inspect, TextFileIsNotGguf) {
  testing::TempDir dir;
  testing::write_file(dir.file("t.gguf"), "hello\n");
  auto info = inspect(dir.file("t.gguf"));
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(info.error().message.find("not a GGUF file"), std::string::npos);
}

TEST(Inspect, FileCutInTheTensorDataIsTruncated) {
  testing::TempDir dir;
  testing::write_truncated(RIGBENCH_TEST_MODEL, dir.file("t.gguf"), 600000);
  auto info = inspect(dir.file("t.gguf"));
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(info.error().message.find("truncated GGUF (tensor data needs 1185376 bytes, the file has 600000)"),
            std::string::npos);
}

TEST(Inspect, FileCutInTheMetadataIsCorrupt) {
  testing::TempDir dir;
  testing::write_truncated(RIGBENCH_TEST_MODEL, dir.file("t.gguf"), 2000);
  auto info = inspect(dir.file("t.gguf"));
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(info.error().message.find("corrupt or truncated"), std::string::npos);
}

TEST(Inspect, DirectoryIsRefused) {
  testing::TempDir dir;
  auto info = inspect(dir.path().string());
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ErrorCode::kInvalidInput);
}

TEST(Inspect, ReadsArchitectureAndSyntheticMarkFromMetadata) {
  testing::TempDir dir;
  testing::write_gguf_with_key(RIGBENCH_TEST_MODEL, dir.file("x.gguf"), "general.architecture", "nonesuch");
  auto info = inspect(dir.file("x.gguf"));
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->arch, "nonesuch");  // inspect reads it; llama.cpp's refusal is the engine's
}

// check_model_file parses the header once (open_gguf) and hands it to both readers: what it
// returns is what inspect and read_shape each give from their own parse of the file.
TEST(CheckModelFile, OneParseGivesWhatInspectAndReadShapeGive) {
  auto file = check_model_file(RIGBENCH_TEST_MODEL, /*with_fingerprint=*/true);
  ASSERT_TRUE(file) << file.error().message;
  auto info = inspect(RIGBENCH_TEST_MODEL);
  auto shape = read_shape(RIGBENCH_TEST_MODEL);
  ASSERT_TRUE(info && shape);
  EXPECT_EQ(file->info.arch, "llama");
  EXPECT_EQ(file->info.n_params, 292800u);
  EXPECT_EQ(file->info.size_bytes, info->size_bytes);
  EXPECT_EQ(file->info.file_type, info->file_type);
  EXPECT_EQ(file->info.fingerprint, info->fingerprint);
  EXPECT_EQ(file->shape.n_layer, 5u);
  EXPECT_EQ(file->shape.n_layer, shape->n_layer);
  EXPECT_EQ(file->shape.n_embd, shape->n_embd);
  EXPECT_EQ(file->shape.n_vocab, 512u);
  EXPECT_EQ(file->shape.tensors.size(), 48u);
  EXPECT_EQ(file->shape.tensor_bytes, shape->tensor_bytes);
  auto header_only = check_model_file(RIGBENCH_TEST_MODEL);
  ASSERT_TRUE(header_only);
  EXPECT_TRUE(header_only->info.fingerprint.empty());  // fingerprinted only when asked
}

TEST(OpenGguf, ParsedHeaderServesBothReaders) {
  auto file = open_gguf(RIGBENCH_TEST_MODEL);
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(file->size_bytes, 1185376u);
  auto info = inspect_header(*file);
  auto shape = read_shape(*file);
  ASSERT_TRUE(info && shape);
  EXPECT_EQ(info->n_params, 292800u);
  EXPECT_EQ(shape->tensors.size(), 48u);
}

TEST(OpenGguf, FileCutInTheMetadataIsCorrupt) {
  testing::TempDir dir;
  testing::write_truncated(RIGBENCH_TEST_MODEL, dir.file("t.gguf"), 2000);
  auto file = open_gguf(dir.file("t.gguf"));
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(file.error().message, "model '" + dir.file("t.gguf") +
                                      "': corrupt or truncated GGUF (its metadata or tensor infos cannot be read)");
}

TEST(CheckModelFile, UnknownArchitectureNamedFromTheSameParse) {
  testing::TempDir dir;
  testing::write_gguf_with_key(RIGBENCH_TEST_MODEL, dir.file("x.gguf"), "general.architecture", "nonesuch");
  auto file = check_model_file(dir.file("x.gguf"));
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(file.error().message, "model '" + dir.file("x.gguf") +
                                      "': unknown model architecture: 'nonesuch' (no nonesuch.block_count key)");
}

}  // namespace
}  // namespace rigbench::model
