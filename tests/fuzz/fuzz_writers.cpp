// libFuzzer target: arbitrary bytes as the text every writer takes (the handout and maps' PDFs, the
// SVG, the one-file page's lesson block); see fuzz_writers_input.hpp for the rules.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_writers_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attnlab::fuzz::exercise_writers(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
