// --export-slides DIR as a mode of the frame loop: each slide's scene shown before its frames,
// saved once settled, the handout after the last (app/gui/lessons/slide_export.hpp).
#include <imgui.h>

#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/lessons/slide_export.hpp"

namespace attnlab::gui {

namespace {

class SlideExportMode final : public FrameMode {
 public:
  std::string start(FrameLoop& loop) override {
    return start_slide_export(loop.state, loop.options.export_slides, run_);
  }
  void before_frame(FrameLoop& loop) override { before_slide_frame(loop.state, run_); }
  void frame(FrameLoop& loop) override {
    over_ = !after_slide_frame(loop.state, run_, ImGui::GetIO().DisplayFramebufferScale,
                               loop.exit_code);
  }
  bool done() const override { return over_; }

 private:
  SlideExport run_;
  bool over_ = false;
};

}  // namespace

std::unique_ptr<FrameMode> slide_export_mode() {
  return std::make_unique<SlideExportMode>();
}

}  // namespace attnlab::gui
