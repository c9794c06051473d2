// `attnlab-cli train ...`: trains the attention-only transformer of issue 12 on a synthetic task
// and saves it (core/training/model_io.hpp), or with --steps 0 --grads DIR2 writes one batch's
// loss and gradients for checking against an autograd.
#pragma once

namespace attnlab::cli {

// argv[0] is "train". Exit codes: 0 ok, 2 bad input (one line on stderr).
int run_train(int argc, char** argv);

}  // namespace attnlab::cli
