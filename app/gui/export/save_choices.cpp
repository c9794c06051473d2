#include "app/gui/export/save_choices.hpp"

#include <algorithm>

namespace attnlab::gui {

using nlohmann::json;

json save_choices_to_json(const SaveChoices& c) {
  return {{"kind", c.kind == SaveKind::Still ? "still" : "animation"},
          {"width", c.width},
          {"height", c.height},
          {"theme", c.theme == Theme::Light ? "light" : "dark"},
          {"font_scale", c.font_scale},
          {"transparent", c.transparent},
          {"format", c.mp4 ? "mp4" : "gif"},
          {"fps", c.fps},
          {"seconds_per_stage", c.seconds_per_stage},
          {"whole_lesson", c.whole_lesson},
          {"folder", c.folder}};
}

SaveChoices save_choices_from_json(const json& object) {
  SaveChoices c;
  if (!object.is_object()) return c;
  // Each field read alone: one wrong field costs only itself.
  const auto read = [&object](const char* name, auto& into) {
    try {
      if (object.contains(name)) into = object.at(name).get<std::decay_t<decltype(into)>>();
    } catch (const json::exception&) {
    }
  };
  std::string kind = "still", theme = "light", format = "gif";
  read("kind", kind);
  read("theme", theme);
  read("format", format);
  read("width", c.width);
  read("height", c.height);
  read("font_scale", c.font_scale);
  read("transparent", c.transparent);
  read("fps", c.fps);
  read("seconds_per_stage", c.seconds_per_stage);
  read("whole_lesson", c.whole_lesson);
  read("folder", c.folder);
  c.kind = kind == "animation" ? SaveKind::Animation : SaveKind::Still;
  c.theme = theme == "dark" ? Theme::Dark : Theme::Light;
  c.mp4 = format == "mp4";
  // The dialog checks the numbers against the app's options; these only keep them drawable.
  c.width = std::clamp(c.width, 1, 100000);
  c.height = std::clamp(c.height, 1, 100000);
  c.font_scale = std::clamp(c.font_scale, kMinFontScale, kMaxFontScale);
  return c;
}

}  // namespace attnlab::gui
