// The exports a panel asks for (state.window.export_request: the Save buttons' PNG, SVG, PDF and
// .npy zip, a page's picture alone) and Ctrl+Shift+C's picture onto the clipboard, as a mode of
// the frame loop: written from the frame just drawn.
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "app/gui/export/save_command.hpp"
#include "app/gui/export/vector_export.hpp"
#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/gl/modes/window_exports.hpp"
#include "app/gui/gl/screenshot.hpp"
#include "app/gui/platform/platform.hpp"
#include "app/gui/state/gui_words.hpp"
#include "core/tensor/npy.hpp"
#include "core/trace/export.hpp"

namespace attnlab::gui {

namespace {

// The trace's tensors as .npy files in a .zip named after the preset and the time.
void export_npy_zip(AppState& state) {
  const std::string preset =
      state.session.preset_name.empty() ? "custom" : state.session.preset_name;
  const std::string path = "attnlab-" + preset + "-" + file_time_stamp() + ".zip";
  report_export(state, path, true, [&] {
    if (!state.session.trace) throw std::runtime_error("no trace yet: wait for it to be computed");
    write_file_atomically(path, export_zip(*state.session.trace));
  });
}

// The maps as SVG (or, on the desktop, as PDF when `path` ends in .pdf), named after the time when
// `path` is "" (the page offers it as a download).
void export_heads_maps(AppState& state, const std::string& requested) {
  const std::string path = requested.empty() ? maps_file_name("svg") : requested;
  report_export(state, path, true, [&] {
    if (const std::string error = export_maps(state, path); !error.empty())
      throw std::runtime_error(error);
  });
}

// Ctrl+Shift+C: the picture alone onto the clipboard.
void copy_picture(FrameLoop& loop) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("attnlab-picture-" + file_time_stamp() + ".png"))
          .string();
  int width = 0, height = 0;
  const std::vector<unsigned char> rgba = picture_alone_rgba(loop, width, height);
  try {
    write_png_rgba(path, width, height, rgba);
    loop.state.status = platform::copy_png_to_clipboard(path);
  } catch (const std::exception& error) {
    loop.state.status = in_gui_words(error);
  }
}

// The Save dialog in a page: the picture alone at the page's size, as a download.
void save_picture_here(FrameLoop& loop) {
  const std::string path = "attnlab-picture-" + file_time_stamp() + ".png";
  int width = 0, height = 0;
  const std::vector<unsigned char> rgba = picture_alone_rgba(loop, width, height);
  report_export(loop.state, path, true, [&] { write_png_rgba(path, width, height, rgba); });
}

class ExportRequestsMode final : public FrameMode {
 public:
  void frame(FrameLoop& loop) override {
    AppState& state = loop.state;
    if (state.window.export_request) {
      const ExportRequest request = *std::exchange(state.window.export_request, std::nullopt);
      if (request.picture)
        save_picture_here(loop);
      else if (request.npy_zip)
        export_npy_zip(state);
      else if (request.svg)
        export_heads_maps(state, request.path);
      else
        export_png(state, request);
    }
    if (std::exchange(state.window.copy_picture, false)) copy_picture(loop);
  }
};

}  // namespace

std::unique_ptr<FrameMode> export_requests_mode() {
  return std::make_unique<ExportRequestsMode>();
}

}  // namespace attnlab::gui
