// Word order: the five ways a transformer is told where each token sits, and their formulas.
// One place for them, shared by the traced pipeline (where each one enters the six stages) and
// the trainer (which learns with each one and is evaluated on longer sequences than it saw).
//   none        nothing: attention is then permutation-equivariant
//   sinusoidal  PE[t, 2i] = sin(t / 10000^(2i/d)), PE[t, 2i+1] = cos(t / 10000^(2i/d)), added to x
//   learned     a trained (T_max, d) table added to x; it has no rows beyond T_max
//   rope        q and k turned by their positions after the transpose (Llama's rotate-half)
//   alibi       a per-head linear bias -slope_h * |t - s| on the scores before the mask
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class PositionEncoding { None, Sinusoidal, Learned, Rope, Alibi };

// "none", "sinusoidal", "learned", "rope", "alibi".
std::string_view position_encoding_name(PositionEncoding encoding);
// The encoding a name stands for; nullopt for anything else.
std::optional<PositionEncoding> parse_position_encoding(std::string_view name);
// Every encoding, in the order above.
const std::vector<PositionEncoding>& all_position_encodings();
// "none|sinusoidal|learned|rope|alibi", for help text and error messages.
std::string position_encoding_choices();

// True for the encodings added to x at the input stage (sinusoidal, learned).
bool is_additive(PositionEncoding encoding);

// The sinusoidal table (T, d), row-major: PE[t, 2i] = sin(t * w_i), PE[t, 2i + 1] = cos(t * w_i),
// w_i = 10000^(-2i / d). Computed in double.
std::vector<double> sinusoidal_table(int64_t T, int64_t d);

// RoPE's inverse frequencies (d / 2): theta^(-2i / d) for i < d / 2 (d even).
std::vector<double> rope_inverse_frequencies(int64_t d, double theta = 10000.0);

// ALiBi's slopes (H): head h (0-based) gets 2^(-8 (h + 1) / H), Press et al.'s geometric sequence
// (1/2, 1/4, ..., 1/256 for H = 8).
std::vector<double> alibi_slopes(int64_t heads);

// The bias ALiBi adds to the score of query t for key s: -slope * |t - s| (for a causal model only
// s <= t is kept, and there it is Press et al.'s -slope * (t - s)).
inline double alibi_bias(double slope, int64_t t, int64_t s) {
  return -slope * static_cast<double>(t > s ? t - s : s - t);
}

}  // namespace attnlab
