// libFuzzer target: arbitrary bytes through the .npz reader (see fuzz_inputs.hpp for the rules).
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attnlab::fuzz::exercise_npz(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
