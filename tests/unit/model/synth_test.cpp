// Synthetic models: layouts llama.cpp accepts, the quantizer's type mix, published sizes.
#include <ggml.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "core/strings.h"
#include "engine/llama_engine.h"
#include "engine/llama_quant.h"
#include "model/file_type.h"
#include "model/gguf_inspect.h"
#include "model/preset.h"
#include "model/tensor_layout.h"
#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench {
namespace {

// Every preset, header-only at Q4_K_M: llama.cpp loads its tensor infos (no_alloc) and the
// file takes almost no disk.
TEST(Synth, LlamaCppLoadsEveryPresetHeaderOnly) {
  testing::TempDir dir;
  const auto& all = model::presets();
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 11u);
  for (const auto& p : *all) {
    SCOPED_TRACE(p.name);
    const std::string path = dir.file(p.name + ".gguf");
    auto written = synth::synthesize(p, "Q4_K_M", path, /*header_only=*/true);
    ASSERT_TRUE(written) << written.error().message;
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(static_cast<uint64_t>(st.st_size), written->size_bytes);
    EXPECT_LT(static_cast<uint64_t>(st.st_blocks) * 512, 64ull << 20);  // sparse: metadata only
    auto status = engine::check_tensors(path);
    EXPECT_TRUE(status) << status.error().message;
    auto info = model::inspect(path);
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_TRUE(info->synthetic);
    EXPECT_EQ(info->arch, p.arch);
    EXPECT_EQ(info->file_type, "Q4_K_M");
  }
}

// fit --preset and the report's what-to-buy write a preset's header to a temporary file: in a
// fresh folder only this user can enter, named anew each time (never a guessable /tmp path that
// another user could plant a link at), and gone with the object, folder included.
TEST(Synth, PresetHeaderIsWrittenInAFreshPrivateFolderAndRemovedWithIt) {
  testing::TempDir tmp;
  // TMPDIR points at `tmp` for this test only, restored however it ends.
  struct TmpdirFor {
    std::optional<std::string> old;
    explicit TmpdirFor(const std::string& dir) {
      if (const char* v = std::getenv("TMPDIR")) old = v;
      setenv("TMPDIR", dir.c_str(), 1);
    }
    ~TmpdirFor() { old ? setenv("TMPDIR", old->c_str(), 1) : unsetenv("TMPDIR"); }
  } tmpdir(tmp.path().string());
  const model::Preset& preset = *model::find_preset("Llama-3.2-1B");
  std::string first_dir;
  {
    auto a = synth::PresetHeader::write(preset, "Q4_K_M");
    auto b = synth::PresetHeader::write(preset, "Q4_K_M");
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_NE(a->path(), b->path());
    const std::filesystem::path dir = std::filesystem::path(a->path()).parent_path();
    first_dir = dir.string();
    EXPECT_EQ(dir.parent_path(), std::filesystem::path(tmp.path()));
    struct stat st {};
    ASSERT_EQ(lstat(dir.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    EXPECT_EQ(st.st_uid, geteuid());
    auto info = model::inspect(a->path());
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->arch, preset.arch);
    synth::PresetHeader moved = std::move(*a);  // the moved-to object owns the folder now
    EXPECT_TRUE(std::filesystem::exists(moved.path()));
  }
  EXPECT_FALSE(std::filesystem::exists(first_dir));
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));  // both folders removed
  // An unknown type: an error naming it, and no folder left behind.
  auto bad = synth::PresetHeader::write(preset, "Q9_X");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("Q9_X"), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(Synth, ParameterCountsMatchThePublishedModels) {
  auto count = [](const char* name) {
    uint64_t n = 0;
    for (const auto& t : model::tensor_layout(*model::find_preset(name))) n += t.n_elements();
    return n;
  };
  // Hugging Face's counts; llama.cpp adds the rope_freqs factors (64 for 128-dim heads).
  EXPECT_EQ(count("Llama-3.1-8B"), 8030261248u + 64);
  EXPECT_EQ(count("Mistral-7B"), 7248023552u);
  EXPECT_EQ(count("Qwen2.5-7B"), 7615616512u);
  EXPECT_EQ(count("DeepSeek-V3") / 1'000'000'000, 671u);  // without the MTP layer
}

// Published files: the synthetic file's size within 1 % (tests/data/published_gguf_sizes.csv).
TEST(Synth, SizesMatchPublishedFiles) {
  std::ifstream in(RIGBENCH_TEST_DATA "/published_gguf_sizes.csv");
  ASSERT_TRUE(in);
  testing::TempDir dir;
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = split(line, ',');
    ASSERT_GE(f.size(), 4u);
    SCOPED_TRACE(line);
    auto preset = model::find_preset(f[0]);
    ASSERT_TRUE(preset);
    auto written = synth::synthesize(*preset, f[1], dir.file("x.gguf"), /*header_only=*/true);
    ASSERT_TRUE(written) << written.error().message;
    const double published = std::stod(f[2]);
    EXPECT_NEAR(static_cast<double>(written->size_bytes) / published, 1.0, 0.01);
    ++rows;
  }
  EXPECT_GE(rows, 4);
}

