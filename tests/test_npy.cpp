// The .npy reader and writer: files written by real numpy (tests/data/npy, made by
// make_fixtures.py), malformed bytes built in memory, and atomic saving.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/tensor/zip_store.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

const std::string kLabel = "--x x.npy";

std::string fixture(const std::string& name) {
  return std::string(ATTNLAB_TEST_DATA) + "/npy/" + name;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A version 1.0 .npy file holding `dict` as its header and `data` after it.
std::string npy_file(const std::string& dict, const std::string& data = "") {
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + data;
}

std::string header_dict(const std::string& descr, const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
}

template <typename Float>
std::string little_endian_data(const std::vector<Float>& values) {
  using Bits = std::conditional_t<sizeof(Float) == 4, uint32_t, uint64_t>;
  std::string out;
  for (Float value : values) {
    const auto bits = std::bit_cast<Bits>(value);
    for (size_t i = 0; i < sizeof(Float); ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
  }
  return out;
}

Tensor tensor_with(const Shape& shape, const std::function<Scalar(int64_t)>& value_of) {
  Tensor tensor = Tensor::zeros("t", shape);
  Values& values = tensor.storage()->values;
  for (size_t i = 0; i < values.size(); ++i) values[i] = value_of(static_cast<int64_t>(i));
  return tensor;
}

std::vector<Scalar> values_of(const std::function<Scalar(int64_t)>& value_of, int64_t count) {
  std::vector<Scalar> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(value_of(i));
  return values;
}

// Highest resident memory this process has used so far.
int64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;  // Linux reports kilobytes
}

// The message of the UserError `action` throws; fails the test when it throws none.
std::string error_from(const std::function<void()>& action) {
  try {
    action();
  } catch (const UserError& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected a UserError";
  return "";
}

std::string parse_error(const std::string& bytes) {
  return error_from([&] { parse_npy(bytes, kLabel, "x"); });
}

// A message fit to show a user: one line, starting with `source`, containing `phrase`.
testing::AssertionResult says(const std::string& message, const std::string& source,
                              const std::string& phrase) {
  if (message.rfind(source + ": ", 0) != 0) {
    return testing::AssertionFailure() << "does not start with '" << source << ": ': " << message;
  }
  if (message.find('\n') != std::string::npos) {
    return testing::AssertionFailure() << "spans several lines: " << message;
  }
  if (message.find(phrase) == std::string::npos) {
    return testing::AssertionFailure() << "lacks '" << phrase << "': " << message;
  }
  return testing::AssertionSuccess();
}

// A fresh folder per test, removed afterwards.
class NpyFiles : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "attnlab-npy-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  }

  fs::path dir_;
};

TEST_F(NpyFiles, SavedTensorsLoadBackWithIdenticalValues) {
  const auto value_of = [](int64_t i) { return static_cast<Scalar>(std::sin(i + 1.0) * 1000.0); };
  for (const Shape& shape : {Shape{3, 4}, Shape{2, 3, 4}, Shape{5}, Shape{}}) {
    SCOPED_TRACE(shape_to_string(shape));
    const std::string path = (dir_ / "t.npy").string();
    const Tensor saved = tensor_with(shape, value_of);
    save_npy(path, saved);
    const Tensor loaded = load_npy(path, "loaded");
    EXPECT_EQ(loaded.shape(), shape);
    EXPECT_TRUE(loaded.is_contiguous());
    EXPECT_EQ(loaded.storage()->name, "loaded");
    EXPECT_EQ(loaded.to_vector(), saved.to_vector());
  }
}

TEST_F(NpyFiles, TransposedTensorIsSavedInLogicalOrder) {
  const Tensor transposed = tensor_with({2, 3}, [](int64_t i) { return i * 1.5f; }).transpose(0, 1);
  const std::string path = (dir_ / "t.npy").string();
  save_npy(path, transposed);
  const Tensor loaded = load_npy(path, "t");
  EXPECT_EQ(loaded.shape(), (Shape{3, 2}));
  EXPECT_EQ(loaded.to_vector(), (std::vector<Scalar>{0, 4.5f, 1.5f, 6, 3, 7.5f}));
}

TEST(NpyBytes, MatchesNumpyByteForByte) {
  struct Case {
    std::string file;
    Shape shape;
    std::function<Scalar(int64_t)> value_of;
  };
  const std::vector<Case> cases = {
      {"f4_2x3.npy", {2, 3}, [](int64_t i) { return i * 0.5f; }},
      {"f4_5.npy", {5}, [](int64_t i) { return i - 2.0f; }},
      {"f4_scalar.npy", {}, [](int64_t) { return 2.5f; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    EXPECT_EQ(npy_bytes(tensor_with(c.shape, c.value_of)), read_bytes(fixture(c.file)));
  }
}

TEST(NpyBytes, HeaderIsAlignedTo64BytesForAnyShape) {
  const Shape shape{0, 12345678901, 7, 1, 1, 1, 1, 1};  // zero elements, so no data to allocate
  const std::string bytes = npy_bytes(Tensor::zeros("t", shape));
  EXPECT_EQ(bytes.size() % 64, 0u);
  EXPECT_EQ(bytes.back(), '\n');
  EXPECT_EQ(parse_npy(bytes, kLabel, "t").shape(), shape);
}

TEST(NpyLoad, ReadsWhatNumpyWrote) {
  struct Case {
    std::string file;
    Shape shape;
    std::vector<Scalar> values;
  };
  const auto f8_value = [](int64_t i) { return static_cast<Scalar>((i - 2.5) * 0.25); };
  const std::vector<Case> cases = {
      {"f4_2x3.npy", {2, 3}, {0, 0.5f, 1, 1.5f, 2, 2.5f}},
      {"f4_scalar.npy", {}, {2.5f}},
      {"f8_3x2.npy", {3, 2}, values_of(f8_value, 6)},
      {"f4_big_endian_2x2.npy", {2, 2}, {0.25f, 1.25f, 2.25f, 3.25f}},
      {"f4_v2_4.npy", {4}, {1.5f, -2, 3.25f, 0}},
      {"f8_v3_2.npy", {2}, {-0.125f, 8}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const Tensor tensor = load_npy(fixture(c.file), "w");
    EXPECT_EQ(tensor.shape(), c.shape);
    EXPECT_EQ(tensor.to_vector(), c.values);
  }
}

TEST(NpyLoad, RefusesNumpyFilesItCannotUseAndSaysHowToFixThem) {
  struct Case {
    std::string file;
    std::string phrase;
  };
  const std::vector<Case> cases = {
      {"f4_fortran_2x3.npy",
       "Fortran (column-major) order, which is not supported; save it in C "
       "order: np.save(path, np.ascontiguousarray(a))"},
      {"i8_3.npy",
       "dtype '<i8' is not supported; save it as float: np.save(path, a.astype(np.float32))"},
      {"f2_3.npy", "dtype '<f2' is not supported"},
      {"truncated_3x4.npy",
       "declares shape (3, 4) of float32 (48 bytes of data) but only 20 bytes follow the header: "
       "the file is truncated, save it again"},
      {"f4_nan_2x3.npy", "contains NaN at index (1, 2); inputs must be finite numbers"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = fixture(c.file);
    EXPECT_TRUE(says(error_from([&] { load_npy(path, "w"); }), path, c.phrase));
  }
}

TEST(NpyLoad, MissingOrUnreadableFileSaysSo) {
  const std::string missing = fixture("no_such_file.npy");
  EXPECT_TRUE(says(error_from([&] { load_npy(missing, "w"); }), missing,
                   "cannot open the file: No such file or directory; check the path"));
  const std::string folder = fixture("");
  EXPECT_TRUE(says(error_from([&] { load_npy(folder, "w"); }), folder, "Is a directory"));
}

// The magic and the header are read first, then only the data they declare: an x.npy that is a
// link to /dev/zero is refused at its first bytes (it was read to 2 GiB before).
TEST_F(NpyFiles, NpyAtDevZeroIsRefusedAtItsMagic) {
  const std::string link = (dir_ / "x.npy").string();
  fs::create_symlink("/dev/zero", link);
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  EXPECT_TRUE(says(error_from([&] { load_npy(link, "x"); }), link,
                   "is not a .npy file (it does not start with the \\x93NUMPY magic string)"));
  getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 16 * 1024);  // KiB: nothing large was read
}

TEST_F(NpyFiles, OnlyTheDataTheHeaderDeclaresIsRead) {
  const std::string npy = npy_bytes(Tensor::zeros("x", {2, 3}));
  const std::string path = (dir_ / "long.npy").string();
  std::ofstream(path, std::ios::binary) << npy << std::string(8 << 20, 'j');
  EXPECT_TRUE(says(error_from([&] { load_npy(path, "x"); }), path,
                   "has more bytes after the 24 bytes of data its header declares; save the "
                   "array again with np.save(path, a)"));
  const std::string exact = (dir_ / "exact.npy").string();
  std::ofstream(exact, std::ios::binary) << npy;
  EXPECT_EQ(read_npy_file(exact), npy);
}

TEST_F(NpyFiles, EmptyNpyIsEmpty) {
  const std::string path = (dir_ / "x.npy").string();
  std::ofstream(path, std::ios::binary).flush();
  EXPECT_TRUE(says(error_from([&] { load_npy(path, "x"); }), path,
                   "is empty (0 bytes), not a .npy array; check that it was saved completely"));
}

TEST(NpyParse, AcceptsAnyValidSpellingOfTheHeader) {
  const std::string two_values = little_endian_data<float>({1.5f, -3});
  const std::vector<std::string> dicts = {
      header_dict("<f4", "(2,)"),
      R"({"shape": (2,), "fortran_order": False, "descr": "<f4"})",
      "{ 'descr' : '=f4' ,\n\t'fortran_order' : False , 'shape' : ( 2 , ) , }   \n",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}",  // numpy under Python 2
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2)}",
  };
  for (const std::string& dict : dicts) {
    SCOPED_TRACE(dict);
    const Tensor tensor = parse_npy(npy_file(dict, two_values), kLabel, "x");
    EXPECT_EQ(tensor.shape(), Shape{2});
    EXPECT_EQ(tensor.to_vector(), (std::vector<Scalar>{1.5f, -3}));
  }
}

TEST(NpyParse, ReadsScalarsEmptyArraysAndDoubles) {
  const Tensor scalar =
      parse_npy(npy_file(header_dict("<f4", "()"), little_endian_data<float>({7})), kLabel, "x");
  EXPECT_EQ(scalar.shape(), Shape{});
  EXPECT_EQ(scalar.to_vector(), std::vector<Scalar>{7});

  const Tensor empty = parse_npy(npy_file(header_dict("<f4", "(0, 3)")), kLabel, "x");
  EXPECT_EQ(empty.shape(), (Shape{0, 3}));
  EXPECT_EQ(empty.numel(), 0);

  const Tensor doubles = parse_npy(
      npy_file(header_dict("<f8", "(2,)"), little_endian_data<double>({0.1, -2})), kLabel, "x");
  EXPECT_EQ(doubles.to_vector(), (std::vector<Scalar>{0.1f, -2}));
}

TEST(NpyParse, RejectsMalformedInputWithAOneLineMessage) {
  const std::string f4_pair = little_endian_data<float>({1, 2});
  const auto f4_file = [](const std::string& shape, const std::string& data) {
    return npy_file(header_dict("<f4", shape), data);
  };
  struct Case {
    std::string name;
    std::string bytes;
    std::string phrase;
  };
  const std::vector<Case> cases = {
      {"empty", "", "is not a .npy file"},
      {"bad magic", std::string("\x93NUMPZ\x01\x00\x02\x00{}", 12), "is not a .npy file"},
      {"no version", "\x93NUMPY", "ends inside the .npy preamble: the file is truncated"},
      {"no v2 length", std::string("\x93NUMPY\x02\x00\x10\x00", 10),
       "ends inside the .npy preamble"},
      {"version 4", std::string("\x93NUMPY\x04\x00\x02\x00{}", 12),
       "format version 4.0, which is not supported (only 1.0, 2.0 and 3.0)"},
      {"v1 length past end", std::string("\x93NUMPY\x01\x00\xff\xff{}", 12),
       "says its header is 65535 bytes long but only 2 bytes follow: the file is truncated"},
      {"v2 length past end", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14),
       "says its header is 4294967295 bytes long but only 2 bytes follow"},
      {"not a dict", npy_file("hello"), "malformed header: expected '{' at character 0"},
      {"missing descr", npy_file("{'fortran_order': False, 'shape': (2,)}", f4_pair),
       "has no 'descr' key in its header"},
      {"missing fortran_order", npy_file("{'descr': '<f4', 'shape': (2,)}", f4_pair),
       "has no 'fortran_order' key"},
      {"missing shape", npy_file("{'descr': '<f4', 'fortran_order': False}", f4_pair),
       "has no 'shape' key"},
      {"unknown key",
       npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", f4_pair),
       "unexpected header key 'x'"},
      {"repeated key",
       npy_file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}"),
       "repeats the header key 'descr'"},
      {"quote closed too late", npy_file("{'descr: '<f4'}"), "expected ':' after 'descr: '"},
      {"string never closed", npy_file("{'descr"), "expected a closing quote"},
      {"bad bool", npy_file("{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,)}"),
       "expected True or False for 'fortran_order'"},
      {"garbage shape", f4_file("(3, x)", ""), "expected a whole number in 'shape'"},
      {"shape as list", f4_file("[2]", f4_pair), "expected a tuple such as (3, 4) for 'shape'"},
      {"unclosed shape", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2 }"),
       "expected ',' or ')' in 'shape'"},
      {"junk after dict", npy_file(header_dict("<f4", "(2,)") + " junk", f4_pair),
       "expected the end of the header after '}' at character"},
      {"negative dim", f4_file("(3, -4)", ""), "declares a negative dimension (-4)"},
      {"dim beyond int64", f4_file("(99999999999999999999,)", ""),
       "declares a dimension too large for 64 bits"},
      {"element count overflows", f4_file("(1099511627776, 1099511627776)", ""),
       "declares shape (1099511627776, 1099511627776) of float32, whose size does not fit in 64 "
       "bits"},
      {"empty but overflowing", f4_file("(0, 1099511627776, 1099511627776)", ""),
       "whose size does not fit in 64 bits"},
      {"overflowing then empty", f4_file("(1099511627776, 1099511627776, 0)", ""),
       "whose size does not fit in 64 bits"},
      {"over 2 GiB", f4_file("(1048576, 1024)", ""),
       "declares shape (1048576, 1024) of float32 (4294967296 bytes of data), over the 2 GiB "
       "limit (2147483648 bytes)"},
      {"nine dims", f4_file("(1, 1, 1, 1, 1, 1, 1, 1, 1)", ""),
       "has 9 dimensions; at most 8 are supported"},
      {"truncated data", f4_file("(3, 4)", std::string(20, '\0')),
       "declares shape (3, 4) of float32 (48 bytes of data) but only 20 bytes follow the header: "
       "the file is truncated, save it again"},
      {"trailing bytes", f4_file("(2,)", f4_pair + "abcd"),
       "(8 bytes of data) but 12 bytes follow the header (4 extra at the end)"},
      {"int64", npy_file(header_dict("<i8", "(1,)"), std::string(8, '\0')),
       "dtype '<i8' is not supported; save it as float: np.save(path, a.astype(np.float32))"},
      {"float16", npy_file(header_dict("<f2", "(1,)"), std::string(2, '\0')),
       "dtype '<f2' is not supported"},
      {"complex", npy_file(header_dict("<c8", "(1,)"), std::string(8, '\0')),
       "dtype '<c8' is not supported"},
      {"object", npy_file(header_dict("|O", "(1,)"), std::string(8, '\0')),
       "dtype '|O' is not supported"},
      {"unprintable dtype", npy_file(header_dict("\x01\n", "(1,)")),
       "dtype '\?\?' is not supported"},
      {"structured",
       npy_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", f4_pair),
       "holds a structured array (named fields), which is not supported"},
      {"fortran order", npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}", f4_pair),
       "np.save(path, np.ascontiguousarray(a))"},
      {"inf", f4_file("(2, 2)", little_endian_data<float>({0, 0, INFINITY, 0})),
       "contains Inf at index (1, 0); inputs must be finite numbers"},
      {"minus inf", f4_file("(3,)", little_endian_data<float>({0, -INFINITY, NAN})),
       "contains -Inf at index (1)"},
      {"nan", f4_file("()", little_endian_data<float>({NAN})), "contains NaN at index ()"},
      {"double too large for float32",
       npy_file(header_dict("<f8", "(2,)"), little_endian_data<double>({1, 1e300})),
       "contains 1e+300 at index (1), too large for float32"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(says(parse_error(c.bytes), kLabel, c.phrase));
  }
}

