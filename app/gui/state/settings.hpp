// Settings that survive a restart: the last config with the step and tab shown, theme, font scale,
// the window's size and ImGui's window layout, in <dir>/settings.json, written atomically (temp
// file, fsync, rename). <dir> = $ATTNLAB_CONFIG_DIR, else $XDG_CONFIG_HOME/attention-lab, else
// ~/.config/attention-lab.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/export/save_choices.hpp"
#include "app/gui/state/ui_settings.hpp"
#include "core/model/config.hpp"

namespace attnlab::gui {

// The real model shown when the app closed: opened again at the next start (in the background).
struct ShownModel {
  std::string folder;  // "" = none (a preset or the user's own config was shown)
  int64_t layer = 0;
  std::string sentence;  // as typed ("" = the model's default text)
};

// The lesson playing when the app closed: the same --lesson next time resumes at its scene.
struct ShownLesson {
  std::string file;  // as given to --lesson
  int scene = 0;
};

struct Settings {
  Config config;
  std::string preset;  // the preset the config started from ("" = none)
  std::string stage;   // the step shown: "attend" or "attend:softmax" ("" = the first)
  std::string tab;     // the middle panel's tab: "tensors", "decode", ... ("" = tensors)
  UiSettings ui;
  int window_width = 0, window_height = 0;  // the window's size (0 = the default)
  std::string imgui_ini;                    // ImGui::SaveIniSettingsToMemory()
  ShownModel model;
  ShownLesson lesson;
  SaveChoices save;  // the Save dialog's
};

std::string settings_dir();
std::string settings_path(const std::string& dir);

struct LoadedSettings {
  Settings settings;
  bool found = false;  // false: first start (or the file was unreadable), defaults used
  std::string notice;  // said once to the user, e.g. the corrupted file was moved aside
};

// Each field is read alone: a wrong one keeps its default and the notice names it, the others are
// restored. Only a file that is not a JSON object at all is renamed to settings.json.bad (the
// defaults used). Stale temporaries of killed saves are removed first (remove_stale_temporaries).
LoadedSettings load_settings(const std::string& dir);

// Removes the settings.json.tmp-PID files a killed save left in `dir`: those whose process is not
// running, or that are older than ten minutes. Returns how many it removed.
int remove_stale_temporaries(const std::string& dir);

// Creates the folder if needed. Throws UserError naming the path and the reason.
void save_settings(const std::string& dir, const Settings& settings);

std::string settings_to_json(const Settings& settings);
// Throws UserError when the text is not a JSON object. A field of the wrong type or value keeps
// its default and is named in `ignored` (when given), e.g. `key "font_scale" must be a number, not
// "big"`.
Settings settings_from_json(const std::string& text, const std::string& source,
                            std::vector<std::string>* ignored = nullptr);

}  // namespace attnlab::gui
