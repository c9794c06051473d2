// A .zip archive of files stored as they are (method 0, no compression: .npy floats hardly
// compress), readable by any unzip, Python's zipfile and NumPy's np.load of an .npz-like folder.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// CRC-32 (IEEE 802.3, as zip and PNG use): crc32("123456789") = 0xCBF43926.
uint32_t crc32(const std::string& bytes);

// The archive's bytes, holding each (name, contents) in order. Names use '/' for folders. Throws
// UserError for an archive zip cannot describe without its 64-bit extension (over 4 GiB, or over
// 65535 files).
std::string zip_store(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace attnlab
