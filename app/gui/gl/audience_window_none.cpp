// A page has one canvas: the audience's view is a second tab of the page (web/index.html keeps it
// in step), not a second window.
#include "app/gui/gl/audience_window.hpp"
#include "app/gui/gl/heatmap_renderer.hpp"

namespace attnlab::gui {

AudienceWindow::~AudienceWindow() = default;

std::string AudienceWindow::open(GLFWwindow*, AppState&) {
  return "In the page, the audience's view is a second tab: open this page again with "
         "&audience at the end of its address.";
}

void AudienceWindow::close(AppState&) {}

void AudienceWindow::draw(AppState&) {}

void AudienceWindow::build_fonts(const AppState&) {}

}  // namespace attnlab::gui
