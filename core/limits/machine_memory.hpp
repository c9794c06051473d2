// The machine's memory, read from the system, and the one rule that uses it: the memory cap
// (--memory-cap-mb; from the command line, a lesson's scene, a preset, settings.json or
// exercise.json, all checked by validate() in core/model/config.cpp) is never above it.
#pragma once

#include <cstdint>
#include <string>

namespace attnlab {

// The memory this program may use: the machine's physical memory (sysconf; in the browser, the
// page's largest heap), or the container's cgroup limit (memory.max) when that is lower. Read
// once. 0 when the system does not say.
int64_t machine_memory_bytes();

// "" when a memory cap of `cap_bytes` fits in `machine_bytes` (or the machine's memory is
// unknown, 0); else one line with both numbers and how to fix it.
std::string cap_above_machine(int64_t cap_bytes, int64_t machine_bytes = machine_memory_bytes());

// The memory cap when none is asked for: 1 GiB, or three quarters of a smaller machine's memory
// (a container of 512 MiB would otherwise refuse every config by the rule above).
constexpr int64_t kDefaultMemoryCapBytes = int64_t{1} << 30;
int64_t default_memory_cap_bytes(int64_t machine_bytes = machine_memory_bytes());

}  // namespace attnlab