// llama.cpp's own snapshots of the quantizer's choices for real models (tests/snapshots):
// the preset's layout gets the same type for every tensor.
void expect_types_match_snapshot(const char* preset_name, const std::string& snapshot, const char* section) {
  std::ifstream in(snapshot);
  ASSERT_TRUE(in) << snapshot;
  std::string line, default_type;
  std::map<std::string, std::string> overrides;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("[", 0) == 0) {
      inside = line.rfind(std::string("[") + section + "]", 0) == 0;
      if (inside) default_type = line.substr(line.find(' ') + 1);
      continue;
    }
    if (!inside || line.empty()) continue;
    const auto sp = line.find(' ');
    overrides[line.substr(0, sp)] = line.substr(sp + 1);
  }
  ASSERT_FALSE(default_type.empty());
  auto preset = model::find_preset(preset_name);
  ASSERT_TRUE(preset);
  const auto tensors = model::tensor_layout(*preset);
  auto types = engine::quant_types(*preset, tensors, *model::file_type_from_name(section));
  ASSERT_TRUE(types);
  int compared = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const std::string got = to_lower(ggml_type_name(static_cast<ggml_type>((*types)[i])));
    if (got == "f32" || tensors[i].name.find("ffn_gate_inp") != std::string::npos) continue;  // not quantized
    auto it = overrides.find(tensors[i].name);
    const std::string want = to_lower(it != overrides.end() ? it->second : default_type);
    EXPECT_EQ(got, want) << tensors[i].name;
    ++compared;
  }
  EXPECT_GT(compared, 100);
}

TEST(Synth, Llama70BQ4KMTypesMatchLlamaCppSnapshot) {
  expect_types_match_snapshot("Llama-3.1-70B", RIGBENCH_LLAMA_SNAPSHOTS "/meta-llama-3.1-70b-instruct.schema",
                              "Q4_K_M");
}

TEST(Synth, DeepSeekV3Q4KMTypesMatchLlamaCppSnapshot) {
  expect_types_match_snapshot("DeepSeek-V3", RIGBENCH_LLAMA_SNAPSHOTS "/deepseek-v3.1.schema", "Q4_K_M");
}

TEST(Synth, ConfigJsonGivesTheSameShapeAsThePreset) {
  testing::TempDir dir;
  testing::write_file(dir.file("config.json"), R"({
    "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "vocab_size": 152064, "hidden_size": 3584,
    "intermediate_size": 18944, "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
    "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rms_norm_eps": 1e-06, "tie_word_embeddings": false})");
  auto from_config = model::preset_from_hf_config(dir.file("config.json"), "qwen");
  ASSERT_TRUE(from_config) << from_config.error().message;
  const auto a = model::tensor_layout(*from_config);
  const auto b = model::tensor_layout(*model::find_preset("Qwen2.5-7B"));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].ne, b[i].ne);
  }
}

TEST(Synth, ConfigJsonErrorsNameTheFileAndTheProblem) {
  testing::TempDir dir;
  testing::write_file(dir.file("a.json"), R"({"model_type": "mamba", "vocab_size": 5})");
  auto r = model::preset_from_hf_config(dir.file("a.json"), "x");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("a.json"), std::string::npos);
  testing::write_file(dir.file("b.json"), R"({"model_type": "llama", "vocab_size": 5})");
  r = model::preset_from_hf_config(dir.file("b.json"), "x");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().message.find("hidden_size"), std::string::npos) << r.error().message;
}

