#include "core/tensor/npy.hpp"

#include <unistd.h>

#include <bit>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"

namespace attnlab {
namespace {

// std::bit_cast, which the browser build's libc++ (Emscripten 3.1.6) lacks.
template <typename To, typename From>
To same_bits(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

constexpr std::string_view kMagic{"\x93NUMPY", 6};
constexpr size_t kVersionAt = kMagic.size();  // two bytes: major, minor
constexpr size_t kHeaderLengthAt = kVersionAt + 2;
constexpr int64_t kMaxDataBytes = int64_t(limits::kNpyDataBytes);
constexpr size_t kMaxDims = 8;
constexpr size_t kHeaderAlign = 64;
// numpy pads the header so the first dimension can grow in place to this many digits.
constexpr size_t kGrowthAxisMaxDigits = 21;
constexpr const char* kSaveAgain = "save the array again with np.save(path, a)";

[[noreturn]] void fail(const std::string& label, const std::string& problem) {
  throw UserError(label + ": " + problem);
}

// Quotes text taken from a file for a one-line message: unprintable bytes become '?', long
// text is cut short.
std::string quoted(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string out = "'";
  for (char c : text.substr(0, kMaxShown)) out += (c >= ' ' && c <= '~') ? c : '?';
  if (text.size() > kMaxShown) out += "...";
  return out + "'";
}

bool is_python_space(char c) {
  return std::string_view(" \t\n\r\f\v").find(c) != std::string_view::npos;
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// An unsigned integer stored in kWidth bytes of the given byte order.
template <size_t kWidth, bool kBigEndian>
uint64_t load_unsigned(const char* bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < kWidth; ++i) {
    const size_t significance = kBigEndian ? kWidth - 1 - i : i;
    value |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * significance);
  }
  return value;
}

void append_little_endian(std::string& out, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

struct HeaderBlock {
  std::string_view dict;  // the header text, a Python dict literal
  size_t data_offset;     // where the array data starts
};

struct Preamble {
  size_t dict_at;      // where the header dict starts
  size_t dict_length;  // its length, as the preamble declares it
};

// Checks the magic string and the format version and reads the header's length: the first 12
// bytes at most.
Preamble read_preamble(const std::string& bytes, const std::string& label) {
  if (bytes.compare(0, kMagic.size(), kMagic) != 0) {
    fail(label,
         "is not a .npy file (it does not start with the \\x93NUMPY magic string); "
         "save the array with np.save(path, a)");
  }
  const std::string truncated_preamble =
      "ends inside the .npy preamble: the file is truncated, " + std::string(kSaveAgain);
  if (bytes.size() < kHeaderLengthAt) fail(label, truncated_preamble);
  const int major = static_cast<unsigned char>(bytes[kVersionAt]);
  const int minor = static_cast<unsigned char>(bytes[kVersionAt + 1]);
  if (major < 1 || major > 3) {
    fail(label, "uses .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                    ", which is not supported (only 1.0, 2.0 and 3.0); " + kSaveAgain);
  }
  // Version 1 stores the header length in 2 bytes, versions 2 and 3 in 4.
  const size_t length_width = major == 1 ? 2 : 4;
  const size_t dict_at = kHeaderLengthAt + length_width;
  if (bytes.size() < dict_at) fail(label, truncated_preamble);
  const char* length_bytes = bytes.data() + kHeaderLengthAt;
  const size_t dict_length =
      major == 1 ? load_unsigned<2, false>(length_bytes) : load_unsigned<4, false>(length_bytes);
  return {dict_at, dict_length};
}

// Checks the magic string and format version and locates the header dict and the data.
HeaderBlock split_header(const std::string& bytes, const std::string& label) {
  const auto [dict_at, dict_length] = read_preamble(bytes, label);
  if (dict_length > bytes.size() - dict_at) {
    fail(label, "says its header is " + std::to_string(dict_length) + " bytes long but only " +
                    std::to_string(bytes.size() - dict_at) +
                    " bytes follow: the file is truncated, save it again");
  }
  return {std::string_view(bytes).substr(dict_at, dict_length), dict_at + dict_length};
}

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

// Reads numpy's header, a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// Keys may come in any order, with either quote style, any whitespace and trailing commas.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& label) : text_(text), label_(label) {}

  NpyHeader parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<Shape> shape;
    expect('{', "'{'");
    while (!accept('}')) {
      const std::string key = parse_string();
      expect(':', "':' after " + quoted(key));
      if (key == "descr") {
        set_once(descr, parse_descr(), key);
      } else if (key == "fortran_order") {
        set_once(fortran_order, parse_bool(), key);
      } else if (key == "shape") {
        set_once(shape, parse_shape(), key);
      } else {
        fail(label_, "has an unexpected header key " + quoted(key) +
                         " (a .npy header has only 'descr', 'fortran_order' and 'shape'); " +
                         kSaveAgain);
      }
      if (!accept(',')) {
        expect('}', "',' or '}'");
        break;
      }
    }
    skip_spaces();
    if (pos_ != text_.size()) fail_syntax("the end of the header after '}'");
    return {require(descr, "descr"), require(fortran_order, "fortran_order"),
            require(shape, "shape")};
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_spaces() {
    while (is_python_space(peek())) ++pos_;
  }

  // Skips whitespace, then consumes `c` if it comes next.
  bool accept(char c) {
    skip_spaces();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

  void expect(char c, const std::string& expected) {
    if (!accept(c)) fail_syntax(expected);
  }

  std::string parse_string() {
    skip_spaces();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail_syntax("a quoted key or string");
    const size_t close = text_.find(quote, pos_ + 1);
    if (close == std::string_view::npos) fail_syntax("a closing quote");
    std::string value(text_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
    return value;
  }

  std::string parse_descr() {
    skip_spaces();
    if (peek() == '[') {
      fail(label_,
           "holds a structured array (named fields), which is not supported; save one field as "
           "a plain float array: np.save(path, a['field'].astype(np.float32))");
    }
    return parse_string();
  }

  bool parse_bool() {
    skip_spaces();
    const size_t start = pos_;
    while (is_letter(peek())) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    if (word == "True") return true;
    if (word == "False") return false;
    pos_ = start;
    fail_syntax("True or False for 'fortran_order'");
  }

  Shape parse_shape() {
    expect('(', "a tuple such as (3, 4) for 'shape'");
    Shape shape;
    while (!accept(')')) {
      shape.push_back(parse_dimension());
      if (!accept(',')) {
        expect(')', "',' or ')' in 'shape'");
        break;
      }
    }
    return shape;
  }

  int64_t parse_dimension() {
    const bool negative = accept('-');
    skip_spaces();
    if (!is_digit(peek())) fail_syntax("a whole number in 'shape'");
    int64_t value = 0;
    while (is_digit(peek())) {
      const int digit = text_[pos_++] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        fail_corrupt("declares a dimension too large for 64 bits in its shape");
      }
      value = value * 10 + digit;
    }
    if (peek() == 'L') ++pos_;  // numpy under Python 2 wrote long ints as 3L
    if (negative && value != 0) {
      fail_corrupt("declares a negative dimension (-" + std::to_string(value) + ") in its shape");
    }
    return value;
  }

  template <typename T>
  void set_once(std::optional<T>& slot, T value, const std::string& key) const {
    if (slot) fail(label_, "repeats the header key '" + key + "'; " + kSaveAgain);
    slot = std::move(value);
  }

  template <typename T>
  T require(std::optional<T>& slot, const char* key) const {
    if (!slot) fail(label_, "has no '" + std::string(key) + "' key in its header; " + kSaveAgain);
    return std::move(*slot);
  }

  [[noreturn]] void fail_corrupt(const std::string& problem) const {
    fail(label_, problem + "; the header is corrupt, " + kSaveAgain);
  }

  [[noreturn]] void fail_syntax(const std::string& expected) const {
    const std::string found = pos_ < text_.size() ? quoted(text_.substr(pos_)) : "the end";
    fail(label_, "has a malformed header: expected " + expected + " at character " +
                     std::to_string(pos_) + " but found " + found + "; " + kSaveAgain);
  }

  std::string_view text_;
  const std::string& label_;
  size_t pos_ = 0;
};

// The float layouts np.save writes for float32 and float64 arrays.
struct FloatFormat {
  size_t width;  // bytes per value: 4 or 8
  bool big_endian;
};

std::string type_name(FloatFormat format) {
  return format.width == 4 ? "float32" : "float64";
}

FloatFormat float_format(const std::string& descr, const std::string& label) {
  const bool is_float = descr.size() == 3 &&
                        std::string_view("<>=").find(descr[0]) != std::string_view::npos &&
                        descr[1] == 'f' && (descr[2] == '4' || descr[2] == '8');
  if (!is_float) {
    fail(label, "dtype " + quoted(descr) +
                    " is not supported; save it as float: np.save(path, a.astype(np.float32))");
  }
  // '=' is the byte order of the machine that wrote the file; numpy assumes it is this one.
  const bool big_endian =
      descr[0] == '>' || (descr[0] == '=' && std::endian::native == std::endian::big);
  return {static_cast<size_t>(descr[2] - '0'), big_endian};
}

// Bytes of data `shape` declares, or nothing when that does not fit in int64. Zero-size
// dimensions are skipped in the overflow check so that, even for an empty array, every product
// Tensor computes (strides, numel) fits in int64.
std::optional<int64_t> declared_bytes(const Shape& shape, size_t width) {
  int64_t bytes = static_cast<int64_t>(width);
  bool empty = false;
  for (int64_t size : shape) {
    if (size == 0) {
      empty = true;
    } else if (bytes > std::numeric_limits<int64_t>::max() / size) {
      return std::nullopt;
    } else {
      bytes *= size;
    }
  }
  return empty ? 0 : bytes;
}

// The bytes of data the header declares, refused past the limits: checked before anything is
// allocated or read, so a corrupt header can never make us allocate a size it lies about.
size_t data_size(const Shape& shape, FloatFormat format, const std::string& label) {
  if (shape.size() > kMaxDims) {
    fail(label, "has " + std::to_string(shape.size()) + " dimensions; at most " +
                    std::to_string(kMaxDims) + " are supported, reshape the array before saving");
  }
  const std::string declared =
      "declares shape " + shape_to_string(shape) + " of " + type_name(format);
  const std::optional<int64_t> bytes = declared_bytes(shape, format.width);
  if (!bytes) {
    fail(label,
         declared + ", whose size does not fit in 64 bits; the header is corrupt, " + kSaveAgain);
  }
  const std::string with_bytes = declared + " (" + std::to_string(*bytes) + " bytes of data)";
  if (*bytes > kMaxDataBytes) {
    fail(label, with_bytes + ", over the 2 GiB limit (" + std::to_string(kMaxDataBytes) +
                    " bytes); load a smaller array");
  }
  return static_cast<size_t>(*bytes);
}

void check_data_size(const Shape& shape, FloatFormat format, size_t available,
                     const std::string& label) {
  const size_t expected = data_size(shape, format, label);
  const std::string with_bytes = "declares shape " + shape_to_string(shape) + " of " +
                                 type_name(format) + " (" + std::to_string(expected) +
                                 " bytes of data)";
  if (available < expected) {
    fail(label, with_bytes + " but only " + std::to_string(available) +
                    " bytes follow the header: the file is truncated, save it again");
  }
  if (available > expected) {
    fail(label, with_bytes + " but " + std::to_string(available) + " bytes follow the header (" +
                    std::to_string(available - expected) + " extra at the end); " + kSaveAgain);
  }
}

[[noreturn]] void reject_value(double value, int64_t flat, const Shape& shape,
                               const std::string& label) {
  const std::string where = " at index " + shape_to_string(unravel_index(flat, shape));
  const std::string finite_only = "; inputs must be finite numbers";
  if (std::isnan(value)) fail(label, "contains NaN" + where + finite_only);
  if (std::isinf(value)) {
    fail(label, (value > 0 ? "contains Inf" : "contains -Inf") + where + finite_only);
  }
  std::ostringstream shown;
  shown << value;
  fail(label, "contains " + shown.str() + where +
                  ", too large for float32 (at most about 3.4e38); scale the values down");
}

// Converts raw values to float32, refusing float64 values float32 cannot hold and (unless kept)
// NaN and Inf.
template <typename Float, bool kBigEndian>
void decode_values(const char* data, const Shape& shape, Values& out, const std::string& label,
                   NonFinite non_finite) {
  using Bits = std::conditional_t<sizeof(Float) == 4, uint32_t, uint64_t>;
  for (size_t i = 0; i < out.size(); ++i) {
    const uint64_t bits = load_unsigned<sizeof(Float), kBigEndian>(data + i * sizeof(Float));
    const Float value = same_bits<Float>(static_cast<Bits>(bits));
    const bool kept = non_finite == NonFinite::Keep && !std::isfinite(value);
    if (!kept && !(std::abs(value) <= std::numeric_limits<Scalar>::max())) {
      reject_value(value, static_cast<int64_t>(i), shape, label);
    }
    out[i] = static_cast<Scalar>(value);
  }
}

void decode(const char* data, FloatFormat format, const Shape& shape, Values& out,
            const std::string& label, NonFinite non_finite) {
  if (format.width == 4) {
    format.big_endian ? decode_values<float, true>(data, shape, out, label, non_finite)
                      : decode_values<float, false>(data, shape, out, label, non_finite);
  } else {
    format.big_endian ? decode_values<double, true>(data, shape, out, label, non_finite)
                      : decode_values<double, false>(data, shape, out, label, non_finite);
  }
}

// Python's repr of a shape tuple, as numpy writes it: "()", "(5,)", "(2, 3)".
std::string python_tuple(const Shape& shape) {
  if (shape.size() == 1) return "(" + std::to_string(shape[0]) + ",)";
  return shape_to_string(shape);
}

// The header dict exactly as numpy writes it for a C-order array of `descr`, padding included.
std::string npy_header(const Shape& shape, const char* descr = "<f4") {
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': " + python_tuple(shape) + ", }";
  if (!shape.empty()) header.append(kGrowthAxisMaxDigits - std::to_string(shape[0]).size(), ' ');
  const size_t unpadded = kHeaderLengthAt + 2 + header.size() + 1;  // +1 for the final '\n'
  header.append(kHeaderAlign - unpadded % kHeaderAlign, ' ');
  return header + '\n';
}

// Magic, version 1.0, the header's length and the header; room reserved for `payload` bytes.
std::string npy_preamble(const std::string& header, size_t payload) {
  assert(header.size() <= 0xffff && "a version 1.0 header holds at most 65535 bytes");
  std::string out(kMagic);
  out.reserve(kHeaderLengthAt + 2 + header.size() + payload);
  out += '\x01';  // format version 1.0
  out += '\x00';
  append_little_endian(out, header.size(), 2);
  out += header;
  return out;
}

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// errno after a failed call, or EIO should the C library not have set it.
int last_error() {
  return errno != 0 ? errno : EIO;
}

// Creates `path`, writes `bytes` and forces them to disk. Returns 0, or the errno of the first
// step that failed.
int write_and_sync(const std::string& path, const std::string& bytes) {
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return last_error();
  int error = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size() || std::fflush(file) != 0 ||
      ::fsync(::fileno(file)) != 0) {
    error = last_error();
  }
  if (std::fclose(file) != 0 && error == 0) error = last_error();
  return error;
}

}  // namespace

Tensor parse_npy(const std::string& bytes, const std::string& label,
                 const std::string& storage_name, NonFinite non_finite) {
  const HeaderBlock block = split_header(bytes, label);
  const NpyHeader header = HeaderParser(block.dict, label).parse();
  const FloatFormat format = float_format(header.descr, label);
  if (header.fortran_order) {
    fail(label,
         "is stored in Fortran (column-major) order, which is not supported; save it in C "
         "order: np.save(path, np.ascontiguousarray(a))");
  }
  check_data_size(header.shape, format, bytes.size() - block.data_offset, label);
  Tensor tensor = Tensor::zeros(storage_name, header.shape);
  decode(bytes.data() + block.data_offset, format, header.shape, tensor.storage()->values, label,
         non_finite);
  return tensor;
}

std::string read_npy_file(const std::string& path) {
  BoundedFile file(path, limits::kNpyFile);
  std::string bytes = file.read_start(kHeaderLengthAt + 4);  // magic, version, header length
  const Preamble preamble = read_preamble(bytes, path);
  if (preamble.dict_length > limits::kNpyHeaderBytes) {
    fail(path, "says its header is " + std::to_string(preamble.dict_length) +
                   " bytes long, over the " + limit_text(limits::kNpyHeaderBytes) +
                   " a header may have; " + kSaveAgain);
  }
  const size_t data_at = preamble.dict_at + preamble.dict_length;
  if (bytes.size() < data_at) bytes += file.read(data_at - bytes.size());
  const HeaderBlock block = split_header(bytes, path);
  const NpyHeader header = HeaderParser(block.dict, path).parse();
  const size_t data = data_size(header.shape, float_format(header.descr, path), path);
  // One byte past the data shows a file longer than its header says.
  const size_t have = bytes.size() - block.data_offset;
  if (have <= data) bytes += file.read(data + 1 - have);
  if (bytes.size() - block.data_offset > data)
    fail(path, "has more bytes after the " + std::to_string(data) +
                   " bytes of data its header declares; " + kSaveAgain);
  return bytes;
}

Tensor load_npy(const std::string& path, const std::string& storage_name) {
  return parse_npy(read_npy_file(path), path, storage_name);
}

std::string npy_bytes(const Tensor& tensor) {
  assert((tensor.has_values() || tensor.numel() == 0) && "npy_bytes needs a tensor with values");
  const std::vector<Scalar> values = tensor.to_vector();
  std::string out = npy_preamble(npy_header(tensor.shape()), values.size() * sizeof(Scalar));
  for (Scalar value : values) append_little_endian(out, same_bits<uint32_t>(value), 4);
  return out;
}

void save_npy(const std::string& path, const Tensor& tensor) {
  write_file_atomically(path, npy_bytes(tensor));
}

std::string npy_bytes_int64(const std::vector<int64_t>& values, const Shape& shape) {
  int64_t count = 1;
  for (int64_t n : shape) count *= n;
  assert(count == int64_t(values.size()) && "the shape must hold exactly the values");
  std::string out = npy_preamble(npy_header(shape, "<i8"), values.size() * 8);
  for (int64_t value : values) append_little_endian(out, static_cast<uint64_t>(value), 8);
  return out;
}

void save_npy_int64(const std::string& path, const std::vector<int64_t>& values,
                    const Shape& shape) {
  write_file_atomically(path, npy_bytes_int64(values, shape));
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
  const std::string temp_path = path + ".tmp-" + std::to_string(::getpid());
  int error = write_and_sync(temp_path, bytes);
  if (error == 0) {
    errno = 0;
    if (std::rename(temp_path.c_str(), path.c_str()) == 0) return;
    error = last_error();
  }
  std::remove(temp_path.c_str());
  const bool out_of_space = error == ENOSPC || error == EFBIG || error == EDQUOT;
  throw UserError("cannot write '" + path + "': " + std::strerror(error) +
                  (out_of_space ? "; free some disk space or choose another folder"
                                : "; check that its folder exists and is writable"));
}

}  // namespace attnlab
