#include "app/gui/state/mistake_maps.hpp"

#include "app/gui/state/app_state.hpp"

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
  const Session& session = state.session;
  const MistakeMapChoice choice = {state.mistakes.head, state.mistakes.token,
                                   state.walk.batch_shown};
  return state.mistakes.maps.get(session.generation, choice, [&] {
    if (!session.correct_trace || !session.mistake_report) return std::array<HeatmapSet, 3>{};
    return build_mistake_maps(*session.correct_trace, *session.trace,
                              session.mistake_report->record, choice.head, choice.token,
                              choice.batch);
  });
}

}  // namespace attnlab::gui
