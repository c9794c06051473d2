// attnlab: the desktop app. Parses the command line and opens the window.
#include <cstdio>

#include "app/gui/gl/gl_app.hpp"
#include "app/gui/state/options.hpp"

int main(int argc, char** argv) {
  attnlab::gui::StartOptions options;
  const attnlab::gui::ParseOutcome outcome = attnlab::gui::parse_options(argc, argv, options);
  if (outcome.exit_code >= 0) {
    std::fputs((outcome.message + "\n").c_str(), outcome.exit_code == 0 ? stdout : stderr);
    return outcome.exit_code;
  }
  return attnlab::gui::run_gui(options);
}
