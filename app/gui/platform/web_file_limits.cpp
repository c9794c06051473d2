#include "app/gui/platform/web_file_limits.hpp"

#include <limits>
#include <string>

#include "core/limits/folder_files.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE  // built natively only for the unit test, which calls these directly
#endif

extern "C" EMSCRIPTEN_KEEPALIVE double attnlab_file_limit(const char* file_name) {
  const attnlab::FolderFile file = attnlab::folder_file(file_name ? file_name : "");
  if (file.read == attnlab::FolderFile::Read::kByRanges)
    return std::numeric_limits<double>::infinity();
  return file.read == attnlab::FolderFile::Read::kWhole ? double(file.limit.bytes) : 0;
}

extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_file_refusal(const char* path, double size) {
  static std::string line;
  line = attnlab::folder_file_refusal(path ? path : "", uint64_t(size));
  return line.c_str();
}

extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_files_refusal(const char* label, double total) {
  static std::string line;
  line = attnlab::files_above_memory(label ? label : "", uint64_t(total));
  return line.c_str();
}
