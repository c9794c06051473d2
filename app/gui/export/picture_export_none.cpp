// The page saves its picture with Ctrl+S (a download); stills and animations written to files off
// screen are the desktop app's (picture_export.cpp).
#include "app/gui/export/picture_export.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui {

// The page is given no --screenshot (its picture is saved from the page itself, as it shows):
// nothing there waits for a computation before a picture.
std::string settle_for_export(AppState&) {
  return "";
}

std::string start_picture_export(AppState&, const StartOptions&, PictureExport&) {
  return "--export-png and --export-animation are the desktop app's";
}

std::unique_ptr<AnimationSink> open_animation(const std::string&, int, int, int) {
  throw UserError("the page records with its Record button, as a WebM");
}

void before_picture_frame(AppState&, PictureExport&) {}

bool after_picture_frame(AppState&, PictureExport&, int& exit_code,
                         const std::function<void(const float*)>&) {
  exit_code = 2;
  return false;
}

}  // namespace attnlab::gui
