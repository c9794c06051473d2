#include "core/tensor/zip_read.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <set>

#include "core/limits/bounded_read.hpp"
#include "core/limits/limits.hpp"
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
// Deflate turns one byte into at most 1032: a larger declared size is a lie.
constexpr uint64_t kMaxDeflateRatio = 1032;
constexpr const char* kSaveAgain = "save it again with np.savez";

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
  if (d.entries > limits::kZipMaxEntries)
    fail(label, "declares " + std::to_string(d.entries) + " files, more than the " +
                    std::to_string(limits::kZipMaxEntries) +
                    " an archive may hold; save only the stages, with np.savez");
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
  s.avail_out = uInt(size);  // at most limits::kZipMaxEntryBytes: inflate never writes past it
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

// One member as the central directory declares it, checked against the archive's bytes.
struct Member {
  std::string name, where;  // where: "LABEL entry NAME", for messages
  uint64_t method = 0, packed = 0, size = 0;
  uint32_t crc = 0;
  uint64_t local = 0, data = 0;  // its local header, and its data (packed bytes) after it
  uint64_t end() const { return data + packed; }
};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_zip(const std::string& contents) {
  return contents.rfind("PK\x03\x04", 0) == 0 || contents.rfind(std::string("PK\x05\x06"), 0) == 0;
}

[[noreturn]] void refuse_nested(const std::string& where) {
  fail(where,
       "is itself a zip archive: archives inside an archive are not opened; save the arrays "
       "in one np.savez");
}

// The central directory's entry at `at`, every field checked; nothing inflated.
Member read_member(const Bytes& b, uint64_t at, uint64_t n, const std::string& label,
                   uint64_t& next) {
  b.require(at, kCentralSize);
  if (b.get(at, 4) != kCentralHeader)
    fail(label, "has a corrupt central directory (entry " + std::to_string(n) + "); save it again");
  Member m;
  const uint64_t flags = b.get(at + 8, 2);
  m.method = b.get(at + 10, 2);
  m.crc = uint32_t(b.get(at + 16, 4));
  m.packed = b.get(at + 20, 4);
  m.size = b.get(at + 24, 4);
  const uint64_t name_length = b.get(at + 28, 2), extra_length = b.get(at + 30, 2),
                 comment_length = b.get(at + 32, 2);
  m.local = b.get(at + 42, 4);
  m.name = b.slice(at + kCentralSize, name_length);
  // Names go into one-line messages: control characters (a newline) are refused, not printed.
  if (std::any_of(m.name.begin(), m.name.end(),
                  [](char ch) { return uint8_t(ch) < 0x20 || ch == 0x7f; }))
    fail(label,
         "holds an entry whose name has control characters; the archive is corrupt, save "
         "it again with np.savez");
  m.where = label + " entry " + m.name;
  std::vector<uint64_t*> unset;
  for (uint64_t* value : {&m.size, &m.packed, &m.local})
    if (*value == kUnset32) unset.push_back(value);
  apply_zip64_extra(b, at + kCentralSize + name_length, extra_length, unset, m.where);
  if (flags & 1) fail(m.where, "is encrypted; save the answer without a password");
  if (m.method != kStored && m.method != kDeflated)
    fail(m.where, "uses compression method " + std::to_string(m.method) +
                      "; save with np.savez or np.savez_compressed");
  for (const char* archive : {".zip", ".npz"})
    if (ends_with(m.name, archive)) refuse_nested(m.where);
  if (m.size > limits::kZipMaxEntryBytes)
    fail(m.where, "declares " + std::to_string(m.size) + " bytes, over the " +
                      limit_text(limits::kZipMaxEntryBytes) +
                      " one file of an archive may hold; save smaller stages");
  // A "zip bomb" declaring more than deflate can produce is refused before anything is allocated.
  if (m.method == kDeflated && m.size > m.packed * kMaxDeflateRatio + 64)
    fail(m.where, "declares " + std::to_string(m.size) + " bytes from " + std::to_string(m.packed) +
                      " compressed, more than deflate can produce; the archive is corrupt");
  if (m.method == kStored && m.packed != m.size)
    fail(m.where, "is stored with a size that disagrees with itself; save it again");
  b.require(m.local, kLocalSize);
  if (b.get(m.local, 4) != kLocalHeader)
    fail(m.where, "has no local header where the directory says; save it again");
  m.data = m.local + kLocalSize + b.get(m.local + 26, 2) + b.get(m.local + 28, 2);
  b.require(m.data, m.packed);
  next = at + kCentralSize + name_length + extra_length + comment_length;
  return m;
}

// The archive as a whole, before anything is inflated: each name once, no two members sharing
// bytes (one deflated member listed many times would inflate many times), the total and the
// ratio within the limits.
void check_whole(const std::vector<Member>& members, uint64_t archive_bytes,
                 const std::string& label) {
  std::set<std::string> names;
  uint64_t total = 0;
  for (const Member& m : members) {
    if (!names.insert(m.name).second)
      fail(label, "holds " + m.name + " twice; save each stage once, with np.savez");
    total += m.size;  // each at most kZipMaxEntryBytes: no overflow for kZipMaxEntries of them
  }
  std::vector<const Member*> by_place;
  for (const Member& m : members) by_place.push_back(&m);
  std::stable_sort(by_place.begin(), by_place.end(),
                   [](const Member* x, const Member* y) { return x->local < y->local; });
  for (size_t i = 1; i < by_place.size(); ++i) {
    const Member &before = *by_place[i - 1], &after = *by_place[i];
    if (after.local < before.end())
      fail(label, "has entries " + before.name + " and " + after.name +
                      " that share bytes (from byte " + std::to_string(after.local) +
                      "): the files of an archive never overlap, so it is corrupt or made to "
                      "exhaust memory; " +
                      kSaveAgain);
  }
  if (total > limits::kZipMaxTotalBytes)
    fail(label, "declares " + std::to_string(total) + " bytes in all, over the " +
                    limit_text(limits::kZipMaxTotalBytes) +
                    " an archive may inflate to; save fewer or smaller stages");
  if (total > limits::kZipRatioFloorBytes && total / limits::kZipMaxRatio > archive_bytes)
    fail(label, "inflates " + std::to_string(archive_bytes) + " bytes to " + std::to_string(total) +
                    ", more than " + std::to_string(limits::kZipMaxRatio) +
                    " times its size, which real arrays never do; " + kSaveAgain);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> zip_entries(const std::string& bytes,
                                                             const std::string& label) {
  const Bytes b(bytes, label);
  const Directory d = read_directory(b, find_end_record(b, label), label);
  std::vector<Member> members;
  uint64_t at = d.offset;
  for (uint64_t n = 0; n < d.entries; ++n) members.push_back(read_member(b, at, n, label, at));
  check_whole(members, bytes.size(), label);
  std::vector<std::pair<std::string, std::string>> files;
  for (const Member& m : members) {
    std::string contents = b.slice(m.data, m.packed);
    if (m.method == kDeflated) contents = inflate_entry(contents, m.size, m.where);
    if (crc32(contents) != m.crc) fail(m.where, "fails its CRC-32 check: the archive is corrupt");
    if (is_zip(contents)) refuse_nested(m.where);
    files.emplace_back(m.name, std::move(contents));
  }
  return files;
}

}  // namespace attnlab
