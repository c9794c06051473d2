// Hugging Face .safetensors files, the format a downloaded model folder keeps its weights in: an
// 8-byte little-endian header length, a JSON header naming each tensor's dtype, shape and byte
// range, then the raw bytes. Only the header is read on open; a tensor's bytes are read when it
// is loaded, so a layer of a 500 MB checkpoint costs only that layer. F32, F16 and BF16 (and F64)
// become float32; anything else, or a file that lies about its sizes, is refused in one line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
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

// What a file's header says: where the data starts, each tensor, the metadata.
struct SafetensorsHeader {
  uint64_t data_start = 0;  // 8 + the header's length
  std::map<std::string, SafetensorsEntry> entries;
  std::map<std::string, std::string> metadata;
};

// The header's length from the file's first 8 bytes, checked against a file of `file_size` bytes.
// Throws UserError naming `path` when the file is shorter than 8 bytes (or `prefix` is), or the
// header is larger than 100 MB or than the file.
uint64_t safetensors_header_length(const std::string& prefix, uint64_t file_size,
                                   const std::string& path);

// The header of a file of `file_size` bytes whose first bytes are `prefix`: the 8-byte length and
// the JSON header at least (the data may follow, or not). Every check SafetensorsFile makes on
// open, on bytes in memory (the constructor calls it; so do the fuzzer and the tests). Throws
// UserError naming `path`.
SafetensorsHeader parse_safetensors_header(const std::string& prefix, uint64_t file_size,
                                           const std::string& path);

// Tensor `name` of entry `e` as contiguous float32 from its `bytes` (e.end - e.begin of them, as
// in the file). Throws UserError naming `path` and the tensor for a dtype that is not a float, a
// wrong number of bytes, or a NaN/Inf value.
Tensor decode_safetensors_tensor(const std::string& path, const std::string& name,
                                 const SafetensorsEntry& e, std::string_view bytes);

class SafetensorsFile {
 public:
  // Reads and checks the header of `path`. Throws UserError naming the path and what is wrong:
  // missing, unreadable or not a regular file (a named pipe would block), shorter than its header,
  // a header that is not JSON or is larger than 100 MB, an entry whose byte range is out of the
  // file, overlaps another or does not hold its shape's bytes.
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

  // Reads the whole data section at once, when every tensor in it is F32 on a 4-byte boundary
  // (as saved from float32 weights): load() then returns views of it, the weights used in place
  // with no copy, and no read per tensor. Otherwise does nothing (each load() reads its range).
  // For a caller that loads every tensor anyway.
  void read_all() const;

 private:
  std::string path_;
  uint64_t data_start_ = 0;  // 8 + the header's length
  std::map<std::string, SafetensorsEntry> entries_;
  std::map<std::string, std::string> metadata_;
  mutable Tensor section_;  // read_all(): the data section as float32 (its first max-end bytes)
};

// IEEE half and bfloat16 bits to float (exposed for tests).
float half_to_float(uint16_t bits);
float bfloat16_to_float(uint16_t bits);

}  // namespace attnlab
