// The --rpc value: endpoints parsed and checked once (core/rpc_endpoints.h), and as the rpc knob.
#include "core/rpc_endpoints.h"

#include <gtest/gtest.h>

#include "core/knobs.h"

namespace rigbench {
namespace {

TEST(RpcEndpoints, ListInOrderTrimmedNoneIsEmpty) {
  auto e = parse_rpc_endpoints(" 192.168.1.7:50052 , host-b:1 ");
  ASSERT_TRUE(e);
  EXPECT_EQ(*e, (std::vector<std::string>{"192.168.1.7:50052", "host-b:1"}));
  EXPECT_EQ(rpc_endpoints_text(*e), "192.168.1.7:50052,host-b:1");
  auto none = parse_rpc_endpoints("none");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(rpc_endpoints_text(*none), "none");
}

TEST(RpcEndpoints, BadOnesAreUsageErrorsNamingThem) {
  for (const char* bad : {"localhost", "host:", ":50052", "host:0", "host:65536", "host:12x", "a b:1"}) {
    auto e = parse_rpc_endpoints(bad);
    ASSERT_FALSE(e) << bad;
    EXPECT_EQ(e.error().code, ErrorCode::kUsage);
    EXPECT_NE(e.error().message.find("expected HOST:PORT"), std::string::npos) << e.error().message;
  }
  auto twice = parse_rpc_endpoints("h:1,h:1");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("named twice"), std::string::npos);
}

TEST(RpcEndpoints, TheRpcKnobTakesAWholeListAndReloadsTheModel) {
  const Knob* k = find_knob("rpc");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->whole_value);
  EXPECT_TRUE(k->reloads_model);
  EXPECT_TRUE(k->compare_key);
  EXPECT_EQ(k->llama_alias, "-rpc");
  auto v = normalize_knob(*k, "127.0.0.1:1, 127.0.0.1:2");
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, "127.0.0.1:1,127.0.0.1:2");
  EXPECT_EQ(knob_default(*k), "none");
  const Knob* ts = find_knob("tensor_split");
  ASSERT_NE(ts, nullptr);
  EXPECT_TRUE(normalize_knob(*ts, "3/1"));
  EXPECT_FALSE(normalize_knob(*ts, "3/x"));
}

// One reading of -ts for the engine (llama.cpp's tensor_split) and bench's preflight plan.
TEST(TensorSplit, SharesInDeviceOrderEmptyForByFreeMemory) {
  EXPECT_EQ(tensor_split_shares("3/1"), (std::vector<double>{3, 1}));
  EXPECT_EQ(tensor_split_shares(" 0.5 / 0 / 2 "), (std::vector<double>{0.5, 0, 2}));
  EXPECT_TRUE(tensor_split_shares("0.00").empty());  // llama-bench's default: by free memory
  EXPECT_TRUE(tensor_split_shares("").empty());
  EXPECT_TRUE(tensor_split_shares("0/0").empty());    // all zero: llama.cpp splits by free memory
  EXPECT_TRUE(tensor_split_shares("3/x").empty());
  // fit takes llama.cpp's "3,1" as well as llama-bench's "3/1": one parse for both.
  EXPECT_EQ(parse_tensor_split("3,1").value(), (std::vector<double>{3, 1}));
  EXPECT_EQ(parse_tensor_split("3/1").value(), (std::vector<double>{3, 1}));
  const auto bad = parse_tensor_split("3,-1");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "-ts/--tensor-split: '3,-1' is not shares per device separated by '/' or ',' (e.g. "
                                 "3/1), each >= 0");
}

}  // namespace
}  // namespace rigbench
