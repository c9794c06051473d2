// How the app reads each file of a model, exercise or answer folder, known from the file's name
// alone: whole, with one of the limits in core/limits/limits.hpp; by the ranges its header
// declares (a .safetensors, as core/checkpoints/safetensors.cpp reads it); or not at all. The
// browser page (web/index.html, through app/gui/platform/web_file_limits.cpp) asks this of every
// file a person drops or picks and checks its size before reading a byte of it; the desktop's
// readers name the same limits (tests/test_page_file_limits.cpp holds each reader to this table).
#pragma once

#include <cstdint>
#include <string>

#include "core/limits/limits.hpp"
#include "core/limits/machine_memory.hpp"

namespace attnlab {

struct FolderFile {
  enum class Read { kNot, kWhole, kByRanges };
  Read read = Read::kNot;
  FileLimit limit{0, "", ""};  // a file read whole: its limit
};

// The file named `name` (its name alone, no folder): config.json, model.json, exercise.json,
// tokenizer.json, ..., NAME.npy, NAME.npz, NAME.safetensors.
FolderFile folder_file(const std::string& name);

// "" when `size` bytes fit the limit of the file at `path` (a folder's file, named by its last
// part), or it is not read whole; else the one line the desktop's bounded read gives for it:
//   "tiny/config.json: is 2 MiB, over the 1 MiB a model's settings file may hold; give ..."
std::string folder_file_refusal(const std::string& path, uint64_t size);

// "" when `total` bytes of files, read into memory together, fit in `memory` (the page's largest
// heap: machine_memory_bytes()) or the memory is unknown (0); else one line with both numbers.
std::string files_above_memory(const std::string& label, uint64_t total,
                               int64_t memory = machine_memory_bytes());

}  // namespace attnlab
