// The .npz answer reader: real np.savez and np.savez_compressed files (tests/data/npz, copies of
// tests/fuzz/corpus/make_npz_corpus.py's stored.npz and deflated.npz), archives built here with
// zip_store and with zlib's raw deflate, and truncated or corrupt ones.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zlib.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "core/exercise/answer.hpp"
#include "core/limits/limits.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/tensor/zip_read.hpp"
#include "core/tensor/zip_store.hpp"

namespace attnlab {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ATTNLAB_TEST_DATA) + "/npz/" + name, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The first entry of zip_store's archive re-encoded with raw deflate (method 8), sizes and offsets
// fixed up: a deflated archive made independently of the reader.
std::string deflated_archive(const std::string& name, const std::string& contents) {
  uLongf bound = compressBound(uLong(contents.size())) + 64;
  std::string packed(bound, '\0');
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(contents.data()));
  s.avail_in = uInt(contents.size());
  s.next_out = reinterpret_cast<Bytef*>(packed.data());
  s.avail_out = uInt(packed.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  packed.resize(s.total_out);
  deflateEnd(&s);
  const auto u16 = [](uint32_t v) { return std::string{char(v & 0xff), char(v >> 8 & 0xff)}; };
  const auto u32 = [&](uint32_t v) { return u16(v & 0xffff) + u16(v >> 16); };
  const uint32_t crc = crc32(contents);
  const std::string common = u16(20) + u16(0) + u16(8) + u16(0) + u16(0) + u32(crc) +
                             u32(uint32_t(packed.size())) + u32(uint32_t(contents.size())) +
                             u16(uint32_t(name.size())) + u16(0);
  const std::string local = u32(0x04034b50) + common + name + packed;
  const std::string central =
      u32(0x02014b50) + u16(20) + common + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + name;
  return local + central + u32(0x06054b50) + u16(0) + u16(0) + u16(1) + u16(1) +
         u32(uint32_t(central.size())) + u32(uint32_t(local.size())) + u16(0);
}

Tensor sample(const std::string& name) {
  Tensor t = Tensor::zeros(name, {2, 3});
  for (int i = 0; i < 6; ++i) t.data()[i] = float(i) / 7 - 0.25f;
  return t;
}

TEST(ZipRead, StoredArchiveOfZipStoreComesBack) {
  const std::string npy = npy_bytes(sample("q"));
  const auto files = zip_entries(zip_store({{"q.npy", npy}, {"out.npy", "x"}}), "a.npz");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].first, "q.npy");
  EXPECT_EQ(files[0].second, npy);
  EXPECT_EQ(files[1].second, "x");
}

TEST(ZipRead, DeflatedEntryInflates) {
  const std::string npy = npy_bytes(sample("q"));
  const auto files = zip_entries(deflated_archive("q.npy", npy), "a.npz");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].second, npy);
}

TEST(ZipRead, NumpySavezAndSavezCompressed) {
  // q = arange(12).reshape(1, 3, 4) / 7; weights all 1/3; masked -inf above the diagonal.
  for (const char* file : {"stored.npz", "deflated.npz"}) {
    const Answer a = parse_answer_archive(fixture(file), file);
    const Tensor* q = a.find("q");
    ASSERT_NE(q, nullptr) << file;
    EXPECT_EQ(q->shape(), (Shape{1, 3, 4}));
    EXPECT_NEAR(q->data()[11], 11.0 / 7, 1e-6) << file;
    ASSERT_NE(a.find("weights"), nullptr);
    EXPECT_NEAR(a.find("weights")->data()[5], 1.0 / 3, 1e-7);
  }
  const Answer deflated = parse_answer_archive(fixture("deflated.npz"), "d");
  const Tensor* masked = deflated.find("masked");
  ASSERT_NE(masked, nullptr);
  EXPECT_TRUE(std::isinf(masked->data()[1]) && masked->data()[1] < 0);  // kept, not refused
  EXPECT_EQ(masked->data()[3], 0.0f);
}

