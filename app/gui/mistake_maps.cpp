#include "app/gui/mistake_maps.hpp"

#include "app/gui/app_state.hpp"

namespace attnlab::gui {

std::array<HeatmapSet, 3> build_mistake_maps(const Trace& correct, const Trace& buggy,
                                             const std::string& record, int64_t head, int64_t token,
                                             int64_t batch_index) {
  std::array<HeatmapSet, 3> maps;
  const HeatmapSet right = record_heatmaps(correct, record, batch_index);
  const HeatmapSet wrong = record_heatmaps(buggy, record, batch_index);
  if (!right.empty()) maps[0] = single_map(right, head);
  if (!wrong.empty()) maps[1] = single_map(wrong, wrong.maps_are_tokens ? token : head);
  if (!wrong.maps_are_tokens) maps[2] = difference_map(maps[0], maps[1]);
  share_colour_scale(maps);
  return maps;
}

const std::array<HeatmapSet, 3>& current_mistake_maps(AppState& state) {
  MistakeMaps& cache = state.mistake_maps;
  const std::shared_ptr<const Trace> buggy =
      state.correct_trace && state.mistake_report ? state.trace : nullptr;
  const std::array<int64_t, 3> key = {state.mistake_map, state.mistake_token, state.batch_shown};
  if (same_trace(cache.of, buggy) && cache.key == key) return cache.maps;
  cache.maps = {};
  cache.of = buggy;
  cache.key = key;
  ++cache.version;
  if (buggy) {
    cache.maps = build_mistake_maps(*state.correct_trace, *buggy, state.mistake_report->record,
                                    state.mistake_map, state.mistake_token, state.batch_shown);
  }
  return cache.maps;
}

}  // namespace attnlab::gui
