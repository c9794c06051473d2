// A fatal error never ends the app without a word: a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
// SIGABRT) writes one line naming the signal to stderr and to the app's log (attnlab.log in the
// settings folder), with the stack's addresses in the log, then ends the process as the signal
// would (a core dump where they are enabled); an exception nobody caught writes its message the
// same way. SIGINT and SIGTERM are not fatal: the main loop ends cleanly (gl_app.cpp).
#pragma once

#include <string>

namespace attnlab::gui {

// The log the fatal lines are appended to: <settings folder>/attnlab.log.
std::string fatal_log_path(const std::string& settings_folder);

// Installs the handlers; the log's folder is made now, so that a crash only writes. An empty
// `log_path`: no log (a scripted run), stderr only.
// In a build with AddressSanitizer the signals are left to its report, which says more.
void report_fatal_errors(const std::string& log_path);

}  // namespace attnlab::gui
