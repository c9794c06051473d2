// --export's files: the names of the issue, C-order float32 values equal to the trace, and a
// trace.json that describes every stage. Nothing half-written on failure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/model/errors.hpp"
#include "core/trace/export.hpp"
#include "core/trace/mha.hpp"
#include "core/tensor/npy.hpp"
#include "core/model/preset.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("attnlab_test_" + name);
  fs::remove_all(dir);
  return dir;
}

TEST(Export, WritesEveryStageUnderItsName) {
  const Preset p = find_preset("seed002");
  const Trace trace = run(p.config, p.inputs);
  const fs::path dir = fresh_dir("export");
  export_trace(trace, dir.string());
  for (const char* name :
       {"x",       "q",       "k",       "v",      "q_split", "k_split", "v_split",
        "q_heads", "k_heads", "v_heads", "scores", "scaled",  "masked",  "weights",
        "context", "concat",  "out",     "w_q",    "w_k",     "w_v",     "w_o"}) {
    const fs::path file = dir / (std::string(name) + ".npy");
    ASSERT_TRUE(fs::exists(file)) << file;
    const Tensor loaded = load_npy(file.string(), name);
    const Tensor& original = trace.find(name)->tensor;
    EXPECT_EQ(loaded.shape(), original.shape()) << name;
    EXPECT_EQ(loaded.to_vector(), original.to_vector()) << name;  // logical order, exact
  }
  EXPECT_NEAR(load_npy((dir / "out.npy").string(), "out").at({0, 2, 3}), -0.12031059, 1e-6);
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  fs::remove_all(dir);
}

TEST(Export, MaskedFileHoldsMinusInfinity) {
  Config c;
  c.seq_len = 4;
  c.mask.causal = true;
  const fs::path dir = fresh_dir("masked");
  export_trace(run(c), dir.string());
  std::ifstream file(dir / "masked.npy", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), {});
  // parse_npy refuses non-finite values, so read the float of (0, 0, 0, 1) from the raw data.
  float value;
  std::memcpy(&value, bytes.data() + bytes.size() - 2 * 16 * 4 + 1 * 4, 4);
  EXPECT_TRUE(std::isinf(value) && value < 0);
  fs::remove_all(dir);
}

TEST(Export, TraceJsonDescribesStridesAndDiagnostics) {
  Config c;
  c.batch = 2;
  c.seq_len = 5;
  c.d_model = 12;
  c.n_heads = 3;
  const std::string text = trace_to_json(run(c));
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["config"]["n_heads"], 3);
  bool found = false;
  for (const auto& stage : j["stages"]) {
    if (stage["name"] != "q_heads") continue;
    found = true;
    EXPECT_EQ(stage["shape"], nlohmann::json({2, 3, 5, 4}));
    EXPECT_EQ(stage["strides"], nlohmann::json({60, 4, 12, 1}));
    EXPECT_EQ(stage["contiguous"], false);
    EXPECT_EQ(stage["storage"], "q");
    EXPECT_EQ(stage["stage"], "transpose");
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(j["diagnostics"]["head_entropy_bits"].size(), 3u);
  EXPECT_EQ(j["per_stage"].size(), 7u);
  EXPECT_GT(j["counters"]["tensor_bytes"].get<int64_t>(), 0);
}

TEST(Export, UnwritableFolderIsAClearErrorAndLeavesNothing) {
  const Trace trace = run(Config{});
  try {
    export_trace(trace, "/proc/attnlab_cannot_be_here");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create the export folder"), std::string::npos);
  }
  const fs::path file = fresh_dir("file_in_the_way");
  std::ofstream(file.string()) << "x";
  EXPECT_THROW(export_trace(trace, file.string()), UserError);
  fs::remove(file);
}

TEST(Export, ShapeOnlyTracesHaveNothingToExport) {
  Config c;
  c.shape_only = true;
  EXPECT_THROW(export_trace(run(c), fresh_dir("shape_only").string()), UserError);
}

}  // namespace
}  // namespace attnlab
