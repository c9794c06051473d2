// The .npz answer reader: real np.savez and np.savez_compressed files (tests/data/npz, copies of
// tests/fuzz/corpus/make_npz_corpus.py's stored.npz and deflated.npz), archives built here with
// zip_store and with zlib's raw deflate, and truncated or corrupt ones.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "core/exercise/answer.hpp"
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

}  // namespace
}  // namespace attnlab
