#include "app/gui/gl/modes/window_exports.hpp"

#include <imgui.h>

#include <optional>

#ifndef __EMSCRIPTEN__
#include "app/gui/export/maps_pdf.hpp"
#endif
#include "app/gui/export/save_command.hpp"
#include "app/gui/export/vector_export.hpp"
#include "app/gui/gl/screenshot.hpp"
#include "app/gui/platform/platform.hpp"
#include "app/gui/state/gui_words.hpp"

namespace attnlab::gui {

namespace {

std::string default_png_name(const std::optional<PanelId>& panel) {
  return std::string("attnlab-") + (panel ? panel_name(*panel) : "window") + "-" +
         file_time_stamp() + ".png";
}

}  // namespace

void report_export(AppState& state, const std::string& path, bool deliver,
                   const std::function<void()>& write) {
  try {
    write();
    state.window.export_message = deliver ? platform::deliver_file(path) : "Saved " + path;
    state.window.export_failed = false;
  } catch (const std::exception& error) {
    state.window.export_message = in_gui_words(error);
    state.window.export_failed = true;
  }
  state.status = state.window.export_message;
}

std::string export_maps(AppState& state, const std::string& path) {
  const bool pdf = path.size() >= 4 && path.compare(path.size() - 4, 4, ".pdf") == 0;
  if (!pdf) return export_svg(state, path);
#ifdef __EMSCRIPTEN__
  return "the page saves the maps as SVG; the desktop app writes PDF";
#else
  return write_picture_pdf(heads_picture(state), path);
#endif
}

void export_png(AppState& state, const ExportRequest& request) {
  const std::string path = request.path.empty() ? default_png_name(request.panel) : request.path;
  std::optional<ImVec4> crop;
  if (request.panel) crop = state.frame.panel_rects[int(*request.panel)];
  report_export(state, path, request.path.empty(),
                [&] { save_frame_png(path, ImGui::GetIO().DisplayFramebufferScale, crop); });
}

std::vector<unsigned char> picture_alone_rgba(FrameLoop& loop, int& width, int& height) {
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiConfigFlags flags = io.ConfigFlags;
  io.ConfigFlags |= ImGuiConfigFlags_NoMouse;  // no hover outline in the picture
  loop.state.window.picture_only = true;
  loop.render(nullptr);
  std::vector<unsigned char> rgba = read_frame_rgba(width, height);
  loop.state.window.picture_only = false;
  io.ConfigFlags = flags;
  loop.render(nullptr);
  for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
  return rgba;
}

}  // namespace attnlab::gui
