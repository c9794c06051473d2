// A matrix product written with 4-wide float vectors (GCC/Clang vector extensions), for where
// Eigen has no vector code of its own: WebAssembly, where these vectors compile to wasm SIMD128
// (the page is built with -msimd128) and Eigen 3.4's products stay scalar loops. Natively the
// same code compiles to SSE and is tested there against a plain triple loop.
#pragma once

#include <cstdint>

namespace attnlab {

// How the weight matrix is stored.
enum class WeightLayout {
  InOut,  // w (k, n) row-major: y = x w (GPT-2's Conv1D)
  OutIn,  // w (n, k) row-major: y = x wᵀ (nn.Linear, a tied output head)
};

// Columns [c0, c1) of y (rows, n) = x (rows, k) · w [+ bias (n)], every matrix row-major and
// contiguous (y's row stride is n). bias may be null. y must not alias x or w.
void vector_gemm_columns(const float* x, int64_t rows, int64_t k, const float* w,
                         WeightLayout layout, int64_t n, const float* bias, int64_t c0, int64_t c1,
                         float* y);

// True when this build has the vector kernel on (WebAssembly SIMD): products go through it.
constexpr bool kVectorGemmPreferred =
#if defined(__wasm_simd128__)
    true;
#else
    false;
#endif

}  // namespace attnlab
