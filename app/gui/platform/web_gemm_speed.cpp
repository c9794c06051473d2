// The page's matrix-product speed, measured in the browser that runs it: the vector kernel
// (WebAssembly SIMD) against Eigen's product, on one thread, at the shapes a GPT-2-small layer
// and its output head have for 32 tokens. tests/web/model_timing.mjs prints it; anyone can call
// Module.ccall('attnlab_gemm_speed', 'string') in the console.
#include <emscripten/emscripten.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/tensor/vector_gemm.hpp"

namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The median of 5 runs of fn, in seconds.
template <typename Fn>
double median_seconds(Fn fn) {
  std::vector<double> runs;
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    runs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}

// {"shape":"32x768x2304 in-out","eigen":G,"vector":G} for y (rows, n) = x (rows, k) w.
std::string measure(int64_t rows, int64_t k, int64_t n, attnlab::WeightLayout layout) {
  const bool out_in = layout == attnlab::WeightLayout::OutIn;
  const Mat x = Mat::Random(rows, k);
  const Mat w = out_in ? Mat::Random(n, k) : Mat::Random(k, n);
  Mat y(rows, n);
  const double flops = 2.0 * double(rows) * double(k) * double(n);
  const double eigen = median_seconds([&] {
    if (out_in)
      y.noalias() = x * w.transpose();
    else
      y.noalias() = x * w;
  });
  const double vector = median_seconds([&] {
    attnlab::vector_gemm_columns(x.data(), rows, k, w.data(), layout, n, nullptr, 0, n, y.data());
  });
  return "{\"shape\":\"" + std::to_string(rows) + "x" + std::to_string(k) + "x" +
         std::to_string(n) + (out_in ? " out-in" : " in-out") +
         "\",\"eigen_gflops\":" + std::to_string(flops / eigen / 1e9) +
         ",\"vector_gflops\":" + std::to_string(flops / vector / 1e9) + "}";
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_gemm_speed() {
  static std::string json;
  json = "[" + measure(32, 768, 2304, attnlab::WeightLayout::InOut) + "," +
         measure(32, 768, 3072, attnlab::WeightLayout::InOut) + "," +
         measure(32, 768, 8192, attnlab::WeightLayout::OutIn) + "]";
  return json.c_str();
}
