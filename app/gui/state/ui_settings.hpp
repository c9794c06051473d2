// The user's display choices: kept in AppState, saved with the settings.
#pragma once

#include "app/gui/state/heatmap_data.hpp"

namespace attnlab::gui {

enum class Theme { Light, Dark };  // light is the default: projectors wash out dark themes

constexpr float kMinFontScale = 0.75f;
constexpr float kMaxFontScale = 3.0f;

struct UiSettings {
  Theme theme = Theme::Light;
  float font_scale = 1.0f;  // of the 20 px base font
  HeatmapView heatmap_view = HeatmapView::Weights;
  ColourScale colour_scale = ColourScale::PerMap;  // how weights become colours
  float steps_per_second = 0.7f;                   // speed of the automatic walk (Space)
  float animation_seconds = 0.6f;                  // length of a stage transition; 0 = none
  bool link_d_k = true;                            // d_k follows d_model / n_heads
  bool show_values = true;                         // print values in the cells of small tensors
};

}  // namespace attnlab::gui
