#include "core/tensor/zip_read.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>

#include "core/model/errors.hpp"
#include "core/tensor/zip_store.hpp"

namespace attnlab {

namespace {

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEnd = 0x06054b50;
constexpr uint32_t kZip64End = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr size_t kEndSize = 22, kCentralSize = 46, kLocalSize = 30, kLocatorSize = 20;
constexpr size_t kZip64EndSize = 56;
constexpr uint32_t kUnset32 = 0xffffffffu;  // "see the zip64 extra field"
constexpr uint16_t kZip64Extra = 0x0001;
constexpr uint16_t kStored = 0, kDeflated = 8;
constexpr size_t kMaxEntries = 65535;
constexpr uint64_t kMaxDeflateRatio = 1032;

[[noreturn]] void fail(const std::string& label, const std::string& why) {
  throw UserError(label + ": " + why);
}

// Reads little-endian integers at checked offsets.
class Bytes {
 public:
  Bytes(const std::string& bytes, const std::string& label) : bytes_(bytes), label_(label) {}
  uint64_t get(uint64_t at, int width) const {
    require(at, width);
    uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i) value = value << 8 | uint8_t(bytes_[at + i]);
    return value;
  }
  void require(uint64_t at, uint64_t length) const {
    if (at > bytes_.size() || length > bytes_.size() - at)
      fail(label_, "the archive is truncated or corrupt (a record at byte " + std::to_string(at) +
                       " runs past its end at " + std::to_string(bytes_.size()) +
                       "); save it again with np.savez");
  }
  std::string slice(uint64_t at, uint64_t length) const {
    require(at, length);
    return bytes_.substr(at, length);
  }
  size_t size() const { return bytes_.size(); }

