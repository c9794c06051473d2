// What the Word order tab remembers (key W): which of its four views is shown, the shuffle
// demonstration's seed and its run (the same config with the tokens reordered, computed on a
// background thread and compared with the shown trace), and the RoPE and ALiBi views' choices.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/state/trace_cache.hpp"
#include "core/position/shuffle.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct AppState;

enum class WordOrderView { Shuffle, Sinusoidal, Rope, Alibi };
constexpr int kWordOrderViewCount = 4;
const char* word_order_view_label(WordOrderView view);  // "Shuffle", "Sinusoidal PE", ...

// The shuffled run beside the shown trace: the tokens in the order `permutation`, and how far each
// head's map is from the shown one permuted.
struct ShuffleResult {
  Trace shuffled;
  std::vector<int64_t> permutation;
  PermutationCheck check;
};

// The sinusoidal table (T, d) and PE PE^T (T, T) for the shown sizes, computed when they change.
struct SinusoidalPicture {
  int64_t T = 0, d = 0;
  std::vector<double> table, similarity;
};
// At most this many positions are drawn (PE PE^T costs T^2 d), and at least this many of the
// sinusoidal table (so that its slower columns show their waves).
constexpr int64_t kMostPositionsDrawn = 128;
constexpr int64_t kFewestPositionsDrawn = 48;

struct WordOrderTab {
  std::optional<WordOrderView> chosen;  // picked by the user; until then the config's --pos's
  uint64_t shuffle_seed = 1;
  TraceJob<ShuffleResult, uint64_t> shuffle;  // the choice: the seed
  int head = 0;                               // the head the shuffle and RoPE views show
  int rope_query = -1;                        // the RoPE view's query token; -1: the last
  int rope_key = 0;                           // and its key token
  int rope_distance = 3;                      // how many positions apart the two are placed
  int rope_pair = 0;                          // which pair of dimensions (i, i + d_k/2) is drawn
  SinusoidalPicture sinusoidal;
};

// The view on screen: the one picked, else the one that teaches the config's encoding.
WordOrderView shown_view(const AppState& state);

// The picture for T positions (at most kMostPositionsDrawn) of width d, recomputed on a change.
const SinusoidalPicture& sinusoidal_picture(WordOrderTab& tab, int64_t T, int64_t d);

// Starts the shuffled run of the shown trace with the tab's seed (once per trace and seed).
void start_shuffle(AppState& state);

}  // namespace attnlab::gui
