#include "app/gui/state/settings.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/limits/bounded_read.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/model/json_fields.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kSettingsVersion = 1;

// A save's temporary older than this is a killed save's, whatever its process number says now.
constexpr auto kStaleTemporary = std::chrono::minutes(10);

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

Settings settings_from_json(const std::string& text, const std::string& source,
                            std::vector<std::string>* ignored) {
  const json object = parse_json_text(text, source);  // depth-limited: no stack overflow
  if (!object.is_object()) throw UserError(source + ": not a JSON object");
  Settings s;
  UiSettings& ui = s.ui;
  // Each field read alone, as the Save dialog's choices are: a wrong one keeps its default and is
  // named in `ignored` ("key \"font_scale\" must be a number, not \"big\""); the others are read.
  const auto field = [&](const char* name, const auto& read) {
    try {
      read();
    } catch (const UserError& wrong) {
      std::string reason = wrong.what();
      if (reason.rfind(source + ": ", 0) == 0) reason.erase(0, source.size() + 2);
      if (ignored) ignored->push_back(reason);
    } catch (const json::exception&) {  // a type the checked reads below do not cover
      if (ignored) ignored->push_back(std::string("key \"") + name + "\" has a wrong value");
    }
  };
  const auto wrong = [&](const std::string& key, const std::string& what) {
    return UserError(source + ": key \"" + key + "\" " + what);
  };
  field("config", [&] {
    std::vector<std::string> warnings;  // keys a newer version may add are fine to ignore
    if (const json* config = object_field(object, "config", source))
      s.config = config_from_json(*config, source, {}, warnings);
  });
  field("preset", [&] { s.preset = string_field(object, "preset", source).value_or(""); });
  // The step and tab are checked when used: a step the restored trace lacks is not an error.
  field("stage", [&] { s.stage = string_field(object, "stage", source).value_or(""); });
  field("tab", [&] { s.tab = string_field(object, "tab", source).value_or(""); });
  field("window", [&] {
    if (const json* window = object_field(object, "window", source)) {
      const int64_t width = int_field(*window, "width", source).value_or(0);
      const int64_t height = int_field(*window, "height", source).value_or(0);
      // Sizes outside the window's range are not used (restore_window_size): kept in an int.
      s.window_width = int(std::clamp<int64_t>(width, 0, 1 << 20));
      s.window_height = int(std::clamp<int64_t>(height, 0, 1 << 20));
    }
  });
  field("theme", [&] {
    const std::string theme = string_field(object, "theme", source).value_or("light");
    if (theme != "light" && theme != "dark")
      throw wrong("theme", "must be \"light\" or \"dark\", not \"" + theme + "\"");
    ui.theme = theme == "light" ? Theme::Light : Theme::Dark;
  });
  field("font_scale", [&] {
    ui.font_scale = std::clamp(float(number_field(object, "font_scale", source).value_or(1.0)),
                               kMinFontScale, kMaxFontScale);
  });
  field("heatmap_view", [&] {
    const std::string view = string_field(object, "heatmap_view", source).value_or("weights");
    if (!parse_heatmap_view(view, ui.heatmap_view))
      throw wrong("heatmap_view", "names no heatmap view (\"" + view + "\")");
  });
  // Before the colour scales: the "stretch_weights" checkbox (true = stretched to the largest
  // weight, now per map; false = the old fixed 0 .. 1, kept for that user).
  field("colour_scale", [&] {
    if (const auto scale = string_field(object, "colour_scale", source)) {
      if (!parse_colour_scale(*scale, ui.colour_scale))
        throw wrong("colour_scale", "must be one of " + colour_scale_names());
    } else if (const auto stretch = bool_field(object, "stretch_weights", source)) {
      ui.colour_scale = *stretch ? ColourScale::PerMap : ColourScale::Fixed;
    }
  });
  field("steps_per_second", [&] {
    ui.steps_per_second = std::clamp(
        float(number_field(object, "steps_per_second", source).value_or(0.7)), 0.1f, 10.0f);
  });
  field("animation_seconds", [&] {
    ui.animation_seconds = std::clamp(
        float(number_field(object, "animation_seconds", source).value_or(0.6)), 0.0f, 5.0f);
  });
  field("link_d_k", [&] { ui.link_d_k = bool_field(object, "link_d_k", source).value_or(true); });
  field("show_values",
        [&] { ui.show_values = bool_field(object, "show_values", source).value_or(true); });
  field("presenter",
        [&] { ui.presenter = bool_field(object, "presenter", source).value_or(false); });
  // A settings file from before the card: not a first start.
  field("first_start_done", [&] {
    ui.first_start_done = bool_field(object, "first_start_done", source).value_or(true);
  });
  field("splits", [&] {
    const json* splits = object_field(object, "splits", source);
    if (!splits) return;
    // Out-of-range fractions are clamped when laid out; NaN is refused as a corrupted value.
    PanelSplits read = ui.splits;
    for (auto [name, value] : {std::pair{"controls", &read.controls},
                               {"tensors", &read.tensors},
                               {"heads", &read.heads},
                               {"presenter", &read.presenter}})
      *value = float(number_field(*splits, name, source + ": splits").value_or(*value));
    ui.splits = read;
  });
  field("recent_models", [&] {  // strings only, at most 8: the rest is dropped
    if (const json* recent = array_field(object, "recent_models", source))
      for (const json& folder : *recent)
        if (folder.is_string() && ui.recent_models.size() < 8)
          ui.recent_models.push_back(folder.get<std::string>());
  });
  field("imgui_ini", [&] { s.imgui_ini = string_field(object, "imgui_ini", source).value_or(""); });
  field("model", [&] {  // checked again when opened: a folder may be gone by then
    const json* model = object_field(object, "model", source);
    if (!model) return;
    ShownModel read;
    read.folder = string_field(*model, "folder", source + ": model").value_or("");
    read.layer = std::max<int64_t>(0, int_field(*model, "layer", source + ": model").value_or(0));
    read.sentence = string_field(*model, "sentence", source + ": model").value_or("");
    s.model = read;
  });
  field("lesson", [&] {
    const json* lesson = object_field(object, "lesson", source);
    if (!lesson) return;
    ShownLesson read;
    read.file = string_field(*lesson, "file", source + ": lesson").value_or("");
    read.scene = int(std::clamp<int64_t>(
        int_field(*lesson, "scene", source + ": lesson").value_or(0), 0, 1 << 20));
    s.lesson = read;
  });
  field("save", [&] {
    if (object.contains("save")) s.save = save_choices_from_json(object.at("save"));
  });
  return s;
}

