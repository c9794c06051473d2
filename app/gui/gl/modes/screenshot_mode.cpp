// --screenshot FILE (after --frames N frames, once what the picture shows is computed, as for a
// slide: the scene's trace, a model, a measurement; then once the band and the fitted regions are
// done fitting their type and the windows stand still, at most kMostFittingFrames more) as a mode
// of the frame loop: the PNG of the frame just drawn, and with --dump-layout the layout JSON; then
// the app exits (2 when a file cannot be written: the user's to fix, as a bad option).
#include <imgui.h>

#include <cstdio>
#include <optional>

#include "app/gui/export/picture_export.hpp"
#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/gl/modes/window_exports.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/panels/layout_motion.hpp"
#include "app/gui/state/redraw.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

// Frames drawn after the computation settled: the new trace drawn, its layout measured.
constexpr int kFramesAfterSettling = 2;

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
    if (settled_at_ < 0) {
      const std::string model_error = settle_for_export(loop.state);
      if (!model_error.empty()) std::fprintf(stderr, "attnlab: %s\n", model_error.c_str());
      settled_at_ = loop.frame;
    }
    const int drawn = loop.frame - settled_at_;
    motion_.note_frame();
    if (drawn < kFramesAfterSettling) return;
    if (picture_settling(loop.state, motion_) &&
        drawn < kFramesAfterSettling + kMostFittingFrames) {
      settle_for_export(loop.state);  // what a tab started as it was drawn (a measurement)
      return;
    }
    loop.exit_code = save_screenshot(loop.state, loop.options);
    over_ = true;
  }
  bool done() const override { return over_; }

 private:
  bool over_ = false;
  int settled_at_ = -1;  // the frame at which the computation was waited for
  LayoutMotion motion_;
};

}  // namespace

std::unique_ptr<FrameMode> screenshot_mode() {
  return std::make_unique<ScreenshotMode>();
}

}  // namespace attnlab::gui