// Issue 37: a config without vocab_size failed with the JSON library's text
// ("[json.exception.out_of_range.403] key 'vocab_size' not found"): the file and the key.
TEST(Synth, ConfigJsonWithoutAKeyNamesTheFileAndTheKey) {
  testing::TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
          "num_attention_heads": 4})",
       "key 'vocab_size' is missing or not a number"},
      {R"({"vocab_size": 5})", "key 'model_type' is missing or not a string"},
  };
  for (const auto& [text, why] : cases) {
    testing::write_file(dir.file("c.json"), text);
    const auto r = model::preset_from_hf_config(dir.file("c.json"), "x");
    ASSERT_FALSE(r) << why;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().message, "config '" + dir.file("c.json") + "': " + why);
  }
}

// The shipped presets file holds the shapes as their config.json files give them; a field
// left out keeps Preset's default.
TEST(Synth, PresetsFileGivesTheConfigsShapes) {
  const auto found = model::find_preset("DeepSeek-V3");
  ASSERT_TRUE(found) << found.error().message;
  const model::Preset& p = *found;
  EXPECT_EQ(p.arch, "deepseek2");
  EXPECT_EQ(p.n_layer, 61u);
  EXPECT_EQ(p.n_expert, 256u);
  EXPECT_EQ(p.kv_lora_rank, 512u);
  EXPECT_FLOAT_EQ(p.norm_eps, 1e-6f);
  EXPECT_EQ(p.head_dim, 0u);  // not in the file
  EXPECT_FALSE(p.tied_embeddings);
  const auto gemma = model::find_preset("gemma-2-9b");  // case-insensitive
  ASSERT_TRUE(gemma) << gemma.error().message;
  const model::Preset& g = *gemma;
  EXPECT_EQ(g.n_swa, 4096u);
  EXPECT_FLOAT_EQ(g.attn_softcap, 50.0f);
  EXPECT_TRUE(g.tied_embeddings);
}

TEST(Synth, PresetsFileErrorsNameTheEntryAndTheField) {
  testing::TempDir dir;
  const std::string path = dir.file("presets.json");
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {R"({"name": "x"})", "not a JSON array"},
           {R"([{"name": "x", "arch": "llama"}, 3])", "entry 2: not a JSON object"},
           {R"([{"name": "x", "arch": "llama", "n_layers": 2}])", "entry 1: unknown field 'n_layers'"},
           {R"([{"name": "x"}])", "entry 1: no name or no arch"},
           {R"([{"name": "x", "arch": "llama", "n_layer": "two"}])",
            "entry 1: field 'n_layer' is not a whole number >= 0"},
           {R"([{"name": "x", "arch": "llama", "n_layer": -1}])",
            "entry 1: field 'n_layer' is not a whole number >= 0"},
           {R"([{"name": "x", "arch": "llama", "n_layer": 2.7}])",
            "entry 1: field 'n_layer' is not a whole number >= 0"},
           {R"([{"name": "x", "arch": "llama", "qkv_bias": 1}])", "entry 1: field 'qkv_bias' is not true or false"},
           {R"([{"name": "x", "arch": "llama", "norm_eps": "1e-5"}])", "entry 1: field 'norm_eps' is not a number"},
           {R"([{"name": "x", "arch": "llama", "rope_sections": [1, 2, 3, 4, 5]}])",
            "entry 1: field 'rope_sections' is not an array of 4 whole numbers"},
           {R"([{"name": "x", "arch": "llama"}, {"name": "X", "arch": "qwen2"}])",
            "entry 2: a second preset named 'X'"}}) {
    SCOPED_TRACE(text);
    testing::write_file(path, text);
    const auto r = model::load_presets(path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().message, "presets '" + path + "': " + why);
  }
  // A float field takes a whole number; a field left out keeps its default.
  testing::write_file(path, R"([{"name": "x", "arch": "llama", "rope_theta": 500000, "n_layer": 2}])");
  const auto ok = model::load_presets(path);
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_FLOAT_EQ((*ok)[0].rope_theta, 500000.0f);
  EXPECT_EQ((*ok)[0].n_layer, 2u);
  EXPECT_EQ((*ok)[0].n_head, 0u);
  const auto missing = model::load_presets(dir.file("none.json"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

TEST(Synth, UnknownPresetAndTypeAreUsageErrors) {
  auto p = model::find_preset("Llama-9-1T");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, ErrorCode::kUsage);
  EXPECT_NE(p.error().message.find("Llama-3.1-8B"), std::string::npos);  // lists the known ones
  testing::TempDir dir;
  auto w = synth::synthesize(*model::find_preset("SmolLM2-135M"), "Q4_K_XL", dir.file("x.gguf"), true);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, ErrorCode::kUsage);
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.gguf")));
}

}  // namespace
}  // namespace rigbench