 private:
  const std::string& bytes_;
  const std::string& label_;
};

// The end of central directory record: searched backwards over the comment's at most 65535 bytes.
uint64_t find_end_record(const Bytes& b, const std::string& label) {
  if (b.size() < kEndSize)
    fail(label, "is not a zip archive (" + std::to_string(b.size()) +
                    " bytes, too short); save the answer with np.savez");
  const uint64_t lowest = b.size() >= kEndSize + 0xffff ? b.size() - kEndSize - 0xffff : 0;
  for (uint64_t at = b.size() - kEndSize + 1; at-- > lowest;)
    if (b.get(at, 4) == kEnd) return at;
  fail(label,
       "is not a zip archive (no end of central directory record); save the answer "
       "with np.savez or np.savez_compressed");
}

struct Directory {
  uint64_t entries = 0, offset = 0, size = 0;
};

Directory read_directory(const Bytes& b, uint64_t end, const std::string& label) {
  if (b.get(end + 4, 2) != 0 || b.get(end + 6, 2) != 0)
    fail(label, "is a multi-disk (split) zip archive, which is not supported; save it as one file");
  Directory d{b.get(end + 10, 2), b.get(end + 16, 4), b.get(end + 12, 4)};
  const bool zip64 = d.entries == 0xffff || d.offset == kUnset32 || d.size == kUnset32;
  if (zip64 && end >= kLocatorSize && b.get(end - kLocatorSize, 4) == kZip64Locator) {
    const uint64_t at = b.get(end - kLocatorSize + 8, 8);
    if (b.get(at, 4) != kZip64End) fail(label, "has a corrupt zip64 directory; save it again");
    b.require(at, kZip64EndSize);
    d = {b.get(at + 32, 8), b.get(at + 48, 8), b.get(at + 40, 8)};
  }
  if (d.entries > kMaxEntries)
    fail(label, "declares " + std::to_string(d.entries) + " files, more than the " +
                    std::to_string(kMaxEntries) + " an answer can hold");
  b.require(d.offset, d.size);
  return d;
}

// The zip64 extra field's 64-bit values replace, in order, the 32-bit fields set to 0xffffffff.
void apply_zip64_extra(const Bytes& b, uint64_t at, uint64_t length, std::vector<uint64_t*> unset,
                       const std::string& label) {
  const uint64_t stop = at + length;
  b.require(at, length);
  while (at + 4 <= stop) {
    const uint64_t id = b.get(at, 2), size = b.get(at + 2, 2);
    if (at + 4 + size > stop) fail(label, "has a corrupt extra field; save it again");
    if (id == kZip64Extra) {
      uint64_t field = at + 4;
      for (uint64_t* value : unset) {
        if (field + 8 > at + 4 + size) fail(label, "has a short zip64 field; save it again");
        *value = b.get(field, 8);
        field += 8;
      }
      return;
    }
    at += 4 + size;
  }
  if (!unset.empty()) fail(label, "lacks the zip64 sizes it declares; save it again");
}

std::string inflate_entry(const std::string& compressed, uint64_t size, const std::string& where) {
  if (compressed.size() > std::numeric_limits<uInt>::max())
    fail(where, "is over 4 GiB compressed; save a smaller answer");
  std::string out(size, '\0');
  z_stream s{};
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK) fail(where, "zlib could not start inflating");
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  s.avail_in = uInt(compressed.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = uInt(size);  // at most kMaxZipEntryBytes: inflate can never write past it
  const int status = inflate(&s, Z_FINISH);
  const uint64_t produced = s.total_out;
  inflateEnd(&s);
  if (status == Z_DATA_ERROR) fail(where, "its compressed data is corrupt; save it again");
  if (status != Z_STREAM_END)
    fail(where, "its compressed data is truncated or inflates past the " + std::to_string(size) +
                    " bytes declared; save it again");
  if (produced != size)
    fail(where, "inflates to " + std::to_string(produced) + " bytes, not the " +
                    std::to_string(size) + " declared; save it again");
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> zip_entries(const std::string& bytes,
                                                             const std::string& label) {
  const Bytes b(bytes, label);
  const Directory d = read_directory(b, find_end_record(b, label), label);
  std::vector<std::pair<std::string, std::string>> files;
  uint64_t at = d.offset;
  for (uint64_t n = 0; n < d.entries; ++n) {
    b.require(at, kCentralSize);
    if (b.get(at, 4) != kCentralHeader)
      fail(label,
           "has a corrupt central directory (entry " + std::to_string(n) + "); save it again");
    const uint64_t flags = b.get(at + 8, 2), method = b.get(at + 10, 2);
    const uint32_t crc = uint32_t(b.get(at + 16, 4));
    uint64_t packed = b.get(at + 20, 4), size = b.get(at + 24, 4);
    const uint64_t name_length = b.get(at + 28, 2), extra_length = b.get(at + 30, 2),
                   comment_length = b.get(at + 32, 2);
    uint64_t local = b.get(at + 42, 4);
    const std::string name = b.slice(at + kCentralSize, name_length);
    // Names go into one-line messages: control characters (a newline) are refused, not printed.
    if (std::any_of(name.begin(), name.end(),
                    [](char ch) { return uint8_t(ch) < 0x20 || ch == 0x7f; }))
      fail(label,
           "holds an entry whose name has control characters; the archive is corrupt, save "
           "it again with np.savez");
    const std::string where = label + " entry " + name;
    std::vector<uint64_t*> unset;
    for (uint64_t* value : {&size, &packed, &local})
      if (*value == kUnset32) unset.push_back(value);
    apply_zip64_extra(b, at + kCentralSize + name_length, extra_length, unset, where);
    if (flags & 1) fail(where, "is encrypted; save the answer without a password");
    if (method != kStored && method != kDeflated)
      fail(where, "uses compression method " + std::to_string(method) +
                      "; save with np.savez or np.savez_compressed");
    if (size > kMaxZipEntryBytes)
      fail(where, "declares " + std::to_string(size) + " bytes, over the " +
                      std::to_string(kMaxZipEntryBytes) + "-byte limit");
    // Deflate turns a byte into at most 1032: a larger declared size is a lie (a "zip bomb"),
    // refused before anything is allocated.
    if (method == kDeflated && size > packed * kMaxDeflateRatio + 64)
      fail(where, "declares " + std::to_string(size) + " bytes from " + std::to_string(packed) +
                      " compressed, more than deflate can produce; the archive is corrupt");
    if (method == kStored && packed != size)
      fail(where, "is stored with a size that disagrees with itself; save it again");
    b.require(local, kLocalSize);
    if (b.get(local, 4) != kLocalHeader)
      fail(where, "has no local header where the directory says; save it again");
    const uint64_t data = local + kLocalSize + b.get(local + 26, 2) + b.get(local + 28, 2);
    std::string contents = b.slice(data, packed);
    if (method == kDeflated) contents = inflate_entry(contents, size, where);
    if (crc32(contents) != crc) fail(where, "fails its CRC-32 check: the archive is corrupt");
    files.emplace_back(name, std::move(contents));
    at += kCentralSize + name_length + extra_length + comment_length;
  }
  return files;
}

}  // namespace attnlab