TEST(NpyParse, LyingShapeIsRefusedBeforeAnyLargeAllocation) {
  // 1 GiB declared over 4 bytes of data. Allocating (and zeroing) before the size check would
  // raise the process's peak resident memory by about 1 GiB.
  const std::string bytes = npy_file(header_dict("<f4", "(268435456,)"), "tiny");
  const int64_t peak_before = peak_resident_bytes();
  EXPECT_TRUE(says(parse_error(bytes), kLabel, "but only 4 bytes follow the header"));
  EXPECT_LT(peak_resident_bytes() - peak_before, int64_t{64} << 20);
}

TEST_F(NpyFiles, SaveIntoMissingFolderThrowsAndLeavesNoFile) {
  const std::string path = (dir_ / "missing" / "x.npy").string();
  const Tensor tensor = tensor_with({2}, [](int64_t i) { return i * 1.0f; });
  const std::string message = error_from([&] { save_npy(path, tensor); });
  EXPECT_TRUE(says(message, "cannot write '" + path + "'", "No such file or directory"));
  EXPECT_TRUE(entries().empty());
}

TEST_F(NpyFiles, SaveBelowARegularFileThrowsAndLeavesNoFile) {
  std::ofstream(dir_ / "plain.txt") << "not a folder";
  const std::string path = (dir_ / "plain.txt" / "x.npy").string();
  const Tensor tensor = tensor_with({2}, [](int64_t i) { return i * 1.0f; });
  EXPECT_TRUE(says(error_from([&] { save_npy(path, tensor); }), "cannot write '" + path + "'",
                   "Not a directory"));
  EXPECT_EQ(entries(), std::vector<std::string>{"plain.txt"});
}

