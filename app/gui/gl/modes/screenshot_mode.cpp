// --screenshot FILE (after --frames N frames, and once the band and the fitted regions are done
// fitting their type, at most kMostFittingFrames more) as a mode of the frame loop: the PNG of the
// frame just drawn, and with --dump-layout the layout JSON; then the app exits (2 when a file
// cannot be written: the user's to fix, as a bad option).
#include <imgui.h>

#include <cstdio>
#include <optional>

#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/gl/modes/window_exports.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/state/redraw.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

int save_screenshot(AppState& state, const StartOptions& options) {
  std::optional<PanelId> panel;
  if (PanelId id; parse_panel(options.panel, id)) panel = id;
  export_png(state, ExportRequest{panel, options.screenshot});
  if (state.status != "Saved " + options.screenshot) {
    std::fprintf(stderr, "attnlab: %s\n", state.status.c_str());
    return 2;
  }
  if (options.dump_layout.empty()) return 0;
  const ImGuiIO& io = ImGui::GetIO();
  try {
    write_file_atomically(options.dump_layout,
                          layout_json(state, io.DisplaySize, io.DisplayFramebufferScale));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "attnlab: %s\n", error.what());
    return 2;
  }
  return 0;
}

class ScreenshotMode final : public FrameMode {
 public:
  void frame(FrameLoop& loop) override {
    if (loop.frame < loop.options.frames) return;
    if (layout_fitting(loop.state) && loop.frame < loop.options.frames + kMostFittingFrames) return;
    loop.exit_code = save_screenshot(loop.state, loop.options);
    over_ = true;
  }
  bool done() const override { return over_; }

 private:
  bool over_ = false;
};

}  // namespace

std::unique_ptr<FrameMode> screenshot_mode() {
  return std::make_unique<ScreenshotMode>();
}

}  // namespace attnlab::gui
