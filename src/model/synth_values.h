// rigbench: the values a synthetic model holds, row by row.
//
// Random weights of random-init scale give attention that is nearly uniform: logits with a
// standard deviation of 1 and no order over positions. Trained models attend far more
// sharply and by position: in the shipped stories260K the last few positions score ~13 above
// a query's mean (~25 at a depth of 512, falling below the mean past ~150 positions), the
// logits spread with a standard deviation of 22, and 1 % of the scores fall 76 or more below
// the running maximum. The time of ggml's CPU flash attention depends on that (how often the
// running maximum moves, and scores so low that exp() underflows into denormals, which costs
// ~40 ns per multiply here): random-init values ran the synthetic copy of stories260K 4 %
// (pp128) and 9 % (pp512) faster than the real one. The recipe below gives attention a
// trained model's shape instead:
//
//  - Query and key weights are wider (kQueryKeyGain) and each row has its own log-normal gain
//    (kRowGainSigma): logits spread and have heavy tails.
//  - A constant residual channel (channel 0, like the "massive activations" of trained
//    models): every token embedding holds kChannelValue there, no layer writes to it (row 0
//    of attn_output and ffn_down is zero), and each attn_norm weight scales it up by the
//    residual's expected growth so that every layer sees it at about the same strength.
//  - In every head, the query and key rows of two RoPE pairs read that channel: the pair
//    turning ~0.1 rad per token and the one turning ~0.01. Each query and key then carries the
//    same vector there, so RoPE adds A cos(0.1 d) + A' cos(0.01 d) to the logit at distance
//    d: highest for recent positions, lower over hundreds. A and A' differ by layer.
//
// The constants are calibrated against the one trained model we ship (bench/synth_fidelity);
// sizes, shapes and types do not depend on them. MLA (DeepSeek) and BERT get the wider
// query/key weights only: their queries do not read the residual stream directly, or they
// have no RoPE. Gemma 2 gets the recipe as it is, though its post-norms grow the residual
// faster than assumed and its logit soft-cap (50) flattens the strongest positional layers.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <tuple>

#include "model/preset.h"
#include "model/tensor_layout.h"

namespace rigbench::model {

// The recipe's version, written as rigbench.values into every synthetic file: files of
// different versions hold differently shaped values and may run at different speeds.
// 1: plain N(0, 1/sqrt(row length)) weights; 2: this recipe.
constexpr uint32_t kValuesVersion = 2;

// What the recipe needs to know of the model.
struct ValueShape {
  int64_t n_embd = 0;
  int64_t head_dim = 0;  // rows per head in query/key weights
  uint32_t n_layer = 0;
  float embd_scale = 1.0f;  // the graph multiplies token embeddings by this (Gemma: sqrt(n_embd))
  int64_t channel = -1;     // the constant residual channel; -1 = none (MLA, BERT)
  // Rows within a head of the positional RoPE pairs (~0.1 and ~0.01 rad per token); -1 = none.
  std::array<int64_t, 2> rope_rows{-1, -1};
};

// The shape of `p`'s values: rope_rows from its RoPE base and pairing (adjacent dims for llama
// and deepseek2, halves for qwen2, phi3 and gemma2).
ValueShape value_shape(const Preset& p);

// What one row of a tensor holds. Rows with equal key() share one pool of random rows.
struct RowRecipe {
  float std_dev = 0;     // Gaussian values with this standard deviation; 0 = `constant`
  float gain_sigma = 0;  // each pooled row scaled by exp(N(0, gain_sigma)); 0 = none
  float constant = 0;    // every value, when std_dev is 0
  int64_t channel = -1;  // this column holds channel_value instead (-1 = none)
  float channel_value = 0;

  auto key() const { return std::make_tuple(std_dev, gain_sigma, constant, channel, channel_value); }
};

// The recipe of row `row` (0-based over all rows, row length ne[0]) of tensor `t`.
RowRecipe row_recipe(const TensorSpec& t, const ValueShape& s, uint64_t row);

// Fills `n_rows` rows of `n_per_row` values at `out` following `r`, drawing from `rng`; a
// channel outside the row is ignored.
void fill_rows(const RowRecipe& r, int64_t n_per_row, int n_rows, std::mt19937_64& rng, float* out);

}  // namespace rigbench::model
