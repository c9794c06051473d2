// The Save dialog's part of the app state: the choices (remembered), the export running as a copy
// of the app, and a recording made while the lecturer steps.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/export/animation_sink.hpp"
#include "app/gui/export/save_choices.hpp"
#include "app/gui/state/background_task.hpp"

namespace attnlab::gui {

// Record (Ctrl+Shift+R): the window shows the picture alone, and each frame drawn (at most the
// choices' fps) goes to the encoder as it is made, keeping only the one before (a picture that
// holds is one longer frame). Stopping finishes the GIF or MP4; however long, it holds two frames.
struct Recording {
  bool on = false;
  int fps = 10;
  double last_frame = 0;  // the clock when the last frame was kept
  int width = 0, height = 0;
  std::string path;                     // the file being written
  std::unique_ptr<AnimationSink> sink;  // its encoder
  MergingFrames frames;
};

// What the dialog asks the window layer to start (it runs processes and encoders; the dialog
// itself is drawn headless in tests).
struct SaveRequest {
  std::vector<std::string> arguments;  // the app's options for --export-png / --export-animation
  std::string path;
};

// The problem with the dialog's choices, named by its field ("" when Save may start).
struct SaveProblem {
  std::string field;  // "folder", "size", "font", "fps", "seconds", or "" (the whole export)
  std::string text;
};

// The dialog's last check of its choices: what it checked (the export's options, the folder) and
// what it found. Done again only when they change, not every frame.
struct SaveCheck {
  std::vector<std::string> arguments;
  std::string folder;
  SaveProblem problem;
  bool valid = false;  // false: check at the next frame (the dialog just opened)
  int count = 0;       // how many checks were made (tests)
};

struct SaveDialog {
  SaveChoices choices;      // saved with the settings
  bool open = false;        // Ctrl+Shift+E, or the Controls' "Save picture..."
  bool other_size = false;  // the size fields, though the size is one of the list's
  // What this platform can do, set by the window layer: run the app again off screen for any size
  // and animations (the desktop; a page saves what it shows), and write MP4s (ffmpeg installed).
  bool runs_app_copies = false;
  bool has_ffmpeg = false;
  std::vector<SaveRequest> requests;
  SaveCheck check;
  BackgroundTask<std::string> writing;  // the copy of the app, or a recording's encoding
  std::string writing_path;
  bool watching = false;  // `writing` was started: its outcome goes to the status line once
  Recording recording;
  bool toggle_recording = false;  // Ctrl+Shift+R or the dialog's button
  bool presenter_before_recording = false;
};

}  // namespace attnlab::gui
