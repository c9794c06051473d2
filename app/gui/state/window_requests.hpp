// Between the panels and the window layer (gl_app.cpp): what the panels ask it to do between
// frames, what it reports back, and the font it provides.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/frame_output.hpp"

namespace attnlab::gui {

// A file the app should write after rendering the current frame: a PNG of the window or a panel,
// or the trace's tensors as .npy files in a .zip.
struct ExportRequest {
  std::optional<PanelId> panel;  // none = the whole window
  std::string path;              // "" = attnlab-<panel>-<date-time>.png in the current folder
  bool npy_zip = false;          // the tensors instead: attnlab-<preset>-<date-time>.zip
  bool svg = false;              // the maps as a vector image: attnlab-heads-<date-time>.svg
  bool picture = false;  // the picture alone at the window's size (the Save dialog in a page)
};

struct WindowRequests {
  bool fonts_dirty = false;   // font scale changed: rebuild the atlas
  std::string font_text;      // the atlas has glyphs for this text's characters (the sentence)
  size_t font_stand_ins = 0;  // and for the first this many of TypedInput::stand_ins
  bool toggle_fullscreen = false;
  bool toggle_audience = false;  // key A: the audience's window opened or closed
  // An exported picture: the picture alone (presenter mode's layout, no bar, no play button).
  bool picture_only = false;
  bool copy_picture = false;       // Ctrl+Shift+C: the picture alone onto the clipboard
  double fixed_frame_seconds = 0;  // > 0: every frame advances the clocks by this (an animation)
  std::optional<ExportRequest> export_request;
  // The last export's outcome, shown beside the Save buttons: "Saved <path>" or why not.
  std::string export_message;
  bool export_failed = false;
  ImFont* mono_font = nullptr;             // code lines; null = the default font
  std::string platform_note;               // what this platform cannot do (the browser page), or ""
  std::vector<std::string> dropped_paths;  // dropped on the window: a model folder to open
  // The first start's card (what P, the arrows, Space and the digits do) is up until a key or a
  // click; set by the window on the very first start (UiSettings::first_start_done).
  bool first_start_card = false;
  // Wakes the main loop from any thread (a watched file changed while the loop sleeps): set by the
  // window to platform::main_loop_wake(); empty in a page and without a window (exports): then
  // no file is watched.
  std::function<void()> wake_loop;
};

}  // namespace attnlab::gui
