#include "core/limits/machine_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#endif

namespace attnlab {

namespace {

constexpr FileLimit kSystemFile{64 * limits::kKiB, "a system file", "(the system's own)"};

// A cgroup limit file's number ("max" or unreadable: no limit, 0).
int64_t cgroup_limit(const std::string& path) {
  try {
    const std::string text = read_bounded(path, kSystemFile);
    long long value = 0;
    if (std::sscanf(text.c_str(), "%lld", &value) == 1 && value > 0) return value;
  } catch (const UserError&) {
  }
  return 0;
}

// The cgroup (v2) this process is in, from /proc/self/cgroup's "0::/PATH" line; "" if none.
std::string own_cgroup() {
  try {
    std::istringstream lines(read_bounded("/proc/self/cgroup", kSystemFile));
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("0::", 0) == 0) return line.substr(3);
  } catch (const UserError&) {
  }
  return "";
}

int64_t physical_memory() {
#ifdef __EMSCRIPTEN__
  return int64_t(emscripten_get_heap_max());
#else
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? int64_t(pages) * int64_t(page) : 0;
#endif
}

int64_t read_machine_memory() {
  int64_t memory = physical_memory();
  std::vector<std::string> limit_files{"/sys/fs/cgroup/memory.max",
                                       "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
  if (const std::string own = own_cgroup(); !own.empty() && own != "/")
    limit_files.push_back("/sys/fs/cgroup" + own + "/memory.max");
  for (const std::string& file : limit_files)
    if (const int64_t limit = cgroup_limit(file); limit > 0)
      memory = memory > 0 ? std::min(memory, limit) : limit;
  return memory;
}

std::string mib(int64_t bytes) {
  return std::to_string(bytes / int64_t(limits::kMiB)) + " MiB";
}

}  // namespace

int64_t machine_memory_bytes() {
  static const int64_t memory = read_machine_memory();
  return memory;
}

std::string cap_above_machine(int64_t cap_bytes, int64_t machine_bytes) {
  if (machine_bytes <= 0 || cap_bytes <= machine_bytes) return "";
  return "the memory cap of " + mib(cap_bytes) + " is above this machine's memory, " +
         mib(machine_bytes) + ": lower the memory cap{{(memory_cap_bytes)}} to at most " +
         mib(machine_bytes);
}

int64_t default_memory_cap_bytes(int64_t machine_bytes) {
  if (machine_bytes <= 0) return kDefaultMemoryCapBytes;  // unknown: the usual default
  return std::min(kDefaultMemoryCapBytes, machine_bytes / 4 * 3);
}

}  // namespace attnlab