int remove_stale_temporaries(const std::string& dir) {
  const std::string prefix = "settings.json.tmp-";
  const auto now = fs::file_time_type::clock::now();
  int removed = 0;
  std::error_code error;
  for (fs::directory_iterator entry(dir, error), end; !error && entry != end;
       entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;  // not a name save_settings writes
    const auto pid = ::pid_t(std::stol(digits));
    std::error_code no_time;
    const auto written = fs::last_write_time(entry->path(), no_time);
    const bool writer_gone = pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
    const bool old = !no_time && now - written > kStaleTemporary;
    if (!writer_gone && !old) continue;  // a save under way (another window of the app)
    std::error_code not_removed;
    if (fs::remove(entry->path(), not_removed)) ++removed;
  }
  return removed;
}

LoadedSettings load_settings(const std::string& dir) {
  LoadedSettings loaded;
  remove_stale_temporaries(dir);
  const std::string path = settings_path(dir);
  std::error_code missing;
  if (!fs::exists(path, missing)) return loaded;
  try {
    std::vector<std::string> ignored;
    loaded.settings = settings_from_json(read_bounded(path, limits::kSettingsJson), path, &ignored);
    loaded.found = true;
    if (!ignored.empty()) {
      std::string reasons;
      for (const std::string& reason : ignored) reasons += (reasons.empty() ? "" : "; ") + reason;
      loaded.notice = "Settings file " + path + ": " + reasons + " (" +
                      (ignored.size() == 1 ? "that setting is" : "those settings are") +
                      " back to the default; the others were restored).";
    }
  } catch (const std::exception& error) {  // not JSON, or not an object: nothing to restore
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
