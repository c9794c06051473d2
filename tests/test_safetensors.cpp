// Reading Hugging Face checkpoints: .safetensors files written here byte by byte as the format
// specifies (an 8-byte little-endian header length, the JSON header, the data), with values whose
// F16/BF16 bits are derived by hand; sharded folders; and files that lie about themselves.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/checkpoints/checkpoint_weights.hpp"
#include "core/checkpoints/safetensors.hpp"
#include "core/model/errors.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

struct Blob {
  std::string name, dtype, shape;  // shape as JSON, e.g. "[2, 3]"
  std::string bytes;
};

std::string le16(uint16_t v) {
  return {char(v & 0xFF), char(v >> 8)};
}
std::string le32f(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  std::string out;
  for (int i = 0; i < 4; ++i) out += char((bits >> (8 * i)) & 0xFF);
  return out;
}

// The file as the safetensors library lays it out: tensors back to back in the order given.
std::string safetensors_bytes(const std::vector<Blob>& blobs, const std::string& extra = "") {
  std::string header = "{\"__metadata__\": {\"format\": \"pt\"}" + extra;
  std::string data;
  for (const Blob& b : blobs) {
    header += ", \"" + b.name + "\": {\"dtype\": \"" + b.dtype + "\", \"shape\": " + b.shape +
              ", \"data_offsets\": [" + std::to_string(data.size()) + ", " +
              std::to_string(data.size() + b.bytes.size()) + "]}";
    data += b.bytes;
  }
  header += "}";
  std::string length;
  for (int i = 0; i < 8; ++i) length += char((uint64_t(header.size()) >> (8 * i)) & 0xFF);
  return length + header + data;
}

class Safetensors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("attnlab_safetensors_" +
           std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  }
  // The message a file's open (or load of `tensor`) is refused with.
  std::string refusal(const std::string& bytes, const std::string& tensor = "") {
    const std::string path = write("bad.safetensors", bytes);
    try {
      SafetensorsFile file(path);
      if (!tensor.empty()) file.load(tensor);
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir;
};

TEST(HalfFloats, BitsDecodeToTheirHandDerivedValues) {
  EXPECT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_to_float(0xC000), -2.0f);
  EXPECT_EQ(half_to_float(0x3800), 0.5f);
  EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);         // the largest half
  EXPECT_EQ(half_to_float(0x0001), 5.9604645e-8f);    // 2^-24, the smallest subnormal
  EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);  // 1365/4096: 1/3 rounded to 10 bits
  EXPECT_EQ(half_to_float(0x8000), -0.0f);
  EXPECT_TRUE(std::isinf(half_to_float(0x7C00)));
  EXPECT_EQ(bfloat16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bfloat16_to_float(0xC040), -3.0f);
  EXPECT_EQ(bfloat16_to_float(0x3EAB), 0.333984375f);  // 0x3EAB0000
}

TEST_F(Safetensors, ReadsEachFloatDtypeWithItsShape) {
  std::string f32;
  for (float v : {1.5f, -2.25f, 3.0f, 0.125f, -7.0f, 1e-3f}) f32 += le32f(v);
  const std::string path =
      write("model.safetensors",
            safetensors_bytes({{"w_f32", "F32", "[2, 3]", f32},
                               {"w_f16", "F16", "[3]", le16(0x3C00) + le16(0xC000) + le16(0x3555)},
                               {"w_bf16", "BF16", "[1, 2]", le16(0x3F80) + le16(0xC040)},
                               {"ids", "I64", "[1]", std::string(8, '\0')}}));
  const SafetensorsFile file(path);
  EXPECT_EQ(file.names(), (std::vector<std::string>{"ids", "w_bf16", "w_f16", "w_f32"}));
  EXPECT_EQ(file.metadata().at("format"), "pt");
  const Tensor a = file.load("w_f32");
  ASSERT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.data()[1], -2.25f);
  EXPECT_EQ(a.data()[5], 1e-3f);
  const Tensor b = file.load("w_f16");
  EXPECT_EQ(b.data()[0], 1.0f);
  EXPECT_EQ(b.data()[1], -2.0f);
  EXPECT_EQ(b.data()[2], 0.333251953125f);
  const Tensor c = file.load("w_bf16");
  ASSERT_EQ(c.shape(), (Shape{1, 2}));
  EXPECT_EQ(c.data()[1], -3.0f);
  try {
    file.load("ids");
    ADD_FAILURE() << "an integer tensor loaded as weights";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("I64, not a float tensor"), std::string::npos) << e.what();
  }
}

