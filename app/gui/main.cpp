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
  // A scripted run (--export-*, --screenshot, --dump-layout with them) leaves nothing in the
  // settings folder, not even a log: its fatal line goes to stderr only.
  attnlab::gui::report_fatal_errors(
      options.scripted() ? "" : attnlab::gui::fatal_log_path(attnlab::gui::settings_dir()));
  return attnlab::gui::run_gui(options);
}
