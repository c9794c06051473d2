// libFuzzer target: arbitrary text through the lesson parser and each scene's options through the
// app's option parser (see fuzz_lesson_input.hpp for the rules).
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_lesson_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attnlab::fuzz::exercise_lesson(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
