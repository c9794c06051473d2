#include "app/gui/positions/word_order_state.hpp"

#include <algorithm>

#include "app/gui/state/trace_jobs.hpp"
#include "core/position/encoding_views.hpp"
#include "core/position/position_encoding.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::gui {

const char* word_order_view_label(WordOrderView view) {
  switch (view) {
    case WordOrderView::Shuffle:
      return "Shuffle";
    case WordOrderView::Sinusoidal:
      return "Sinusoidal PE";
    case WordOrderView::Rope:
      return "RoPE";
    case WordOrderView::Alibi:
      return "ALiBi";
  }
  return "";
}

WordOrderView shown_view(const AppState& state) {
  if (state.word_order.chosen) return *state.word_order.chosen;
  const PositionEncoding pos = state.session.config.pos;
  if (pos == PositionEncoding::Sinusoidal) return WordOrderView::Sinusoidal;
  if (pos == PositionEncoding::Rope) return WordOrderView::Rope;
  if (pos == PositionEncoding::Alibi) return WordOrderView::Alibi;
  return WordOrderView::Shuffle;
}

const SinusoidalPicture& sinusoidal_picture(WordOrderTab& tab, int64_t T, int64_t d) {
  T = std::clamp<int64_t>(T, 1, kMostPositionsDrawn);
  SinusoidalPicture& p = tab.sinusoidal;
  if (p.T == T && p.d == d) return p;
  p.T = T;
  p.d = d;
  p.table = sinusoidal_table(T, d);            // (T, d)
  p.similarity = sinusoidal_similarity(T, d);  // (T, T)
  return p;
}

void start_shuffle(AppState& state) {
  start_for_trace(state, state.word_order.shuffle, state.word_order.shuffle_seed,
                  "The shuffled run",
                  [seed = state.word_order.shuffle_seed](const Trace& original, const Inputs& given,
                                                         const RunControl& control) {
                    ShuffleResult result;
                    ShuffledRun run = shuffle_tokens(original.config, original.tokens, given, seed);
                    result.shuffled = attnlab::run(run.config, run.given, control);
                    result.permutation = std::move(run.permutation);
                    result.check = compare_permuted(original, result.shuffled, result.permutation);
                    return result;
                  });
}

}  // namespace attnlab::gui
