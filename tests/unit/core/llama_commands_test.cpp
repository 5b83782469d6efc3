// A run's settings as llama.cpp's and Ollama's spellings (core/llama_commands.h).
#include "core/llama_commands.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

TEST(LlamaCommands, DefaultsGiveOnlyThreadsContextAndEveryLayer) {
  BenchParams p;
  p.n_threads = 8;
  p.n_ctx = 4096;
  p.n_prompt = 0;
  p.n_gen = 128;
  const LlamaCommands c = llama_commands(p, "/m/model.gguf", 1);
  EXPECT_EQ(c.server, "llama-server -m /m/model.gguf -c 4096 -np 1 -t 8 -ngl all");
  EXPECT_EQ(c.cli, "llama-cli -m /m/model.gguf -c 4096 -t 8 -ngl all");
  EXPECT_EQ(c.bench, "llama-bench -m /m/model.gguf -p 0 -n 128 -t 8");
  EXPECT_EQ(c.ollama_parameters, (std::vector<std::pair<std::string, std::string>>{{"num_ctx", "4096"},
                                                                                   {"num_thread", "8"}}));
  EXPECT_TRUE(c.ollama_environment.empty());
  EXPECT_TRUE(c.ollama_unmapped.empty());
}

TEST(LlamaCommands, EachToolSpellsTheKnobsItsOwnWay) {
  BenchParams p;
  p.n_threads = 2;
  p.n_ctx = 8192;
  p.n_prompt = 512;
  p.n_gen = 128;
  p.n_depth = 1024;
  p.flash_attn = "on";
  p.type_k = p.type_v = "q8_0";
  p.poll = 0;
  p.n_ubatch = 256;
  p.n_cpu_moe = 12;
  p.no_kv_offload = 1;
  p.devices = "Vulkan0/Vulkan1";
  p.tensor_split = "3/1";
  p.tensor_buft_overrides = "blk\\.1\\.=CPU;blk\\.2\\.=CPU";
  const LlamaCommands c = llama_commands(p, "/my models/x.gguf", 4);
  EXPECT_EQ(c.server,
            "llama-server -m '/my models/x.gguf' -c 8192 -np 4 -t 2 -ngl all -ub 256 -fa on -ctk q8_0 -ctv q8_0 "
            "--poll 0 -ncmoe 12 -nkvo -dev Vulkan0,Vulkan1 -ts 3,1 -ot '" "blk\\.1\\.=CPU,blk\\.2\\.=CPU'");
  EXPECT_EQ(c.bench,
            "llama-bench -m '/my models/x.gguf' -pg 512,128 -d 1024 -t 2 -ub 256 -fa on -ctk q8_0 -ctv q8_0 --poll 0 "
            "-ncmoe 12 -nkvo 1 -dev Vulkan0/Vulkan1 -ts 3/1 -ot '" "blk\\.1\\.=CPU;blk\\.2\\.=CPU'");
  // Ollama: num_ctx is one request's context (its server multiplies by the slots).
  EXPECT_EQ(c.ollama_parameters[0], (std::pair<std::string, std::string>{"num_ctx", "2048"}));
  EXPECT_EQ(c.ollama_environment,
            (std::vector<std::pair<std::string, std::string>>{
                {"OLLAMA_FLASH_ATTENTION", "1"}, {"OLLAMA_KV_CACHE_TYPE", "q8_0"}, {"OLLAMA_NUM_PARALLEL", "4"}}));
  EXPECT_EQ(c.ollama_unmapped, (std::vector<std::string>{"n_ubatch", "poll", "n_cpu_moe", "no_kv_offload", "devices",
                                                         "tensor_split", "tensor_buft_overrides"}));
}

TEST(LlamaCommands, CpuOnlyAndPartialOffload) {
  BenchParams p;
  p.n_threads = 4;
  p.n_ctx = 2048;
  p.devices = "none";
  EXPECT_EQ(llama_commands(p, "m.gguf", 1).server, "llama-server -m m.gguf -c 2048 -np 1 -t 4 -dev none");
  EXPECT_EQ(llama_commands(p, "m.gguf", 1).ollama_parameters.back(),
            (std::pair<std::string, std::string>{"num_gpu", "0"}));
  p.devices = "auto";
  p.n_gpu_layers = 20;
  EXPECT_EQ(llama_commands(p, "m.gguf", 1).server, "llama-server -m m.gguf -c 2048 -np 1 -t 4 -ngl 20");
  EXPECT_EQ(llama_commands(p, "m.gguf", 1).ollama_parameters.back(),
            (std::pair<std::string, std::string>{"num_gpu", "20"}));
}

// A new user saw "-ngl all" in tune's commands on a machine without a GPU: a run with no GPU to
// offload to carries no -ngl (nor Ollama's num_gpu); one with a GPU keeps "all".
TEST(LlamaCommands, NoGpuToOffloadToMeansNoNgl) {
  BenchParams p;
  p.n_threads = 2;
  p.n_ctx = 2048;
  const LlamaCommands cpu = llama_commands(p, "m.gguf", 1, /*gpu=*/false);
  EXPECT_EQ(cpu.server, "llama-server -m m.gguf -c 2048 -np 1 -t 2");
  EXPECT_EQ(cpu.cli, "llama-cli -m m.gguf -c 2048 -t 2");
  for (const auto& [key, value] : cpu.ollama_parameters) EXPECT_NE(key, "num_gpu");
  EXPECT_EQ(llama_commands(p, "m.gguf", 1, /*gpu=*/true).server, "llama-server -m m.gguf -c 2048 -np 1 -t 2 -ngl all");
  p.n_gpu_layers = 0;  // a value the run set is written whatever the machine
  EXPECT_EQ(llama_commands(p, "m.gguf", 1, /*gpu=*/false).server, "llama-server -m m.gguf -c 2048 -np 1 -t 2 -ngl 0");
}

TEST(LlamaCommands, ServerArgsAreTheServerLineOneWordEachUnquoted) {
  BenchParams p;
  p.n_threads = 2;
  p.n_ctx = 1024;
  p.flash_attn = "off";
  p.poll = 0;
  p.n_ubatch = 256;
  const std::vector<std::string> want = {"-m", "/my models/x.gguf", "-c", "1024", "-np", "2", "-t", "2", "-ngl", "all",
                                         "-ub", "256", "-fa", "off", "--poll", "0"};
  EXPECT_EQ(llama_server_args(p, "/my models/x.gguf", 2), want);
  EXPECT_EQ(llama_commands(p, "/my models/x.gguf", 2).server,
            "llama-server -m '/my models/x.gguf' -c 1024 -np 2 -t 2 -ngl all -ub 256 -fa off --poll 0");
}

TEST(LlamaCommands, ServerUnmappedNamesTheKnobsItsLineDoesNotCarry) {
  BenchParams p;
  p.n_threads = 4;
  p.n_ctx = 2048;
  p.n_depth = 512;  // the test's, not a server setting
  p.poll = 0;
  p.type_k = "q8_0";
  EXPECT_TRUE(llama_server_unmapped(p).empty());
  p.rpc = "10.0.0.2:50052";
  p.no_host = 1;
  EXPECT_EQ(llama_server_unmapped(p), (std::vector<std::string>{"rpc", "no_host"}));
}

}  // namespace
}  // namespace rigbench