TEST_F(Safetensors, FilesThatLieAboutThemselvesAreRefusedInOneLine) {
  const std::string good = safetensors_bytes({{"w", "F32", "[2]", le32f(1) + le32f(2)}});
  struct Case {
    std::string bytes, tensor, expected;
  } cases[] = {
      {"", "", "shorter than a safetensors header"},
      {good.substr(0, good.size() - 3), "", "outside the file's"},  // truncated data
      {std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + "{}", "", "-byte header in a"},
      {std::string("\x04\0\0\0\0\0\0\0", 8) + "nope", "", "header that is not JSON"},
      {safetensors_bytes({{"w", "F32", "[3]", le32f(1) + le32f(2)}}), "", "but its shape"},
      {safetensors_bytes({{"w", "Q4", "[2]", "ab"}}), "", "unknown dtype \"Q4\""},
      {safetensors_bytes({{"w", "F32", "[-2]", le32f(1) + le32f(2)}}), "", "not a list of sizes"},
      {safetensors_bytes({{"w", "F32", "[1]", le32f(NAN)}}), "w", "NaN or Inf at index 0"},
      {safetensors_bytes({{"w", "F16", "[1]", le16(0x7C00)}}), "w", "NaN or Inf"},
      {safetensors_bytes({{"w", "F32", "[1]", le32f(1)}}), "v", "no tensor named \"v\""},
  };
  for (const Case& c : cases) {
    const std::string message = refusal(c.bytes, c.tensor);
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "want '" << c.expected << "', got '" << message << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  // Two tensors over the same bytes.
  std::string header =
      "{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]},"
      " \"b\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}";
  std::string length;
  for (int i = 0; i < 8; ++i) length += char((header.size() >> (8 * i)) & 0xFF);
  EXPECT_NE(refusal(length + header + le32f(1)).find("same bytes: \"a\" and \"b\""),
            std::string::npos);
}

// Headers built to break the reader rather than to lie: names that would split the message's
// line or flood it, shapes whose strides overflow int64 though they hold no element, and files
// that are not regular (a named pipe would block the open for ever).
TEST_F(Safetensors, HostileHeadersAreRefusedInOneShortLine) {
  const std::string two = le32f(1) + le32f(2);
  struct Case {
    std::string bytes, expected;
  } cases[] = {
      {safetensors_bytes({{"a\\nb", "Q4", "[2]", "ab"}}), "tensor \"a\\nb\" has the unknown"},
      {safetensors_bytes({{std::string(5000, 'w'), "F32", "[3]", two}}), "...\" holds 8 bytes"},
      {safetensors_bytes({{"w", std::string(5000, 'Q'), "[2]", two}}), "unknown dtype \"QQQ"},
      {safetensors_bytes({{"w", "F32", "[0, 1125899906842624, 1125899906842624]", ""}}),
       "a shape too large to hold"},
      {safetensors_bytes({{"w", "F32", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]", le32f(1)}}),
       "more than 16 dimensions"},
  };
  for (const Case& c : cases) {
    const std::string message = refusal(c.bytes);
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "want '" << c.expected << "', got '" << message.substr(0, 300) << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_LT(message.size(), 400u) << message.substr(0, 300);
  }
  fs::create_directory(dir / "folder.safetensors");
  EXPECT_THROW(SafetensorsFile((dir / "folder.safetensors").string()), UserError);
}

// The checks on bytes in memory are the file's: a header cut short, and a tensor decoded from its
// bytes.
TEST(SafetensorsBytes, ParseAndDecodeWithoutAFile) {
  const std::string header = R"({"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}})";
  std::string bytes;
  for (int i = 0; i < 8; ++i) bytes += char((header.size() >> (8 * i)) & 0xFF);
  bytes += header + le16(0x3F80) + le16(0xC040);
  const SafetensorsHeader h = parse_safetensors_header(bytes, bytes.size(), "mem");
  EXPECT_EQ(h.data_start, 8 + header.size());
  const SafetensorsEntry& w = h.entries.at("w");
  const Tensor t = decode_safetensors_tensor("mem", "w", w, bytes.substr(h.data_start));
  EXPECT_EQ(t.data()[0], 1.0f);
  EXPECT_EQ(t.data()[1], -3.0f);
  EXPECT_THROW(decode_safetensors_tensor("mem", "w", w, "abc"), UserError);
  EXPECT_THROW(parse_safetensors_header(bytes.substr(0, 20), bytes.size(), "mem"), UserError);
}

TEST_F(Safetensors, AShardedFolderFindsEachTensorInItsShard) {
  write("model-00001-of-00002.safetensors",
        safetensors_bytes({{"layers.0.w", "F32", "[1]", le32f(4)}}));
  write("model-00002-of-00002.safetensors",
        safetensors_bytes({{"layers.1.w", "BF16", "[2]", le16(0x3F80) + le16(0xC040)}}));
  write("model.safetensors.index.json",
        R"({"metadata": {"total_size": 8}, "weight_map": {
              "layers.0.w": "model-00001-of-00002.safetensors",
              "layers.1.w": "model-00002-of-00002.safetensors"}})");
  const CheckpointWeights weights(dir.string());
  EXPECT_EQ(weights.names(), (std::vector<std::string>{"layers.0.w", "layers.1.w"}));
  EXPECT_EQ(weights.load("layers.0.w").data()[0], 4.0f);
  EXPECT_EQ(weights.load("layers.1.w").data()[1], -3.0f);
  EXPECT_EQ(weights.entry("layers.1.w").dtype, "BF16");
}

TEST_F(Safetensors, AFolderWithoutWeightsOrWithABadIndexSaysWhatIsMissing) {
  const auto refused = [&](const std::string& expected) {
    try {
      CheckpointWeights weights(dir.string());
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "opened; want '" << expected << "'";
  };
  refused("has no model.safetensors");
  write("pytorch_model.bin", "torch");
  refused("safe_serialization=True");
  write("model.safetensors.index.json", R"({"weight_map": {"w": "../elsewhere.safetensors"}})");
  refused("not a file name beside the index");
  write("model.safetensors.index.json", R"({"weight_map": {"w": "model-1.safetensors"}})");
  refused("which is not in the folder");
  write("model-1.safetensors", safetensors_bytes({{"v", "F32", "[1]", le32f(1)}}));
  refused("which does not hold it");
  write("model.safetensors.index.json", "[1, 2]");
  refused("is not a safetensors index");
}

}  // namespace
}  // namespace attnlab
