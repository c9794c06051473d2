// The user's display choices: kept in AppState, saved with the settings.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/heatmap_data.hpp"

namespace attnlab::gui {

enum class Theme { Light, Dark };  // light is the default: projectors wash out dark themes

constexpr float kMinFontScale = 0.75f;
constexpr float kMaxFontScale = 3.0f;

// Where the panel borders sit, as fractions: dragged by the user, saved with the settings.
struct PanelSplits {
  float controls = 0.26f;   // the controls panel's width, of the window's
  float tensors = 0.48f;    // the stage view's height, of what is below the pipeline strip
  float heads = 0.6f;       // the heads panel's width, of what is right of the controls
  float presenter = 0.28f;  // presenter mode: the stage view's width, of the window's
  bool operator==(const PanelSplits&) const = default;
};

struct UiSettings {
  Theme theme = Theme::Light;
  float font_scale = 1.0f;  // of the 20 px base font
  HeatmapView heatmap_view = HeatmapView::Weights;
  // How weights become colours. Per row by default: under a causal mask the first row's single
  // weight is 1, so a per-map scale would be the fixed 0..1 one again.
  ColourScale colour_scale = ColourScale::PerRow;
  float steps_per_second = 0.7f;   // speed of the automatic walk (Space)
  float animation_seconds = 0.6f;  // length of a stage transition; 0 = none
  bool link_d_k = true;            // d_k follows d_model / n_heads
  bool show_values = true;         // print values in the cells of small tensors
  // P: the controls fold into a bar of the few a lecturer changes live; the stage view and the
  // heads take the screen.
  bool presenter = false;
  PanelSplits splits;
  std::vector<std::string> recent_models;  // model folders opened, the latest first (up to 8)
  bool first_start_done = false;  // the first start's card was dismissed: never shown again
};

}  // namespace attnlab::gui
