// A page has one canvas: with --audience (?lesson=...&audience) the page itself is the audience's
// view, a second tab kept in step with the lecturer's (web/index.html carries the position).
#include "app/gui/gl/audience_window.hpp"

namespace attnlab::gui {

struct AudienceWindow::Parts {};

AudienceWindow::AudienceWindow() = default;
AudienceWindow::~AudienceWindow() = default;

std::string AudienceWindow::open(GLFWwindow*, AppState& state) {
  if (state.lesson.file.empty())
    return "The audience's view follows a lesson: open the page with ?lesson=NAME&audience.";
  state.lesson.audience_view = true;
  state.ui.presenter = true;
  return "";
}

void AudienceWindow::close(AppState& state) {
  state.lesson.audience_view = false;
}

bool AudienceWindow::is_open() const {
  return false;
}

void AudienceWindow::draw(AppState&) {}

}  // namespace attnlab::gui
