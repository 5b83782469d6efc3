// The shipped dataset of published llama-bench results (data/published_llama_bench.jsonl) and the
// catalog's compute figures: what the speed prediction learns from.
#include "hw/published_results.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/strings.h"
#include "hw/catalog.h"
#include "support/temp_dir.h"

namespace rigbench::hw {
namespace {

TEST(PublishedResults, ShippedDatasetCoversTheVendorsWithSourcedRows) {
  auto rows = load_published_results(published_results_path());
  ASSERT_TRUE(rows) << rows.error().message;
  std::set<std::string> devices, backends;
  for (const PublishedResult& r : *rows) {
    devices.insert(r.device);
    backends.insert(to_lower(r.backend.substr(0, r.backend.find(','))));
    EXPECT_TRUE(r.source_url.starts_with("https://")) << r.line;
    // Never adjusted: the figure is the table line's, as printed with two decimals.
    EXPECT_NE(r.line.find(format_fixed(r.tps, 2)), std::string::npos) << r.line;
  }
  EXPECT_GE(rows->size(), 120u);
  EXPECT_GE(devices.size(), 20u);
  for (const char* b : {"cuda", "metal", "vulkan", "rocm", "sycl", "opencl", "cpu avx2"})
    EXPECT_TRUE(backends.count(b)) << b;
  // NVIDIA consumer and datacenter, AMD, Intel Arc, Apple, CPUs.
  for (const char* d : {"RTX 4090", "Tesla V100-PCIE-16GB", "RX 7900 XT", "Arc B580", "M3 Ultra 512GB (80-core GPU)",
                        "Cix CP8180 (CPU)"})
    EXPECT_TRUE(devices.count(d)) << d;
}

TEST(PublishedResults, EachHostIsAsTheSourceSaysIt) {
  auto rows = load_published_results(published_results_path());
  ASSERT_TRUE(rows) << rows.error().message;
  std::map<std::string, double> tg_2080ti;  // host kind -> llama 1B tg128
  for (const PublishedResult& r : *rows) {
    EXPECT_TRUE(r.host_kind.empty() || r.host_kind == "pc" || r.host_kind == "sbc") << r.host_kind;
    EXPECT_EQ(r.host.empty(), r.host_kind.empty()) << r.line;  // a kind only where the source names the host
    if (r.device == "RTX 2080 Ti" && r.test == "tg128") tg_2080ti[r.host_kind] = r.tps;
  }
  // The same card and build, on a Raspberry Pi CM5 and on a desktop (geerlingguy/ai-benchmarks#46).
  EXPECT_DOUBLE_EQ(tg_2080ti["sbc"], 338.55);
  EXPECT_DOUBLE_EQ(tg_2080ti["pc"], 424.32);
}

TEST(PublishedResults, CatalogEntriesNamedByTheDatasetExist) {
  auto rows = load_published_results(published_results_path());
  auto catalog = load_catalog(catalog_path());
  ASSERT_TRUE(rows && catalog);
  for (const PublishedResult& r : *rows) {
    if (r.catalog.empty()) continue;
    EXPECT_TRUE(find_device(*catalog, r.catalog).has_value()) << r.catalog;
  }
}

TEST(PublishedResults, BadLinesAreNamed) {
  testing::TempDir dir;
  testing::write_file(dir.file("p.jsonl"), "{\"device\": \"x\"}\n");
  auto bad = load_published_results(dir.file("p.jsonl"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("line 1: "), std::string::npos) << bad.error().message;
  EXPECT_EQ(load_published_results(dir.file("none.jsonl")).error().code, ErrorCode::kNotFound);
}

TEST(CatalogCompute, FiguresNeedTheirSource) {
  auto catalog = load_catalog(catalog_path());
  ASSERT_TRUE(catalog);
  auto a100 = find_device(*catalog, "A100 80GB SXM");
  ASSERT_TRUE(a100);
  EXPECT_EQ(a100->fp16_tflops, 312.0);
  EXPECT_EQ(a100->int8_tops, 624.0);
  EXPECT_NE(a100->sources.at("compute").find("datasheet"), std::string::npos);
  testing::TempDir dir;
  testing::write_file(dir.file("d.json"),
                      R"({"devices": [{"name": "G", "kind": "gpu", "backend": "cuda", "memory_bytes": 1073741824,
                          "bandwidth_gbps": 100, "fp16_tflops": 10, "sources": {}}]})");
  auto bad = load_catalog(dir.file("d.json"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("entry 'G': fp16_tflops is a positive number with sources.compute"),
            std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace rigbench::hw
