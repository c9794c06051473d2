// What the Save dialog (Ctrl+Shift+E) writes and how: a still or the pipeline's animation, its
// size, theme, font scale and background. Remembered with the settings.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/gui/state/ui_settings.hpp"

namespace attnlab::gui {

enum class SaveKind { Still, Animation };

struct SaveChoices {
  SaveKind kind = SaveKind::Still;
  int width = 1920, height = 1080;  // px of the picture
  Theme theme = Theme::Light;
  float font_scale = 1.5f;
  bool transparent = false;  // a still only
  bool mp4 = false;          // an animation: MP4 (ffmpeg) instead of GIF
  int fps = 10;
  float seconds_per_stage = 1.0f;
  bool whole_lesson =
      false;           // an animation, while a lesson plays: its scenes instead of the stages
  std::string folder;  // where the file goes; "" = the folder the app was started in
  bool operator==(const SaveChoices&) const = default;
};

nlohmann::json save_choices_to_json(const SaveChoices& choices);
// Forgiving: a missing or unreadable field keeps its default.
SaveChoices save_choices_from_json(const nlohmann::json& object);

}  // namespace attnlab::gui
