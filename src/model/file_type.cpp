#include "model/file_type.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "core/strings.h"

namespace rigbench::model {

namespace {
// GGUF general.file_type values and llama.cpp's names for them (llama.h, enum llama_ftype).
constexpr std::pair<uint32_t, const char*> kFileTypes[] = {
    {0, "F32"},     {1, "F16"},     {2, "Q4_0"},       {3, "Q4_1"},    {7, "Q8_0"},     {8, "Q5_0"},
    {9, "Q5_1"},    {10, "Q2_K"},   {11, "Q3_K_S"},    {12, "Q3_K_M"}, {13, "Q3_K_L"},  {14, "Q4_K_S"},
    {15, "Q4_K_M"}, {16, "Q5_K_S"}, {17, "Q5_K_M"},    {18, "Q6_K"},   {19, "IQ2_XXS"}, {20, "IQ2_XS"},
    {21, "Q2_K_S"}, {22, "IQ3_XS"}, {23, "IQ3_XXS"},   {24, "IQ1_S"},  {25, "IQ4_NL"},  {26, "IQ3_S"},
    {27, "IQ3_M"},  {28, "IQ2_S"},  {29, "IQ2_M"},     {30, "IQ4_XS"}, {31, "IQ1_M"},   {32, "BF16"},
    {36, "TQ1_0"},  {37, "TQ2_0"},  {38, "MXFP4_MOE"}, {39, "NVFP4"},  {40, "Q1_0"},    {41, "Q2_0"},
};
}  // namespace

std::optional<std::string> file_type_name(uint32_t file_type) {
  for (const auto& [value, name] : kFileTypes) {
    if (value == file_type) return std::string(name);
  }
  return std::nullopt;
}

std::optional<uint32_t> file_type_from_name(const std::string& name) {
  for (const auto& [value, n] : kFileTypes) {
    if (to_lower(n) == to_lower(name)) return value;
  }
  return std::nullopt;
}

std::string file_type_names() {
  std::vector<std::string> names;
  for (const auto& entry : kFileTypes) names.emplace_back(entry.second);
  return join(names, ", ");
}

}  // namespace rigbench::model
