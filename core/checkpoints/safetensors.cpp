#include "core/checkpoints/safetensors.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/kernels/parallel.hpp"
#include "core/limits/limits.hpp"
#include "core/model/errors.hpp"

namespace attnlab {

namespace {

constexpr uint64_t kMaxHeaderBytes = limits::kSafetensorsHeaderBytes;

// The float (or double) whose bits are `bits` (std::bit_cast, which the page's libc++ lacks).
template <typename To, typename From>
To from_bits(From bits) {
  static_assert(sizeof(To) == sizeof(From));
  To value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw UserError(path + ": " + what +
                  " (re-save it with safetensors, or download the model folder again)");
}

// Bytes per element; 0 for a dtype this reader does not know.
uint64_t dtype_bytes(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
  if (dtype == "I8" || dtype == "U8" || dtype == "BOOL" || dtype == "F8_E4M3" || dtype == "F8_E5M2")
    return 1;
  return 0;
}

// The unsigned integer of sizeof(T) little-endian bytes at `at`.
template <typename T>
T little_endian(const unsigned char* at) {
  T bits = 0;
  for (size_t b = sizeof(T); b-- > 0;) bits = T(bits << 8) | at[b];
  return bits;
}

// Element i of a tensor's bytes as float32, one function per float dtype.
using Decode = float (*)(const unsigned char* raw, size_t i);
float decode_f32(const unsigned char* raw, size_t i) {
  return from_bits<float>(little_endian<uint32_t>(raw + 4 * i));
}
float decode_f64(const unsigned char* raw, size_t i) {
  return float(from_bits<double>(little_endian<uint64_t>(raw + 8 * i)));
}
float decode_f16(const unsigned char* raw, size_t i) {
  return half_to_float(little_endian<uint16_t>(raw + 2 * i));
}
float decode_bf16(const unsigned char* raw, size_t i) {
  return bfloat16_to_float(little_endian<uint16_t>(raw + 2 * i));
}

// The decoder for `dtype`; nullptr for one that is not a float (integers, booleans, FP8).
Decode decoder_for(const std::string& dtype) {
  if (dtype == "F32") return decode_f32;
  if (dtype == "F64") return decode_f64;
  if (dtype == "F16") return decode_f16;
  if (dtype == "BF16") return decode_bf16;
  return nullptr;
}

uint64_t file_size(std::ifstream& in) {
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  return size < 0 ? 0 : uint64_t(size);
}

// A name or dtype from the header, quoted for a one-line message: control characters escaped,
// invalid UTF-8 replaced, at most 80 characters.
std::string in_quotes(const std::string& text) {
  std::string q =
      nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (q.size() > 80) q = q.substr(0, 76) + "...\"";
  return q;
}

SafetensorsEntry parse_entry(const std::string& path, const std::string& name,
                             const nlohmann::json& value, uint64_t data_bytes) {
  const std::string where = "tensor " + in_quotes(name);
  if (!value.is_object() || !value.contains("dtype") || !value["dtype"].is_string() ||
      !value.contains("shape") || !value["shape"].is_array() || !value.contains("data_offsets") ||
      !value["data_offsets"].is_array() || value["data_offsets"].size() != 2)
    refuse(path, where + " lacks its dtype, shape or data_offsets [begin, end]");
  SafetensorsEntry entry;
  entry.dtype = value["dtype"].get<std::string>();
  const uint64_t element = dtype_bytes(entry.dtype);
  if (element == 0) refuse(path, where + " has the unknown dtype " + in_quotes(entry.dtype));
  // Elements counted in double first: a product past 2^53 is refused before it can overflow. The
  // sizes other than 0 count too: strides are products of the sizes, even of an empty tensor's.
  if (value["shape"].size() > 16) refuse(path, where + " has more than 16 dimensions");
  double count = 1, span = 1;
  for (const nlohmann::json& size : value["shape"]) {
    if (!size.is_number_unsigned() || size.get<uint64_t>() > (uint64_t{1} << 50))
      refuse(path, where + " has a shape that is not a list of sizes");
    entry.shape.push_back(int64_t(size.get<uint64_t>()));
    count *= double(size.get<uint64_t>());
    span *= std::max(1.0, double(size.get<uint64_t>()));
    if (span > double(uint64_t{1} << 53)) refuse(path, where + " has a shape too large to hold");
  }
  for (const nlohmann::json& offset : value["data_offsets"])
    if (!offset.is_number_unsigned()) refuse(path, where + " has data_offsets that are not sizes");
  entry.begin = value["data_offsets"][0].get<uint64_t>();
  entry.end = value["data_offsets"][1].get<uint64_t>();
  if (entry.begin > entry.end || entry.end > data_bytes)
    refuse(path, where + " has bytes [" + std::to_string(entry.begin) + ", " +
                     std::to_string(entry.end) + ") outside the file's " +
                     std::to_string(data_bytes) + " data bytes (is the file truncated?)");
  if (count * double(element) != double(entry.end - entry.begin))
    refuse(path, where + " holds " + std::to_string(entry.end - entry.begin) +
                     " bytes, but its shape and dtype need " +
                     std::to_string(uint64_t(count) * element));
  return entry;
}

}  // namespace

float half_to_float(uint16_t bits) {
  const uint32_t sign = uint32_t(bits >> 15) << 31;
  const uint32_t exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24
    const float value = std::ldexp(float(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31)  // Inf or NaN
    return from_bits<float>(sign | 0x7F800000u | (mantissa << 13));
  return from_bits<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bfloat16_to_float(uint16_t bits) {
  return from_bits<float>(uint32_t(bits) << 16);
}

uint64_t safetensors_header_length(const std::string& prefix, uint64_t file_size,
                                   const std::string& path) {
  if (file_size < 8 || prefix.size() < 8) refuse(path, "is shorter than a safetensors header");
  const uint64_t header_bytes =
      little_endian<uint64_t>(reinterpret_cast<const unsigned char*>(prefix.data()));
  if (header_bytes > kMaxHeaderBytes || header_bytes > file_size - 8)
    refuse(path, "declares a " + std::to_string(header_bytes) + "-byte header in a " +
                     std::to_string(file_size) +
                     "-byte file: not a safetensors file, or truncated");
  return header_bytes;
}

SafetensorsHeader parse_safetensors_header(const std::string& prefix, uint64_t file_size,
                                           const std::string& path) {
  const uint64_t header_bytes = safetensors_header_length(prefix, file_size, path);
  if (prefix.size() - 8 < header_bytes) refuse(path, "ends inside its header");
  SafetensorsHeader h;
  h.data_start = 8 + header_bytes;
  const nlohmann::json json = nlohmann::json::parse(
      prefix.begin() + 8, prefix.begin() + std::ptrdiff_t(h.data_start), nullptr, false);
  if (json.is_discarded() || !json.is_object()) refuse(path, "has a header that is not JSON");
  const uint64_t data_bytes = file_size - h.data_start;
  for (const auto& [name, value] : json.items()) {
    if (name == "__metadata__") {
      if (value.is_object())
        for (const auto& [key, text] : value.items())
          if (text.is_string()) h.metadata[key] = text.get<std::string>();
      continue;
    }
    h.entries[name] = parse_entry(path, name, value, data_bytes);
  }
  // Byte ranges may not overlap (two names over the same bytes would hide a corrupt file).
  std::vector<std::pair<const std::string*, const SafetensorsEntry*>> by_start;
  for (const auto& [name, entry] : h.entries) by_start.emplace_back(&name, &entry);
  std::sort(by_start.begin(), by_start.end(),
            [](const auto& a, const auto& b) { return a.second->begin < b.second->begin; });
  for (size_t i = 1; i < by_start.size(); ++i)
    if (by_start[i].second->begin < by_start[i - 1].second->end)
      refuse(path, "has two tensors over the same bytes: " + in_quotes(*by_start[i - 1].first) +
                       " and " + in_quotes(*by_start[i].first));
  return h;
}

Tensor decode_safetensors_tensor(const std::string& path, const std::string& name,
                                 const SafetensorsEntry& e, std::string_view bytes) {
  const Decode decode = decoder_for(e.dtype);
  if (!decode)
    throw UserError(path + ": tensor " + in_quotes(name) + " is " + e.dtype +
                    ", not a float tensor: it is not a weight this app reads");
  Tensor tensor = Tensor::empty(name, e.shape);
  const size_t count = size_t(tensor.numel());
  if (bytes.size() != count * dtype_bytes(e.dtype))
    refuse(path, "tensor " + in_quotes(name) + " has " + std::to_string(bytes.size()) +
                     " bytes for its " + std::to_string(count) + " elements");
  Scalar* out = tensor.data();
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  // Converted over the cores; the first NaN or Inf (the lowest index any chunk met) is refused.
  std::atomic<size_t> first_bad{count};
  parallel_for(int64_t(count), 8.0 * double(count), [&](int64_t begin, int64_t end) {
    for (auto i = size_t(begin); i < size_t(end); ++i) {
      out[i] = decode(raw, i);
      if (std::isfinite(out[i])) continue;
      for (size_t seen = first_bad.load(); i < seen && !first_bad.compare_exchange_weak(seen, i);) {
      }
      return;
    }
  });
  if (first_bad < count)
    refuse(path, "tensor " + in_quotes(name) + " holds NaN or Inf at index " +
                     std::to_string(first_bad.load()));
  return tensor;
}

SafetensorsFile::SafetensorsFile(std::string path) : path_(std::move(path)) {
  // Only a regular file: opening a named pipe would wait for a writer for ever.
  std::error_code error;
  if (!std::filesystem::is_regular_file(path_, error))
    refuse(path_, std::filesystem::exists(path_, error) ? "is not a regular file"
                                                        : "cannot open the file");
  std::ifstream in(path_, std::ios::binary);
  if (!in) refuse(path_, "cannot open the file");
  const uint64_t size = file_size(in);
  std::string prefix(8, '\0');
  if (size < 8 || !in.read(prefix.data(), 8)) refuse(path_, "is shorter than a safetensors header");
  const uint64_t header_bytes = safetensors_header_length(prefix, size, path_);
  prefix.resize(8 + header_bytes);
  if (!in.read(prefix.data() + 8, std::streamsize(header_bytes)))
    refuse(path_, "ends inside its header");
  SafetensorsHeader header = parse_safetensors_header(prefix, size, path_);
  data_start_ = header.data_start;
  entries_ = std::move(header.entries);
  metadata_ = std::move(header.metadata);
}

std::vector<std::string> SafetensorsFile::names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : entries_) names.push_back(name);
  return names;
}

const SafetensorsEntry& SafetensorsFile::entry(const std::string& name) const {
  const auto found = entries_.find(name);
  if (found == entries_.end())
    throw UserError(path_ + " has no tensor named \"" + name +
                    "\": is this the model family's checkpoint?");
  return found->second;
}

// `size` bytes from `offset` into `out`, in one unbuffered fread: a stream's buffer would split
// them into small reads, and in the browser page each read from a worker waits on the main thread.
bool read_range(const std::string& path, uint64_t offset, uint64_t size, char* out) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  return file && std::setvbuf(file.get(), nullptr, _IONBF, 0) == 0 &&
         fseeko(file.get(), off_t(offset), SEEK_SET) == 0 &&
         std::fread(out, 1, size, file.get()) == size;
}

