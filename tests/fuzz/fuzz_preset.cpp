// libFuzzer target: arbitrary text through the preset reader, validate() and run() (see
// fuzz_inputs.hpp for the rules).
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attnlab::fuzz::exercise_preset(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
