#include "app/cli/shuffle.hpp"

#include <cstdio>

#include "core/trace/mha.hpp"

namespace attnlab::cli {

ShuffleDemo shuffle_request(Request& request, uint64_t seed) {
  require_values(request.config, "--shuffle");
  ShuffleDemo demo{run(request.config, request.inputs), {}};
  ShuffledRun shuffled = shuffle_tokens(request.config, demo.original.tokens, request.inputs, seed);
  request.config = shuffled.config;
  request.inputs = shuffled.given;
  demo.permutation = std::move(shuffled.permutation);
  return demo;
}

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

}  // namespace

void print_shuffle(std::ostream& out, const ShuffleDemo& demo, const Trace& shuffled) {
  out << "\nWord order: the tokens shuffled (--pos " << position_encoding_name(shuffled.config.pos)
      << ")\n";
  out << "  position i now holds token p(i) = ";
  for (size_t i = 0; i < demo.permutation.size(); ++i) out << (i ? " " : "") << demo.permutation[i];
  out << "\n  new order: ";
  for (size_t i = 0; i < shuffled.tokens.size(); ++i) out << (i ? " " : "") << shuffled.tokens[i];
  out << "\n";
  const PermutationCheck check = compare_permuted(demo.original, shuffled, demo.permutation);
  for (size_t hd = 0; hd < check.map_difference.size(); ++hd)
    out << "  head " << hd
        << ": max |A'[i,j] - A[p(i),p(j)]| = " << number(check.map_difference[hd]) << "\n";
  out << "  output: max |out'[i] - out[p(i)]| = " << number(check.out_difference) << "\n";
  if (check.equivariant()) {
    out << "  equal up to float rounding: attention saw the same set of tokens and no order\n";
  } else {
    out << "  the maps changed: position information (";
    out << (shuffled.config.pos != PositionEncoding::None
                ? position_encoding_name(shuffled.config.pos)
                : std::string_view("the mask"));
    out << ") told attention where each token sits\n";
  }
}

}  // namespace attnlab::cli
