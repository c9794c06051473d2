// The Save dialog's side in the window as a mode of the frame loop: the exports it asked for
// started, Record's frame taken (before the frame is shown, so its red mark is never recorded),
// and an export's outcome said (app/gui/gl/save_window.hpp).
#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/gl/save_window.hpp"

namespace attnlab::gui {

namespace {

class RecordingMode final : public FrameMode {
 public:
  void frame(FrameLoop& loop) override { after_frame_saving(loop.state, loop.window); }
};

}  // namespace

std::unique_ptr<FrameMode> recording_mode() {
  return std::make_unique<RecordingMode>();
}

}  // namespace attnlab::gui
