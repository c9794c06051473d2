// Reading a .zip archive's files: what np.savez (stored, method 0) and np.savez_compressed
// (deflate, method 8) write, and what zip_store writes. Every size and offset is checked against
// the bytes before it is used, so a hostile or truncated archive is refused in one line. The
// whole archive is checked before anything is inflated: its entry count, its total inflated size
// and ratio (core/limits/limits.hpp), its names (no duplicates), and members whose data share or
// overlap bytes (the same deflated member listed 64 times) are refused.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// The archive's files, (name, contents), in the central directory's order. `label` names the
// archive in messages. Throws UserError (one line: label, what is wrong, how to fix it) for bytes
// that are not a zip archive, a truncated or corrupt one, an encrypted or multi-disk one, an
// entry of another compression method, a CRC-32 mismatch, an archive past a limit, two entries of
// one name, members whose bytes overlap, a member that inflates to another size than it declares
// (inflating stops at the declared size) and a member that is itself a zip archive (archives are
// not opened inside archives).
std::vector<std::pair<std::string, std::string>> zip_entries(const std::string& bytes,
                                                             const std::string& label);

}  // namespace attnlab
