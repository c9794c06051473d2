#include "app/gui/state/settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/limits/bounded_read.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kSettingsVersion = 1;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string settings_dir() {
  if (std::string dir = env("ATTNLAB_CONFIG_DIR"); !dir.empty()) return dir;
  if (std::string xdg = env("XDG_CONFIG_HOME"); !xdg.empty()) return xdg + "/attention-lab";
  return env("HOME") + "/.config/attention-lab";
}

std::string settings_path(const std::string& dir) {
  return dir + "/settings.json";
}

std::string settings_to_json(const Settings& s) {
  const UiSettings& ui = s.ui;
  json object = {{"version", kSettingsVersion},
                 {"config", config_to_json(s.config)},
                 {"preset", s.preset},
                 {"stage", s.stage},
                 {"tab", s.tab},
                 {"window", {{"width", s.window_width}, {"height", s.window_height}}},
                 {"theme", ui.theme == Theme::Light ? "light" : "dark"},
                 {"font_scale", ui.font_scale},
                 {"heatmap_view", heatmap_view_name(ui.heatmap_view)},
                 {"colour_scale", colour_scale_name(ui.colour_scale)},
                 {"steps_per_second", ui.steps_per_second},
                 {"animation_seconds", ui.animation_seconds},
                 {"link_d_k", ui.link_d_k},
                 {"show_values", ui.show_values},
                 {"presenter", ui.presenter},
                 {"splits",
                  {{"controls", ui.splits.controls},
                   {"tensors", ui.splits.tensors},
                   {"heads", ui.splits.heads},
                   {"presenter", ui.splits.presenter}}},
                 {"recent_models", ui.recent_models},
                 {"first_start_done", ui.first_start_done},
                 {"imgui_ini", s.imgui_ini}};
  if (!s.model.folder.empty())
    object["model"] = {
        {"folder", s.model.folder}, {"layer", s.model.layer}, {"sentence", s.model.sentence}};
  if (!s.lesson.file.empty())
    object["lesson"] = {{"file", s.lesson.file}, {"scene", s.lesson.scene}};
  if (s.save != SaveChoices{}) object["save"] = save_choices_to_json(s.save);
  // A sentence from the command line may hold bytes that are not UTF-8: saved as U+FFFD rather
  // than losing every setting to json's type_error.
  return object.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Settings settings_from_json(const std::string& text, const std::string& source) {
  const json object = parse_json_text(text, source);  // depth-limited: no stack overflow
  if (!object.is_object()) throw UserError(source + ": not a JSON object");
  Settings s;
  std::vector<std::string> warnings;  // keys a newer version may add are fine to ignore
  if (object.contains("config"))
    s.config = config_from_json(object.at("config"), source, {}, warnings);
  UiSettings& ui = s.ui;
  s.preset = object.value("preset", "");
  // The step and tab are checked when used: a step the restored trace lacks is not an error.
  s.stage = object.value("stage", "");
  s.tab = object.value("tab", "");
  if (object.contains("window")) {
    const json& window = object.at("window");
    if (!window.is_object()) throw UserError(source + ": window is not an object");
    s.window_width = window.value("width", 0);
    s.window_height = window.value("height", 0);
  }
  const std::string theme = object.value("theme", "light");
  if (theme != "light" && theme != "dark") throw UserError(source + ": unknown theme " + theme);
  ui.theme = theme == "light" ? Theme::Light : Theme::Dark;
  ui.font_scale = std::clamp(object.value("font_scale", 1.0f), kMinFontScale, kMaxFontScale);
  if (!parse_heatmap_view(object.value("heatmap_view", "weights"), ui.heatmap_view))
    throw UserError(source + ": unknown heatmap_view");
  // Before the colour scales: the "stretch_weights" checkbox (true = stretched to the largest
  // weight, now per map; false = the old fixed 0 .. 1, kept for that user).
  if (object.contains("colour_scale")) {
    if (!parse_colour_scale(object.value("colour_scale", ""), ui.colour_scale))
      throw UserError(source + ": unknown colour_scale (use " + colour_scale_names() + ")");
  } else if (object.contains("stretch_weights")) {
    ui.colour_scale =
        object.value("stretch_weights", false) ? ColourScale::PerMap : ColourScale::Fixed;
  }
  ui.steps_per_second = std::clamp(object.value("steps_per_second", 0.7f), 0.1f, 10.0f);
  ui.animation_seconds = std::clamp(object.value("animation_seconds", 0.6f), 0.0f, 5.0f);
  ui.link_d_k = object.value("link_d_k", true);
  ui.show_values = object.value("show_values", true);
  ui.presenter = object.value("presenter", false);
  // A settings file from before the card: not a first start.
  ui.first_start_done = object.value("first_start_done", true);
  if (object.contains("splits")) {
    const json& splits = object.at("splits");
    if (!splits.is_object()) throw UserError(source + ": splits is not an object");
    PanelSplits& into = ui.splits;
    // Out-of-range fractions are clamped when laid out; NaN is refused as a corrupted value.
    for (auto [name, value] : {std::pair{"controls", &into.controls},
                               {"tensors", &into.tensors},
                               {"heads", &into.heads},
                               {"presenter", &into.presenter}}) {
      *value = splits.value(name, *value);
      if (!std::isfinite(*value)) throw UserError(source + ": splits." + name + " is not a number");
    }
  }
  if (object.contains("recent_models")) {  // strings only, at most 8: the rest is dropped
    const json& recent = object.at("recent_models");
    if (!recent.is_array()) throw UserError(source + ": recent_models is not a list");
    for (const json& folder : recent)
      if (folder.is_string() && ui.recent_models.size() < 8)
        ui.recent_models.push_back(folder.get<std::string>());
  }
  s.imgui_ini = object.value("imgui_ini", "");
  if (object.contains("model")) {  // checked again when opened: a folder may be gone by then
    const json& model = object.at("model");
    if (!model.is_object()) throw UserError(source + ": model is not an object");
    s.model.folder = model.value("folder", "");
    s.model.layer = std::max<int64_t>(0, model.value("layer", int64_t(0)));
    s.model.sentence = model.value("sentence", "");
  }
  if (object.contains("lesson")) {
    const json& lesson = object.at("lesson");
    if (!lesson.is_object()) throw UserError(source + ": lesson is not an object");
    s.lesson.file = lesson.value("file", "");
    s.lesson.scene = std::max(0, lesson.value("scene", 0));
  }
  if (object.contains("save")) s.save = save_choices_from_json(object.at("save"));
  return s;
}

LoadedSettings load_settings(const std::string& dir) {
  LoadedSettings loaded;
  const std::string path = settings_path(dir);
  std::error_code missing;
  if (!fs::exists(path, missing)) return loaded;
  try {
    loaded.settings = settings_from_json(read_bounded(path, limits::kSettingsJson), path);
    loaded.found = true;
  } catch (const std::exception& error) {
    std::error_code ignored;
    fs::rename(path, path + ".bad", ignored);
    loaded.settings = Settings{};
    loaded.notice = "Settings file " + path + " could not be read (" + error.what() +
                    "); moved it to settings.json.bad and started with the defaults.";
  }
  return loaded;
}

void save_settings(const std::string& dir, const Settings& settings) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw UserError("cannot create the settings folder " + dir + ": " + error.message());
  write_file_atomically(settings_path(dir), settings_to_json(settings));
}

}  // namespace attnlab::gui
