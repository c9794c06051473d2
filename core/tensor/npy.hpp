// NumPy .npy files in and out: the format users bring weights in and the format traces export to.
// Reading accepts what np.save writes for float arrays; anything else is refused with a message
// that says how to re-save the array.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// What parse_npy does with NaN and Inf: refuse them (inputs), or keep them (a student's answer,
// whose -inf in `masked` is right and whose NaN the grader names with its index).
enum class NonFinite { Refuse, Keep };

// Parses .npy bytes (format versions 1.0, 2.0, 3.0). `label` names the source in messages,
// e.g. "--wq weights.npy". Returns a contiguous float32 tensor whose storage name is
// `storage_name`. Throws UserError (one line: label, what is wrong, how to fix it) for anything it
// cannot load: another dtype, Fortran order, a corrupt or truncated file, NaN/Inf values, more than
// 2 GiB.
Tensor parse_npy(const std::string& bytes, const std::string& label,
                 const std::string& storage_name, NonFinite non_finite = NonFinite::Refuse);

// The bytes of the .npy file at `path`, read only as far as its header declares: the magic and
// the header first (a file that is not .npy, /dev/zero included, is refused after 12 bytes), then
// the data and one byte more (to refuse a file longer than it says). Refuses a missing, unreadable
// or empty file and one past the limits (core/limits/limits.hpp) in one line.
std::string read_npy_file(const std::string& path);

// Reads a file and parses it (message names the path; a missing/unreadable file says so).
Tensor load_npy(const std::string& path, const std::string& storage_name);

// Serialises values in logical (row-major) order as a C-order '<f4' .npy (version 1.0 header
// padded to a multiple of 64 bytes incl. the newline, as numpy does).
std::string npy_bytes(const Tensor& tensor);

// Writes atomically: to "<path>.tmp-<pid>", fflush+fsync, rename over path; on any failure
// removes the temp file and throws UserError naming the path and the OS reason (strerror).
// Never leaves a partial file under the final name.
void save_npy(const std::string& path, const Tensor& tensor);

// The same for integers: a C-order '<i8' .npy of `values` laid out as `shape` (row-major), e.g. a
// batch of token ids. Written atomically like save_npy.
std::string npy_bytes_int64(const std::vector<int64_t>& values, const Shape& shape);
void save_npy_int64(const std::string& path, const std::vector<int64_t>& values,
                    const Shape& shape);

// Also used by other writers: same atomic temp+fsync+rename for arbitrary text/bytes.
void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace attnlab
