// Hugging Face .safetensors files, the format a downloaded model folder keeps its weights in: an
// 8-byte little-endian header length, a JSON header naming each tensor's dtype, shape and byte
// range, then the raw bytes. Only the header is read on open; a tensor's bytes are read when it
// is loaded, so a layer of a 500 MB checkpoint costs only that layer. F32, F16 and BF16 (and F64)
// become float32; anything else, or a file that lies about its sizes, is refused in one line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// One tensor as the header describes it. `begin`/`end`: its bytes, relative to the data section
// (after the header).
struct SafetensorsEntry {
  std::string dtype;  // "F32", "F16", "BF16", "F64", "I64", ...
  Shape shape;
  uint64_t begin = 0, end = 0;
};

class SafetensorsFile {
 public:
  // Reads and checks the header of `path`. Throws UserError naming the path and what is wrong:
  // missing or unreadable, shorter than its header, a header that is not JSON or is larger than
  // 100 MB, an entry whose byte range is out of the file, overlaps another or does not hold its
  // shape's bytes.
  explicit SafetensorsFile(std::string path);

  const std::string& path() const { return path_; }
  // The tensors' names, sorted.
  std::vector<std::string> names() const;
  bool has(const std::string& name) const { return entries_.count(name) > 0; }
  const SafetensorsEntry& entry(const std::string& name) const;
  // The header's "__metadata__" (string to string), e.g. {"format": "pt"}.
  const std::map<std::string, std::string>& metadata() const { return metadata_; }

  // The tensor as contiguous float32 (storage named `name`). Throws UserError for an unknown
  // name, a dtype that is not a float, a file truncated since it was opened, or a NaN/Inf value.
  Tensor load(const std::string& name) const;

 private:
  std::string path_;
  uint64_t data_start_ = 0;  // 8 + the header's length
  std::map<std::string, SafetensorsEntry> entries_;
  std::map<std::string, std::string> metadata_;
};

// IEEE half and bfloat16 bits to float (exposed for tests).
float half_to_float(uint16_t bits);
float bfloat16_to_float(uint16_t bits);

}  // namespace attnlab
