// attnlab-cli --flash BR:BC: the config's attention computed by FlashAttention's tiled kernel
// (core/flash/) instead of the traced run, so it also runs where the trace is refused by the
// memory cap. Prints the tiles computed and skipped, the FLOPs and the bytes held against the
// ordinary path's; --export writes out.npy and, for T up to 256, the recorded sweep's flash_m.npy
// and flash_l.npy (every row's m and l after each step, (steps, T)) of head 0 of sequence 0.
#pragma once

#include "app/cli/options.hpp"

namespace attnlab::cli {

// Returns the exit code. Throws UserError for a config the tiled kernel cannot compute.
int run_flash(const Request& request);

}  // namespace attnlab::cli
