#include "model/gguf_inspect.h"

#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace rigbench::model
