#include "core/limits/bounded_read.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "core/model/errors.hpp"

namespace attnlab {

namespace {

constexpr uint64_t kChunkBytes = uint64_t{1} << 20;

int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::string os_reason(int error) {
  return std::strerror(error != 0 ? error : EIO);
}

}  // namespace

std::string limit_text(uint64_t bytes) {
  const char* units[] = {"GiB", "MiB", "KiB"};
  const uint64_t sizes[] = {limits::kGiB, limits::kMiB, limits::kKiB};
  for (int i = 0; i < 3; ++i) {
    if (bytes >= sizes[i] && bytes % sizes[i] == 0)
      return std::to_string(bytes / sizes[i]) + " " + units[i];
    if (bytes >= sizes[i]) {
      char text[64];
      std::snprintf(text, sizeof text, "%.1f %s", double(bytes) / double(sizes[i]), units[i]);
      return text;
    }
  }
  return std::to_string(bytes) + " bytes";
}

std::string over_limit_line(const std::string& path, uint64_t size, const FileLimit& limit) {
  return path + ": is " + limit_text(size) + ", over the " + limit_text(limit.bytes) + " " +
         limit.what + " may hold; " + limit.fix;
}

BoundedFile::BoundedFile(const std::string& path, const FileLimit& limit)
    : path_(path), limit_(limit) {
  // O_NONBLOCK: opening a FIFO that has no writer returns at once instead of waiting for one.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0)
    throw UserError(path + ": cannot open the file: " + os_reason(errno) + "; check the path");
  struct stat about {};
  if (::fstat(fd_, &about) != 0) {
    const int error = errno;
    ::close(fd_);
    throw UserError(path + ": cannot read the file: " + os_reason(error));
  }
  if (S_ISDIR(about.st_mode)) {
    ::close(fd_);
    throw UserError(path + ": cannot read it: " + os_reason(EISDIR) + "; give " + limit.what +
                    "'s file, not a folder");
  }
  regular_ = S_ISREG(about.st_mode);
  if (regular_) known_size_ = uint64_t(about.st_size);
  // A regular file's size is known: one past the limit is refused before a byte is read
  // (files in /proc say 0 and are read like pipes, up to the limit).
  if (regular_ && uint64_t(about.st_size) > limit.bytes) {
    ::close(fd_);
    throw UserError(over_limit_line(path, uint64_t(about.st_size), limit));
  }
  deadline_ms_ = now_ms() + limits::kPipeReadMilliseconds;
}

BoundedFile::~BoundedFile() {
  if (fd_ >= 0) ::close(fd_);
}

void BoundedFile::refuse_over_limit() const {
  throw UserError(
      path_ + ": is over the " + limit_text(limit_.bytes) + " " + limit_.what + " may hold" +
      (regular_ ? "" : " (it is a pipe or a device, read up to the limit)") + "; " + limit_.fix);
}

// A pipe or device with nothing to read yet: waits, never past the deadline.
void BoundedFile::wait_for_data() const {
  const int64_t left = deadline_ms_ - now_ms();
  pollfd watch{fd_, POLLIN, 0};
  if (left <= 0 || ::poll(&watch, 1, int(left)) == 0)
    throw UserError(path_ + ": gave no end of file within " +
                    std::to_string(limits::kPipeReadMilliseconds / 1000) +
                    " s (it is a pipe or a device that keeps waiting); give a regular file");
}

std::string BoundedFile::read(uint64_t count) {
  // Never more than one byte past the limit, which is enough to know the file is over it.
  const uint64_t room = limit_.bytes + 1 - std::min(taken_, limit_.bytes + 1);
  const uint64_t want = std::min(count, room);
  std::string out;
  // A regular file's bytes are reserved at once (one allocation, no doubling past its size), with
  // the one more byte that reads its end.
  if (regular_ && known_size_ > taken_)
    out.reserve(size_t(std::min(want, known_size_ - taken_ + 1)));
  while (out.size() < want) {
    const size_t have = out.size();
    size_t chunk = size_t(std::min(want - have, kChunkBytes));
    // A regular file: the bytes it has left and one more (its end, or a byte it grew by), not a
    // whole chunk zero-filled for a small file (the one-file page's lesson, a preset).
    if (regular_ && known_size_ >= taken_ + have)
      chunk = size_t(std::min<uint64_t>(chunk, known_size_ - taken_ - have + 1));
    out.resize(have + chunk);
    const ssize_t got = ::read(fd_, out.data() + have, chunk);
    out.resize(have + size_t(std::max<ssize_t>(got, 0)));
    if (got == 0) break;  // the end of the file
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        throw UserError(path_ + ": cannot read the file: " + os_reason(errno));
      wait_for_data();
    } else if (!regular_ && now_ms() > deadline_ms_) {
      wait_for_data();  // refuses: a trickle past the deadline waits no longer
    }
  }
  taken_ += out.size();
  if (taken_ > limit_.bytes) refuse_over_limit();
  return out;
}

std::string BoundedFile::read_start(uint64_t count) {
  std::string bytes = read(count);
  if (taken_ == 0)
    throw UserError(path_ + ": is empty (0 bytes), not " + limit_.what +
                    "; check that it was saved completely");
  return bytes;
}

std::string read_bounded(const std::string& path, const FileLimit& limit) {
  return BoundedFile(path, limit).read_start(limit.bytes + 1);
}

}  // namespace attnlab
