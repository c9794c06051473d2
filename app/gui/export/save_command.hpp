// The Save dialog's export is the app's own command line (--export-png / --export-animation) run
// on the state shown: its file name, its arguments, and their check by the app's option parser,
// so the dialog refuses exactly what the command line refuses.
#pragma once

#include <string>
#include <vector>

#include "app/gui/export/save_choices.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// "20261123-134501": the local date and time, for the names of saved files.
std::string file_time_stamp();

// <folder>/attnlab-<what is shown>-<stamp>.png|.gif|.mp4 as a full path (the folder made absolute
// from the working folder; no folder: the working folder), e.g.
// /home/me/talk/attnlab-seed003-attend-20261127-1305.gif
std::string save_file_name(const AppState& state, const SaveChoices& choices,
                           const std::string& stamp);

// <folder>/attnlab-recording-<stamp>.gif|.mp4 as a full path: what Record kept.
std::string recording_file_name(const SaveChoices& choices, const std::string& stamp);

// The options that draw the state shown (the scene, or the lesson played) into `path` with the
// choices' size, theme, font scale, background and frame rate.
std::vector<std::string> save_arguments(const AppState& state, const SaveChoices& choices,
                                        const std::string& path);

// "" when the app's option parser takes the arguments, else its one-line reason.
std::string check_save_arguments(const std::vector<std::string>& arguments);

}  // namespace attnlab::gui
