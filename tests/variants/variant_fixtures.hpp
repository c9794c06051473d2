// What the variant tests share: a small config, its completed inputs, and comparing a traced
// tensor with the naive reference.
#pragma once

#include <gtest/gtest.h>

#include "core/model/inputs.hpp"
#include "core/model/tokenizer.hpp"
#include "core/trace/mha.hpp"
#include "reference_variants.hpp"

namespace attnlab::testing {

inline Config small_config(int64_t B, int64_t T, int64_t d_model, int64_t h, int64_t n_kv) {
  Config c;
  c.batch = B;
  c.seq_len = T;
  c.d_model = d_model;
  c.n_heads = h;
  c.n_kv_heads = n_kv;
  c.seed = 5;
  return c;
}

// The inputs run() would make, made here so the reference reads the same ones.
inline Inputs inputs_for(const Config& c, Inputs given = {}) {
  return complete_inputs(c, tokens_for(c.sentence, c.tokens()), std::move(given),
                         c.cross() && !given.x_kv.storage()
                             ? tokens_for(c.sentence_kv, c.key_tokens())
                             : std::vector<std::string>{});
}

// max |traced - reference| over a recorded tensor's values in logical order.
inline double worst(const Trace& t, const std::string& name, const std::vector<double>& want) {
  const TensorRecord* r = t.find(name);
  if (r == nullptr) {
    ADD_FAILURE() << "no record " << name;
    return 1e9;
  }
  const std::vector<Scalar> got = r->tensor.to_vector();
  EXPECT_EQ(got.size(), want.size()) << name;
  return max_abs_diff(got, want);
}

}  // namespace attnlab::testing