TEST_F(NpyFiles, FailedRenameRemovesTheTemporaryFile) {
  fs::create_directory(dir_ / "taken");  // rename cannot replace a folder with a file
  const std::string path = (dir_ / "taken").string();
  EXPECT_TRUE(says(error_from([&] { write_file_atomically(path, "data"); }),
                   "cannot write '" + path + "'", "Is a directory"));
  EXPECT_EQ(entries(), std::vector<std::string>{"taken"});
}

TEST_F(NpyFiles, WriteReplacesAnExistingFileAndLeavesNoTemporaryFile) {
  const std::string path = (dir_ / "notes.txt").string();
  write_file_atomically(path, "old contents that are longer");
  const std::string bytes("new\0bytes\n", 10);
  write_file_atomically(path, bytes);
  EXPECT_EQ(read_bytes(path), bytes);
  EXPECT_EQ(entries(), std::vector<std::string>{"notes.txt"});
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// The zip writer against an independent reader is in tests/web (Python's zipfile on the page's
// download); here, its checksum and layout against hand-derived numbers.
TEST(ZipStore, Crc32MatchesTheStandardCheckValue) {
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);  // the CRC-32/ISO-HDLC check value
  EXPECT_EQ(crc32(""), 0u);
}

TEST(ZipStore, StoresEachFileWithItsHeaderAndEndsWithTheDirectory) {
  const std::string zip = zip_store({{"a.txt", "hello"}, {"b/c.npy", ""}});
  // Local header 30 + name, then the bytes as they are.
  EXPECT_EQ(zip.substr(0, 4), std::string("PK\x03\x04", 4));
  EXPECT_EQ(zip.substr(30, 5), "a.txt");
  EXPECT_EQ(zip.substr(35, 5), "hello");
  const size_t second = 30 + 5 + 5;
  EXPECT_EQ(zip.substr(second + 30, 7), "b/c.npy");
  const size_t central = second + 30 + 7;
  EXPECT_EQ(zip.substr(central, 4), std::string("PK\x01\x02", 4));
  // Two central entries of 46 bytes + names, then the 22-byte end record.
  EXPECT_EQ(zip.size(), central + (46 + 5) + (46 + 7) + 22);
  EXPECT_EQ(zip.substr(zip.size() - 22, 4), std::string("PK\x05\x06", 4));
  EXPECT_EQ(uint8_t(zip[zip.size() - 12]), 2);  // entries
}

}  // namespace
}  // namespace attnlab
