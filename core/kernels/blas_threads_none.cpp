// Builds without a BLAS (the browser's WebAssembly): Eigen's own products use the calling thread.
#include "core/kernels/blas_threads.hpp"

namespace attnlab {

void use_single_threaded_blas() {}

}  // namespace attnlab
