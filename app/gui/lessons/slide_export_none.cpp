// The page cannot write a folder of slides: the desktop app does (slide_export.cpp).
#include "app/gui/lessons/slide_export.hpp"

namespace attnlab::gui {

std::string start_slide_export(AppState&, const std::string&, SlideExport&) {
  return "slides are exported by the desktop app: attnlab --lesson FILE --export-slides DIR";
}

void before_slide_frame(AppState&, SlideExport&) {}

bool after_slide_frame(AppState&, SlideExport&, ImVec2, int& exit_code) {
  exit_code = 2;
  return false;
}

}  // namespace attnlab::gui
