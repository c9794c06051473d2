// The audience's window (--audience, key A) as a mode of the frame loop: opened or closed when
// asked, drawn after the lecturer's frame is shown (app/gui/gl/audience_window.hpp).
#include <utility>

#include "app/gui/gl/audience_window.hpp"
#include "app/gui/gl/modes/frame_mode.hpp"

namespace attnlab::gui {

namespace {

class AudienceMode final : public FrameMode {
 public:
  std::string start(FrameLoop& loop) override {
    loop.state.window.toggle_audience = loop.options.audience;
    return "";
  }
  void after_swap(FrameLoop& loop) override {
    AppState& state = loop.state;
    if (std::exchange(state.window.toggle_audience, false)) {
      if (audience_.is_open()) {
        audience_.close(state);
      } else if (const std::string error = audience_.open(loop.window, state); !error.empty()) {
        state.status = error;
      }
    }
    audience_.draw(state);
  }

 private:
  AudienceWindow audience_;
};

}  // namespace

std::unique_ptr<FrameMode> audience_mode() {
  return std::make_unique<AudienceMode>();
}

}  // namespace attnlab::gui
