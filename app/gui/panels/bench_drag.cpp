#include "app/gui/panels/bench_drag.hpp"

namespace attnlab::gui {

void drag_heads_for_bench(AppState& state, int64_t frame, int every) {
  constexpr int64_t kHeads[] = {8, 4, 2};
  if (every <= 0 || frame % every != 0) return;
  Config config = state.session.config;
  config.n_heads = kHeads[(frame / every) % 3];
  state.session.preset_name.clear();  // as the slider does: the user's own config now
  set_config(state, config);
}

}  // namespace attnlab::gui
