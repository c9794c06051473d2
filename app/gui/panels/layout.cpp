#include "app/gui/panels/layout.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

PanelLayout compute_layout(ImVec2 display, float font) {
  const float W = display.x, H = display.y;
  const float controls_w = std::clamp(22.0f * font, std::min(300.0f, 0.4f * W), 0.3f * W);
  const float pipeline_h = std::clamp(5.6f * font, 80.0f, 0.3f * H);
  const float rest_h = H - pipeline_h;
  const float tensors_h = std::round(rest_h * 0.48f);
  const float right_w = W - controls_w;
  const float heads_w = std::round(right_w * 0.6f);

  PanelLayout layout;
  auto set = [&](PanelId id, float x0, float y0, float x1, float y1) {
    layout.rects[int(id)] = ImVec4(std::round(x0), std::round(y0), std::round(x1), std::round(y1));
  };
  set(PanelId::Controls, 0, 0, controls_w, H);
  set(PanelId::Pipeline, controls_w, 0, W, pipeline_h);
  set(PanelId::Tensors, controls_w, pipeline_h, W, pipeline_h + tensors_h);
  set(PanelId::Heads, controls_w, pipeline_h + tensors_h, controls_w + heads_w, H);
  set(PanelId::Info, controls_w + heads_w, pipeline_h + tensors_h, W, H);
  return layout;
}

}  // namespace attnlab::gui
