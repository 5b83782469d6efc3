// -ot/--override-tensor, -cmoe and -ncmoe: one parse for bench's knob, fit's plan and the
// engine's load (core/tensor_overrides.h).
#include "core/tensor_overrides.h"

#include <gtest/gtest.h>

#include "core/knobs.h"

namespace rigbench {
namespace {

TEST(TensorOverrides, LlamaBenchAndLlamaServerSeparatorsGiveTheSameOverrides) {
  const auto bench = parse_tensor_overrides("blk\\.[0-3]\\.ffn_.*_exps=CPU;token_embd=Vulkan0");
  const auto server = parse_tensor_overrides("blk\\.[0-3]\\.ffn_.*_exps=cpu,token_embd=Vulkan0");
  ASSERT_TRUE(bench) << bench.error().message;
  ASSERT_TRUE(server) << server.error().message;
  ASSERT_EQ(bench->size(), 2u);
  EXPECT_EQ(tensor_overrides_text(*bench), "blk\\.[0-3]\\.ffn_.*_exps=CPU;token_embd=Vulkan0");
  EXPECT_EQ(tensor_overrides_text(*server), tensor_overrides_text(*bench));  // "cpu" is the CPU's "CPU"
  EXPECT_EQ((*bench)[1].buft, "Vulkan0");
}

TEST(TensorOverrides, NoneIsNoOverrideAndBadValuesNameTheFlag) {
  EXPECT_TRUE(parse_tensor_overrides("none")->empty());
  EXPECT_TRUE(parse_tensor_overrides("")->empty());
  EXPECT_EQ(tensor_overrides_text({}), "none");
  // llama-bench writes an empty group of a list as "none" inside the value.
  EXPECT_EQ(parse_tensor_overrides("exps=CPU;none")->size(), 1u);
  for (const char* bad : {"exps", "=CPU", "exps=", "exps=CPU;;", "blk.(=CPU"}) {
    const auto r = parse_tensor_overrides(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("-ot/--override-tensor '"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  }
}

TEST(TensorOverrides, MoeShorthandsComeAfterTheExplicitOverridesInLlamaCppsOrder) {
  const auto all = run_tensor_overrides("attn=CPU", true, 2);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].pattern, "attn");
  EXPECT_EQ(all[1].pattern, "\\.ffn_(up|down|gate|gate_up)_(ch|)exps");  // llama.cpp's LLM_FFN_EXPS_REGEX
  EXPECT_EQ(all[2].pattern, "blk\\.0\\.ffn_(up|down|gate|gate_up)_(ch|)exps");
  EXPECT_EQ(all[3].pattern, "blk\\.1\\.ffn_(up|down|gate|gate_up)_(ch|)exps");
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_EQ(all[i].buft, "CPU");
  EXPECT_TRUE(run_tensor_overrides("none", false, 0).empty());
}

// The placement knobs bench now takes: llama-bench's spellings, normalized as llama-bench
// records them, and refused with the flag named.
TEST(PlacementKnobs, EveryLlamaBenchPlacementFlagIsABenchKnobWithItsSpelling) {
  const std::vector<std::pair<std::string, std::string>> wanted = {
      {"n_cpu_moe", "-ncmoe"}, {"cpu_moe", "-cmoe"},       {"split_mode", "-sm"},          {"main_gpu", "-mg"},
      {"no_kv_offload", "-nkvo"}, {"devices", "-dev"},     {"tensor_buft_overrides", "-ot"}, {"no_op_offload", "-nopo"}};
  for (const auto& [key, alias] : wanted) {
    const Knob* k = find_knob(key);
    ASSERT_NE(k, nullptr) << key;
    EXPECT_FALSE(k->flags.empty()) << key << " has no bench flag";
    EXPECT_EQ(k->llama_alias, alias) << key;
    EXPECT_TRUE(k->quiet_default) << key << ": compare names it only away from its default";
  }
  EXPECT_EQ(*normalize_knob(*find_knob("split_mode"), "ROW"), "row");
  EXPECT_FALSE(normalize_knob(*find_knob("split_mode"), "rows"));
  EXPECT_EQ(*normalize_knob(*find_knob("devices"), " Vulkan0 / Vulkan1 "), "Vulkan0/Vulkan1");
  EXPECT_EQ(*normalize_knob(*find_knob("devices"), "NONE"), "none");
  EXPECT_FALSE(normalize_knob(*find_knob("devices"), "Vulkan0/"));
  EXPECT_FALSE(normalize_knob(*find_knob("devices"), "none/Vulkan0"));
  EXPECT_EQ(*normalize_knob(*find_knob("tensor_buft_overrides"), "exps=cpu"), "exps=CPU");
  EXPECT_FALSE(normalize_knob(*find_knob("no_kv_offload"), "2"));
  EXPECT_EQ(find_knob("no_kv_offload")->bare_value, "1");
  EXPECT_EQ(find_knob("cpu_moe")->llama_bench_key, "");  // llama-bench has -ncmoe only
  EXPECT_TRUE(find_knob("n_cpu_moe")->reloads_model);
  EXPECT_FALSE(find_knob("no_kv_offload")->reloads_model);  // a context setting
}

}  // namespace
}  // namespace rigbench
