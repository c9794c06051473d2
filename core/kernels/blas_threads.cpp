#include "core/kernels/blas_threads.hpp"

#include <mutex>

extern "C" void openblas_set_num_threads(int threads);

namespace attnlab {

void use_single_threaded_blas() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

}  // namespace attnlab
