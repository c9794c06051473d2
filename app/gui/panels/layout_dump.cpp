#include "app/gui/panels/layout_dump.hpp"

#include <nlohmann/json.hpp>

#include "core/model/config_json.hpp"

namespace attnlab::gui {

std::string layout_json(const AppState& state, ImVec2 window, ImVec2 scale) {
  using nlohmann::json;
  const HeatmapSet& set = state.heads.heatmaps.value();
  json maps = json::array();
  for (const HeatmapPlacement& p : state.frame.heatmap_placements)
    maps.push_back({{"head", p.head},
                    {"rect", {p.min.x, p.min.y, p.max.x, p.max.y}},
                    {"shown", {p.uv_min.x, p.uv_min.y, p.uv_max.x, p.uv_max.y}}});
  json out = {{"window", {window.x, window.y}},
              {"framebuffer_scale", {scale.x, scale.y}},
              {"preset", state.session.preset_name},
              {"view", heatmap_view_name(set.view)},
              {"batch", set.batch_index},
              {"value_min", set.value_min},
              {"value_max", set.value_max},
              {"colormap", colormap_name(set.colormap)},
              {"colour_scale", colour_scale_name(set.scale)},
              {"rows", set.rows},
              {"cols", set.cols},
              {"heatmaps", maps},
              {"focus_head", state.heads.focus.head}};
  if (state.session.trace) out["config"] = config_to_json(state.session.trace->config);
  return out.dump(2) + "\n";
}

}  // namespace attnlab::gui