// Every prefix of a real archive is refused with one line naming it, never a crash.
TEST(ZipRead, TruncatedArchivesAreRefusedInOneLine) {
  for (const char* file : {"stored.npz", "deflated.npz"}) {
    const std::string whole = fixture(file);
    for (size_t cut = 0; cut < whole.size(); ++cut) {
      try {
        parse_answer_archive(whole.substr(0, cut), "cut.npz");
        ADD_FAILURE() << file << " cut at " << cut << " was accepted";
      } catch (const UserError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind("cut.npz", 0), 0u) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      }
    }
  }
}

TEST(ZipRead, CorruptDeflateAndCrcAreRefused) {
  std::string archive = deflated_archive("q.npy", npy_bytes(sample("q")));
  archive[40] ^= 0x55;  // inside the deflate stream
  EXPECT_THROW(zip_entries(archive, "bad.npz"), UserError);
  std::string stored = zip_store({{"q.npy", npy_bytes(sample("q"))}});
  stored[100] ^= 1;  // a data byte: the CRC-32 no longer matches
  try {
    zip_entries(stored, "crc.npz");
    ADD_FAILURE() << "a flipped byte passed the CRC-32 check";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("CRC-32"), std::string::npos) << e.what();
  }
}

TEST(ZipRead, NotAnArchiveSaysHowToSave) {
  try {
    parse_answer_archive("hello", "answer.npz");
    ADD_FAILURE();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("not a .npz archive"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("np.savez"), std::string::npos);
  }
}

// [SECTION] limits on the whole archive, checked before anything is inflated

std::string u16(uint64_t v) {
  return {char(v & 0xff), char(v >> 8 & 0xff)};
}
std::string u32(uint64_t v) {
  return u16(v & 0xffff) + u16(v >> 16 & 0xffff);
}
std::string u64(uint64_t v) {
  return u32(v & 0xffffffffu) + u32(v >> 32);
}

// An archive written field by field, so that its directory can say what a hostile one says.
struct RawMember {
  std::string name;
  uint64_t method = 0, crc = 0, packed = 0, size = 0, local = 0;
};

std::string local_header(const RawMember& m) {
  return u32(0x04034b50) + u16(20) + u16(0) + u16(m.method) + u16(0) + u16(0) + u32(m.crc) +
         u32(m.packed) + u32(m.size) + u16(m.name.size()) + u16(0) + m.name;
}

std::string central_entry(const RawMember& m) {
  return u32(0x02014b50) + u16(20) + u16(20) + u16(0) + u16(m.method) + u16(0) + u16(0) +
         u32(m.crc) + u32(m.packed) + u32(m.size) + u16(m.name.size()) + u16(0) + u16(0) + u16(0) +
         u16(0) + u32(0) + u32(m.local) + m.name;
}

// `data` (the local records) followed by a directory of `members`.
std::string with_directory(const std::string& data, const std::vector<RawMember>& members) {
  std::string central;
  for (const RawMember& m : members) central += central_entry(m);
  return data + central + u32(0x06054b50) + u16(0) + u16(0) + u16(members.size()) +
         u16(members.size()) + u32(central.size()) + u32(data.size()) + u16(0);
}

// Raw deflate of `size` zero bytes, made a MiB at a time (never holding them), and their CRC-32.
std::pair<std::string, uint32_t> deflated_zeros(uint64_t size) {
  const std::string zeros(std::min<uint64_t>(size, uint64_t{1} << 20), '\0');
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string packed;
  std::string buffer(1 << 16, '\0');
  uLong crc = ::crc32(0, nullptr, 0);
  for (uint64_t done = 0; done < size || s.avail_in > 0;) {
    int flush = Z_NO_FLUSH;
    if (s.avail_in == 0) {
      const uint64_t piece = std::min<uint64_t>(zeros.size(), size - done);
      s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
      s.avail_in = uInt(piece);
      crc = ::crc32(crc, reinterpret_cast<const Bytef*>(zeros.data()), uInt(piece));
      done += piece;
    }
    if (done == size) flush = Z_FINISH;
    do {
      s.next_out = reinterpret_cast<Bytef*>(buffer.data());
      s.avail_out = uInt(buffer.size());
      deflate(&s, flush);
      packed.append(buffer.data(), buffer.size() - s.avail_out);
    } while (s.avail_out == 0);
    if (flush == Z_FINISH) break;
  }
  deflateEnd(&s);
  return {packed, uint32_t(crc)};
}

