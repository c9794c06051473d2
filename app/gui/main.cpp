// attnlab: the desktop app. Parses the command line and opens the window.
#include <cstdio>

#include "app/gui/gl/gl_app.hpp"
#include "app/gui/platform/fatal_errors.hpp"
#include "app/gui/state/options.hpp"
#include "app/gui/state/settings.hpp"

int main(int argc, char** argv) {
  attnlab::gui::StartOptions options;
  const attnlab::gui::ParseOutcome outcome = attnlab::gui::parse_options(argc, argv, options);
  if (outcome.exit_code >= 0) {
    std::fputs((outcome.message + "\n").c_str(), outcome.exit_code == 0 ? stdout : stderr);
    return outcome.exit_code;
  }
  attnlab::gui::report_fatal_errors(attnlab::gui::fatal_log_path(attnlab::gui::settings_dir()));
  return attnlab::gui::run_gui(options);
}
