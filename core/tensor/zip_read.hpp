// Reading a .zip archive's files: what np.savez (stored, method 0) and np.savez_compressed
// (deflate, method 8) write, and what zip_store writes. Every size and offset is checked against
// the bytes before it is used, so a hostile or truncated archive is refused in one line.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// At most this many bytes come out of one entry (np.load's arrays here are small; a "zip bomb"
// declaring more is refused before anything is inflated).
constexpr uint64_t kMaxZipEntryBytes = uint64_t{1} << 30;

// The archive's files, (name, contents), in the central directory's order. `label` names the
// archive in messages. Throws UserError (one line: label, what is wrong, how to fix it) for bytes
// that are not a zip archive, a truncated or corrupt one, an encrypted or multi-disk one, an
// entry of another compression method, or a CRC-32 mismatch.
std::vector<std::pair<std::string, std::string>> zip_entries(const std::string& bytes,
                                                             const std::string& label);

}  // namespace attnlab