std::string refusal_of(const std::string& archive) {
  try {
    zip_entries(archive, "answer.npz");
  } catch (const UserError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  return "(no error)";
}

bool says(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

int64_t peak_resident_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(ZipLimits, SixtyFourEntriesSharingOneDeflatedMemberAreRefusedBeforeInflating) {
  // The answer.npz: one deflated member of 256 MiB of zeros (about 260 KB), listed 64
  // times in the central directory at the same offset.
  const uint64_t size = uint64_t{256} << 20;
  const auto [packed, crc] = deflated_zeros(size);
  RawMember m{"a0.npy", 8, crc, packed.size(), size, 0};
  const std::string data = local_header(m) + packed;
  std::vector<RawMember> members;
  for (int i = 0; i < 64; ++i) {
    m.name = "a" + std::to_string(i) + ".npy";
    members.push_back(m);
  }
  const std::string archive = with_directory(data, members);
  EXPECT_LT(archive.size(), 300u * 1024);
  const int64_t before = peak_resident_kib();
  const std::string said = refusal_of(archive);
  EXPECT_TRUE(says(said, "answer.npz: has entries a")) << said;
  EXPECT_TRUE(says(said, "share bytes (from byte 0)")) << said;
  // Nothing was inflated: one member alone would have raised the peak by 256 MiB.
  EXPECT_LT(peak_resident_kib() - before, 64 * 1024);
}

TEST(ZipLimits, OverlappingMembersAreRefused) {
  // b.npy's local record lies inside a.npy's stored data.
  const std::string inner = "b contents";
  RawMember b{"b.npy", 0, crc32(inner), inner.size(), inner.size(), 0};
  const std::string a_data = std::string(16, 'x') + local_header(b) + inner;
  RawMember a{"a.npy", 0, crc32(a_data), a_data.size(), a_data.size(), 0};
  b.local = local_header(a).size() + 16;
  const std::string said = refusal_of(with_directory(local_header(a) + a_data, {a, b}));
  EXPECT_EQ(said, "answer.npz: has entries a.npy and b.npy that share bytes (from byte " +
                      std::to_string(b.local) +
                      "): the files of an archive never overlap, so it is corrupt or made to "
                      "exhaust memory; save it again with np.savez");
}

TEST(ZipLimits, DeclaredSizeThatLiesIsRefusedAndInflatingStopsThere) {
  const auto [packed, crc] = deflated_zeros(uint64_t{1} << 20);
  RawMember small{"q.npy", 8, crc, packed.size(), 1000, 0};  // says 1000, holds 1 MiB
  EXPECT_TRUE(says(refusal_of(with_directory(local_header(small) + packed, {small})),
                   "answer.npz entry q.npy: its compressed data is truncated or inflates past the "
                   "1000 bytes declared"));
  RawMember large{"q.npy", 8, crc, packed.size(), (uint64_t{1} << 20) + 1, 0};  // one byte more
  EXPECT_TRUE(says(refusal_of(with_directory(local_header(large) + packed, {large})),
                   "answer.npz entry q.npy: inflates to 1048576 bytes, not the 1048577 declared"));
}

// An archive whose end of directory is zip64's, declaring `entries` entries.
std::string zip64_archive(const std::vector<RawMember>& members, const std::string& data,
                          uint64_t entries) {
  std::string central;
  for (const RawMember& m : members) central += central_entry(m);
  const uint64_t zip64_end_at = data.size() + central.size();
  const std::string zip64_end = u32(0x06064b50) + u64(44) + u16(45) + u16(45) + u32(0) + u32(0) +
                                u64(entries) + u64(entries) + u64(central.size()) +
                                u64(data.size());
  const std::string locator = u32(0x07064b50) + u32(0) + u64(zip64_end_at) + u32(1);
  return data + central + zip64_end + locator + u32(0x06054b50) + u16(0) + u16(0) + u16(0xffff) +
         u16(0xffff) + u32(0xffffffffu) + u32(0xffffffffu) + u16(0);
}

TEST(ZipLimits, HundredThousandEntriesAreRefusedBeforeTheDirectoryIsRead) {
  std::string data;
  std::vector<RawMember> members;
  for (int i = 0; i < 100000; ++i) {
    RawMember m{"e" + std::to_string(i) + ".npy", 0, 0, 0, 0, data.size()};
    data += local_header(m);
    members.push_back(m);
  }
  EXPECT_EQ(refusal_of(zip64_archive(members, data, members.size())),
            "answer.npz: declares 100000 files, more than the 4096 an archive may hold; save only "
            "the stages, with np.savez");
}

TEST(ZipLimits, EntryCountAtTheLimitIsReadAndOnePastIsRefused) {
  std::vector<std::pair<std::string, std::string>> files;
  for (uint64_t i = 0; i < limits::kZipMaxEntries; ++i)
    files.emplace_back("e" + std::to_string(i) + ".npy", "x");
  EXPECT_EQ(zip_entries(zip_store(files), "at.npz").size(), limits::kZipMaxEntries);
  files.emplace_back("one_more.npy", "x");
  EXPECT_TRUE(says(refusal_of(zip_store(files)), "declares 4097 files, more than the 4096"));
}

TEST(ZipLimits, MemberOverTheLimitIsRefusedBeforeInflating) {
  const uint64_t over = limits::kZipMaxEntryBytes + 1;
  const std::string packed(over / 1000, 'z');  // room enough for deflate to claim that much
  RawMember m{"q.npy", 8, 0, packed.size(), over, 0};
  EXPECT_EQ(refusal_of(with_directory(local_header(m) + packed, {m})),
            "answer.npz entry q.npy: declares 1073741825 bytes, over the 1 GiB one file of an "
            "archive may hold; save smaller stages");
}

TEST(ZipLimits, TotalAndRatioOfTheWholeArchiveAreLimited) {
  // Three members of 1 GiB each (each within the member limit): 3 GiB in all.
  std::string data;
  std::vector<RawMember> members;
  for (int i = 0; i < 3; ++i) {
    RawMember m{"m" + std::to_string(i) + ".npy", 8, 0, (uint64_t{1} << 30) / 1000, 0, 0};
    m.size = uint64_t{1} << 30;
    m.local = data.size();
    data += local_header(m) + std::string(m.packed, 'z');
    members.push_back(m);
  }
  EXPECT_EQ(refusal_of(with_directory(data, members)),
            "answer.npz: declares 3221225472 bytes in all, over the 2 GiB an archive may inflate "
            "to; save fewer or smaller stages");
  // 128 MiB declared from about 130 KB: within deflate's 1032 but above the whole's ratio of 100.
  RawMember dense{"q.npy", 8, 0, (uint64_t{128} << 20) / 1000, uint64_t{128} << 20, 0};
  const std::string archive =
      with_directory(local_header(dense) + std::string(dense.packed, 'z'), {dense});
  EXPECT_EQ(refusal_of(archive), "answer.npz: inflates " + std::to_string(archive.size()) +
                                     " bytes to 134217728, more than 100 times its size, which "
                                     "real arrays never do; save it again with np.savez");
}

TEST(ZipLimits, NestedArchivesAreNotOpened) {
  const std::string inner = zip_store({{"q.npy", npy_bytes(sample("q"))}});
  EXPECT_EQ(refusal_of(zip_store({{"inner.npz", inner}})),
            "answer.npz entry inner.npz: is itself a zip archive: archives inside an archive are "
            "not opened; save the arrays in one np.savez");
  EXPECT_EQ(refusal_of(zip_store({{"q.npy", inner}})),
            "answer.npz entry q.npy: is itself a zip archive: archives inside an archive are not "
            "opened; save the arrays in one np.savez");
}

TEST(ZipLimits, ANameTwiceIsRefusedBeforeInflating) {
  EXPECT_EQ(refusal_of(zip_store({{"q.npy", "a"}, {"q.npy", "b"}})),
            "answer.npz: holds q.npy twice; save each stage once, with np.savez");
}

}  // namespace
}  // namespace attnlab
