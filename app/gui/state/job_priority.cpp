#include "app/gui/state/job_priority.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace attnlab::gui {

void lower_this_thread_priority() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  // On Linux a thread's nice value is its own (PRIO_PROCESS with the thread's id). A failure
  // leaves the priority as it was: the job still runs, only less politely.
  (void)setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), kJobNice);
#endif
}

}  // namespace attnlab::gui
