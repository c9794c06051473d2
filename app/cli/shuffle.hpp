// attnlab-cli --shuffle SEED: word order's first demonstration. The original sentence is run,
// then the same tokens in a shuffled order; the shuffled run is the one printed and exported,
// followed by how far each head's map is from the original's with rows and columns permuted.
#pragma once

#include <ostream>

#include "app/cli/options.hpp"
#include "core/position/shuffle.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::cli {

struct ShuffleDemo {
  Trace original;
  std::vector<int64_t> permutation;
};

// Runs the request's config as given, then rewrites the request to the shuffled sentence (and a
// given x's rows). Throws UserError when it cannot be shuffled.
ShuffleDemo shuffle_request(Request& request, uint64_t seed);

// The permutation, the new order of the tokens, and per head max |A' - P A P^T| and the output's.
void print_shuffle(std::ostream& out, const ShuffleDemo& demo, const Trace& shuffled);

}  // namespace attnlab::cli
