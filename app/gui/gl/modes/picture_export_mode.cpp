// --export-png and --export-animation as a mode of the frame loop: the picture alone, settled and
// saved, or the animation's frames streamed to its encoder (app/gui/export/picture_export.hpp).
#include "app/gui/export/picture_export.hpp"
#include "app/gui/gl/modes/frame_mode.hpp"

namespace attnlab::gui {

namespace {

class PictureExportMode final : public FrameMode {
 public:
  std::string start(FrameLoop& loop) override {
    return start_picture_export(loop.state, loop.options, run_);
  }
  void before_frame(FrameLoop& loop) override { before_picture_frame(loop.state, run_); }
  void frame(FrameLoop& loop) override {
    over_ = !after_picture_frame(loop.state, run_, loop.exit_code, loop.render);
  }
  bool done() const override { return over_; }

 private:
  PictureExport run_;
  bool over_ = false;
};

}  // namespace

std::unique_ptr<FrameMode> picture_export_mode() {
  return std::make_unique<PictureExportMode>();
}

}  // namespace attnlab::gui
