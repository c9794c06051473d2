// The exports the window writes from what it draws, shared by the modes that ask for them (the
// Save buttons, Ctrl+Shift+C, --screenshot) and by the window-less --export-svg / --export-pdf.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/gui/gl/modes/frame_mode.hpp"

namespace attnlab::gui {

// Runs `write`, which writes `path`, then hands the file to the user (a page's download) when
// `deliver`, else says "Saved path"; says where it went (or why not) beside the Save buttons and
// in the status line.
void report_export(AppState& state, const std::string& path, bool deliver,
                   const std::function<void()>& write);

// The maps as a vector picture at `path`: PDF when it ends in .pdf (cairo: the desktop only), else
// SVG; "" or one line saying why not.
std::string export_maps(AppState& state, const std::string& path);

// Writes the PNG `request` asks for (the window or one panel); says where (or why not) beside the
// Save buttons and in the status line.
void export_png(AppState& state, const ExportRequest& request);

// The picture alone (as --export-png draws it, at the window's size), opaque; the window's own
// frame is drawn again after it.
std::vector<unsigned char> picture_alone_rgba(FrameLoop& loop, int& width, int& height);

}  // namespace attnlab::gui
