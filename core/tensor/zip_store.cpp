#include "core/tensor/zip_store.hpp"

#include <array>
#include <limits>

#include "core/model/errors.hpp"

namespace attnlab {

namespace {

void put16(std::string& out, uint32_t value) {
  out.push_back(char(value & 0xff));
  out.push_back(char((value >> 8) & 0xff));
}

void put32(std::string& out, uint32_t value) {
  put16(out, value & 0xffff);
  put16(out, value >> 16);
}

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEnd = 0x06054b50;
constexpr uint32_t kVersion = 20;          // 2.0: the oldest that reads folders and stored files
constexpr uint32_t kUtf8Names = 1u << 11;  // general purpose flag: names are UTF-8
constexpr uint32_t kDosDate = (2026 - 1980) << 9 | 1 << 5 | 1;  // a fixed date: reproducible

}  // namespace

uint32_t crc32(const std::string& bytes) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (const char byte : bytes) crc = table[(crc ^ uint8_t(byte)) & 0xff] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string zip_store(const std::vector<std::pair<std::string, std::string>>& files) {
  constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
  if (files.size() > 0xffff)
    throw UserError("cannot zip " + std::to_string(files.size()) +
                    " files (at most 65535): export fewer tensors");
  std::string out, central;
  for (const auto& file : files) {
    const std::string& name = file.first;  // not a structured binding: lambdas capture these
    const std::string& contents = file.second;
    if (out.size() + contents.size() + name.size() + 30 > kMax)
      throw UserError("the export is over 4 GiB, more than a zip holds: lower B, T or n_heads");
    const uint32_t offset = uint32_t(out.size());
    const uint32_t crc = crc32(contents);
    const auto header = [&](std::string& to, bool local) {
      put32(to, local ? kLocalHeader : kCentralHeader);
      if (!local) put16(to, kVersion);  // made by
      put16(to, kVersion);              // needed to extract
      put16(to, kUtf8Names);
      put16(to, 0);  // stored
      put16(to, 0);  // time
      put16(to, kDosDate);
      put32(to, crc);
      put32(to, uint32_t(contents.size()));  // compressed = uncompressed
      put32(to, uint32_t(contents.size()));
      put16(to, uint32_t(name.size()));
      put16(to, 0);  // extra field length
      if (!local) {
        put16(to, 0);  // comment length
        put16(to, 0);  // disk number
        put16(to, 0);  // internal attributes
        put32(to, 0);  // external attributes
        put32(to, offset);
      }
      to += name;
    };
    header(out, true);
    out += contents;
    header(central, false);
  }
  const uint32_t central_offset = uint32_t(out.size());
  out += central;
  put32(out, kEnd);
  put16(out, 0);  // this disk
  put16(out, 0);  // disk with the central directory
  put16(out, uint32_t(files.size()));
  put16(out, uint32_t(files.size()));
  put32(out, uint32_t(central.size()));
  put32(out, central_offset);
  put16(out, 0);  // comment length
  return out;
}

}  // namespace attnlab
