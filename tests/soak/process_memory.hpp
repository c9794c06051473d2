// What the soaks measure about their own process: resident memory now and at its peak, and
// whether a sanitizer is making RSS meaningless.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace attnlab::soak {

// AddressSanitizer keeps freed memory in quarantine and ThreadSanitizer keeps shadow memory, so
// RSS grows without a leak there; LeakSanitizer checks for leaks instead of the RSS limit.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kUnderSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kUnderSanitizer = true;
#else
constexpr bool kUnderSanitizer = false;
#endif
#else
constexpr bool kUnderSanitizer = false;
#endif

constexpr int64_t kMiB = int64_t{1} << 20;

struct Memory {
  int64_t peak_bytes = 0;     // getrusage ru_maxrss: the most this process ever held
  int64_t current_bytes = 0;  // /proc/self/status VmRSS: what it holds now
};

inline Memory measure_memory() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  Memory memory;
  memory.peak_bytes = int64_t{usage.ru_maxrss} * 1024;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) memory.current_bytes = std::stoll(line.substr(6)) * 1024;
  return memory;
}

inline double mib(int64_t bytes) {
  return double(bytes) / double(kMiB);
}

}  // namespace attnlab::soak
