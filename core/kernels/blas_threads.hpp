// OpenBLAS would start its own thread pool inside every product; the core already splits work
// over the cores itself (parallel.hpp), so each product must run on the thread that calls it.
#pragma once

namespace attnlab {

// Sets OpenBLAS to one thread, once per process; cheap to call at every entry point.
void use_single_threaded_blas();

}  // namespace attnlab
