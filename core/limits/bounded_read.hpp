// Reading a file from outside with a size limit that holds for every kind of file: a regular
// file, a pipe or FIFO (with or without a writer), a device such as /dev/zero. Nothing is read
// past the limit, no open or read waits without bound (core/limits/limits.hpp's
// kPipeReadMilliseconds), and every refusal is one line (UserError) naming the file, the limit
// and how to fix it.
#pragma once

#include <cstdint>
#include <string>

#include "core/limits/limits.hpp"

namespace attnlab {

// The whole file at `path`. Refuses a missing or unreadable file, a folder, an empty file ("is
// empty"), a file past `limit` (before reading when its size is known, else after limit + 1
// bytes) and a pipe or device that does not finish in time.
std::string read_bounded(const std::string& path, const FileLimit& limit);

// A file read piece by piece, for formats whose header says how much follows (.npy): the
// limit holds over all the pieces together.
class BoundedFile {
 public:
  BoundedFile(const std::string& path, const FileLimit& limit);
  ~BoundedFile();
  BoundedFile(const BoundedFile&) = delete;
  BoundedFile& operator=(const BoundedFile&) = delete;

  // Up to `count` more bytes: fewer only at the end of the file. Refuses past the limit.
  std::string read(uint64_t count);
  // The first bytes, as read() does; refuses an empty file ("is empty").
  std::string read_start(uint64_t count);
  // Bytes read so far.
  uint64_t taken() const { return taken_; }

 private:
  [[noreturn]] void refuse_over_limit() const;
  void wait_for_data() const;

  std::string path_;
  FileLimit limit_;
  int fd_ = -1;
  bool regular_ = false;
  uint64_t known_size_ = 0;  // a regular file's size when it was opened
  int64_t deadline_ms_ = 0;  // for pipes and devices: when the read must have finished
  uint64_t taken_ = 0;
};

// "4 MiB", "1 GiB", "700 bytes": a limit as messages write it.
std::string limit_text(uint64_t bytes);

// The refusal of a file of `size` bytes past its limit, before a byte of it is read:
//   "PATH: is 5 MiB, over the 4 MiB a lesson may hold; split it into several lessons"
std::string over_limit_line(const std::string& path, uint64_t size, const FileLimit& limit);

}  // namespace attnlab