void SafetensorsFile::read_all() const {
  if (section_.has_values() || entries_.empty()) return;
  uint64_t end = 0;
  for (const auto& [name, e] : entries_) {
    if (e.dtype != "F32" || e.begin % sizeof(Scalar) != 0) return;  // read tensor by tensor
    end = std::max(end, e.end);
  }
  Tensor section = Tensor::empty(std::filesystem::path(path_).filename().string(),
                                 {int64_t((end + sizeof(Scalar) - 1) / sizeof(Scalar))});
  if (!read_range(path_, data_start_, end, reinterpret_cast<char*>(section.data())))
    refuse(path_, "ends inside its tensors (it changed since it was opened?)");
  section_ = section;
}

Tensor SafetensorsFile::load(const std::string& name) const {
  const SafetensorsEntry& e = entry(name);
  if (!decoder_for(e.dtype))  // before reading its bytes
    return decode_safetensors_tensor(path_, name, e, "");
  if (section_.has_values()) {  // F32 in place: a view of the section, checked for NaN and Inf
    const int64_t count = int64_t((e.end - e.begin) / sizeof(Scalar));
    const Tensor view = section_.narrow(0, int64_t(e.begin / sizeof(Scalar)), count).view(e.shape);
    const Scalar* values = view.data();
    for (int64_t i = 0; i < count; ++i)
      if (!std::isfinite(values[i]))
        refuse(path_,
               "tensor " + in_quotes(name) + " holds NaN or Inf at index " + std::to_string(i));
    return view;
  }
  std::string bytes(e.end - e.begin, '\0');
  if (!read_range(path_, data_start_ + e.begin, bytes.size(), bytes.data()))
    refuse(path_, "ends inside tensor " + in_quotes(name) + " (it changed since it was opened?)");
  return decode_safetensors_tensor(path_, name, e, bytes);
}

}  // namespace attnlab
