// The Save dialog's exports on the desktop: the app itself (/proc/self/exe) run off screen with
// the export's options, so the window never waits for it and Cancel simply ends it. The copy
// writes its file whole or not at all (temporary file, then rename), so a cancelled or failed
// export leaves nothing behind.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app/gui/platform/platform.hpp"
#include "core/model/errors.hpp"

extern char** environ;

namespace attnlab::gui::platform {

namespace {

constexpr char kProgressVariable[] = "ATTNLAB_EXPORT_PROGRESS";  // picture_export.cpp prints then
constexpr auto kKillAfter = std::chrono::seconds(2);             // a copy deaf to SIGTERM

// A pipe's read end, closed on exec in the copy; the write end is the copy's stdout or stderr.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0)
      throw UserError(std::string("cannot start the export: ") + std::strerror(errno));
    read = ends[0];
    write = ends[1];
  }
  ~Pipe() {
    for (int end : {read, write})
      if (end >= 0) close(end);
  }
  void close_write() {
    close(write);
    write = -1;
  }
};

// Reads what is there; false at the end of the stream.
bool drain(int fd, std::string& into) {
  char buffer[4096];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got > 0) into.append(buffer, size_t(got));
  return got > 0 || (got < 0 && errno == EINTR);
}

// The last non-empty line of `text`, without "attnlab: ".
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  const size_t newline = text.rfind('\n', end);
  const size_t start = newline == std::string::npos ? 0 : newline + 1;
  std::string line = text.substr(start, end + 1 - start);
  if (line.rfind("attnlab: ", 0) == 0) line.erase(0, 9);
  return line;
}

// Moves the complete lines of `pending` out: "progress 0.42" is reported, the others are kept in
// `lines` (the copy's "Wrote ..." line).
void take_lines(std::string& pending, std::string& lines, const RunControl& control) {
  size_t end;
  while ((end = pending.find('\n')) != std::string::npos) {
    const std::string line = pending.substr(0, end);
    pending.erase(0, end + 1);
    if (line.rfind("progress ", 0) == 0)
      control.report(std::strtod(line.c_str() + 9, nullptr));
    else
      lines += line + "\n";
  }
}

}  // namespace

bool runs_app_copies() {
  return true;
}

std::string run_app_copy(const std::vector<std::string>& arguments, const RunControl& control) {
  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write, STDERR_FILENO);
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry)
    if (std::strncmp(*entry, kProgressVariable, sizeof kProgressVariable - 1) != 0)
      environment.emplace_back(*entry);
  environment.push_back(std::string(kProgressVariable) + "=1");
  std::vector<char*> env_pointers, argv = {const_cast<char*>("attnlab")};
  for (std::string& entry : environment) env_pointers.push_back(entry.data());
  env_pointers.push_back(nullptr);
  for (const std::string& word : arguments) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  pid_t child = 0;
  const int spawned =
      posix_spawn(&child, "/proc/self/exe", &actions, nullptr, argv.data(), env_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw UserError(std::string("cannot start the export: ") + std::strerror(spawned));
  out.close_write();
  err.close_write();

  std::string stdout_text, stderr_text, pending;
  bool out_open = true, err_open = true, cancelled = false;
  std::chrono::steady_clock::time_point asked_to_stop;
  while (out_open || err_open) {
    if (!cancelled && control.cancel_requested()) {
      cancelled = true;
      asked_to_stop = std::chrono::steady_clock::now();
      kill(child, SIGTERM);  // the copy ends as a closed window does, writing nothing
    }
    if (cancelled && std::chrono::steady_clock::now() - asked_to_stop > kKillAfter)
      kill(child, SIGKILL);
    pollfd fds[2] = {{out_open ? out.read : -1, POLLIN, 0}, {err_open ? err.read : -1, POLLIN, 0}};
    if (poll(fds, 2, 50) <= 0) continue;
    if (fds[0].revents) {
      out_open = drain(out.read, pending);
      take_lines(pending, stdout_text, control);
    }
    if (fds[1].revents) err_open = drain(err.read, stderr_text);
  }
  stdout_text += pending;
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (cancelled) throw Cancelled();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return last_line(stdout_text);
  std::string reason = last_line(stderr_text);
  if (reason.empty())
    reason = WIFSIGNALED(status)
                 ? "the export stopped (signal " + std::to_string(WTERMSIG(status)) + ")"
                 : "the export failed (exit code " + std::to_string(WEXITSTATUS(status)) + ")";
  throw UserError(reason);
}

}  // namespace attnlab::gui::platform
