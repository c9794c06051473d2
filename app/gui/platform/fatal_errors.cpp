#include "app/gui/platform/fatal_errors.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <string>

#if __has_include(<execinfo.h>)
#include <execinfo.h>
#define ATTNLAB_HAS_BACKTRACE 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#define ATTNLAB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTNLAB_ASAN 1
#endif
#endif

namespace attnlab::gui {

namespace {

// A signal handler may touch nothing but these: the log's path, copied beforehand, and
// async-signal-safe calls (open, write, close, clock_gettime, backtrace_symbols_fd once loaded,
// raise). The log is opened only when there is something to write: a run that ends well leaves
// no file behind.
char log_path_text[4096] = "";

struct FatalSignal {
  int number;
  const char* line;  // what is written, newline included
};
constexpr FatalSignal kFatalSignals[] = {
    {SIGSEGV, "attnlab: fatal: SIGSEGV (invalid memory access); the app stopped\n"},
    {SIGBUS, "attnlab: fatal: SIGBUS (bus error); the app stopped\n"},
    {SIGFPE, "attnlab: fatal: SIGFPE (arithmetic error); the app stopped\n"},
    {SIGILL, "attnlab: fatal: SIGILL (illegal instruction); the app stopped\n"},
    {SIGABRT, "attnlab: fatal: SIGABRT (aborted); the app stopped\n"},
};

void write_text(int fd, const char* text) {
  if (fd < 0) return;
  size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t written = write(fd, text, left);
    if (written <= 0) return;
    text += written;
    left -= size_t(written);
  }
}

// "[1764249600] " (seconds since 1970): when, in the log, without the locale or malloc.
void write_time(int fd) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  char digits[24];
  int n = 0;
  for (long long s = now.tv_sec; s > 0 && n < 20; s /= 10) digits[n++] = char('0' + s % 10);
  char text[32] = "[";
  int at = 1;
  while (n > 0) text[at++] = digits[--n];
  text[at++] = ']';
  text[at++] = ' ';
  text[at] = '\0';
  write_text(fd, text);
}

// One line to stderr and to the log (with the time and the stack there).
void write_fatal_line(const char* line, bool with_stack) {
  write_text(STDERR_FILENO, line);
  if (log_path_text[0] == '\0') return;
  const int log_fd = open(log_path_text, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return;
  write_time(log_fd);
  write_text(log_fd, line);
#ifdef ATTNLAB_HAS_BACKTRACE
  if (with_stack) {
    void* frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), log_fd);
  }
#else
  (void)with_stack;
#endif
  close(log_fd);
}

[[maybe_unused]] void on_fatal_signal(int number) {
  for (const FatalSignal& fatal : kFatalSignals)
    if (fatal.number == number) write_fatal_line(fatal.line, true);
  // SA_RESETHAND put the default action back: the signal ends the process as it would have.
  raise(number);
}

void on_terminate() {
  std::string line = "attnlab: fatal: terminate called without an exception; the app stopped\n";
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::exception& error) {
      line = std::string("attnlab: fatal: uncaught exception: ") + error.what() +
             "; the app stopped\n";
    } catch (...) {
      line = "attnlab: fatal: uncaught exception of unknown type; the app stopped\n";
    }
  }
  write_fatal_line(line.c_str(), true);
  signal(SIGABRT, SIG_DFL);  // the line is written: abort without a second one
  std::abort();
}

}  // namespace

std::string fatal_log_path(const std::string& settings_folder) {
  return settings_folder + "/attnlab.log";
}

void report_fatal_errors(const std::string& log_path) {
  std::error_code ignored;  // no log (a read-only home): stderr still gets the line
  if (!log_path.empty())
    std::filesystem::create_directories(std::filesystem::path(log_path).parent_path(), ignored);
  if (log_path.size() < sizeof(log_path_text))
    std::memcpy(log_path_text, log_path.c_str(), log_path.size() + 1);
#ifdef ATTNLAB_HAS_BACKTRACE
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc now: the first call may allocate, a handler must not
#endif
  std::set_terminate(on_terminate);
#ifndef ATTNLAB_ASAN
  for (const FatalSignal& fatal : kFatalSignals) {
    struct sigaction action {};
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigaction(fatal.number, &action, nullptr);
  }
#endif
}

}  // namespace attnlab::gui
