// libFuzzer target: arbitrary bytes through the .safetensors header reader
// (parse_safetensors_header, the file reader, decoding); see fuzz_inputs.hpp for the rules.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attnlab::fuzz::exercise_safetensors(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
