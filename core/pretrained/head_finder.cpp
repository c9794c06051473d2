#include "core/pretrained/head_finder.hpp"

#include <algorithm>
#include <cmath>

#include "core/kernels/rng.hpp"

namespace attnlab {

std::vector<int64_t> induction_sequence(int64_t vocab, int64_t n, uint64_t seed) {
  const int64_t low = vocab > 1000 ? 100 : 0;
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < n; ++i)
    ids.push_back(low + int64_t(uniform_at(seed, i) * double(vocab - low)) % (vocab - low));
  for (int64_t i = 0; i < n; ++i) ids.push_back(ids[size_t(i)]);
  return ids;
}

std::vector<FoundHead> find_heads(const PretrainedModel& model, const PretrainedRun& sentence,
                                  int64_t n, uint64_t seed) {
  int64_t limit = model.position_embedding.has_values() ? model.spec.max_positions / 2 : n;
  const PretrainedRun repeated = run_pretrained(
      model, induction_sequence(model.spec.vocab, std::min(n, limit), seed), {}, false);
  const int64_t T = int64_t(sentence.ids.size()), R = int64_t(repeated.ids.size()), half = R / 2;
  std::vector<FoundHead> out;
  for (int64_t l = 0; l < int64_t(sentence.layers.size()); ++l) {
    const Tensor& w = sentence.layers[size_t(l)].weights;   // (1, h, T, T)
    const Tensor& wr = repeated.layers[size_t(l)].weights;  // (1, h, R, R)
    for (int64_t hd = 0; hd < w.size(1); ++hd) {
      FoundHead f{l, hd};
      const float* map = w.data() + hd * T * T;
      for (int64_t t = 0; t < T; ++t) {
        const float* row = map + t * T;  // query t's weights over the keys
        if (t >= 1) {
          f.previous += row[t - 1];
          f.first += row[0];
        }
        f.same += row[t];
        for (int64_t j = 0; j < T; ++j)
          if (row[j] > 0) f.entropy -= double(row[j]) * std::log2(double(row[j]));
      }
      f.previous = T > 1 ? f.previous / double(T - 1) : 0;
      f.first = T > 1 ? f.first / double(T - 1) : 0;
      f.same /= double(T);
      f.entropy /= double(T);
      const float* rmap = wr.data() + hd * R * R;
      for (int64_t t = half; t < R; ++t) f.induction += rmap[t * R + (t - half + 1)];
      f.induction /= double(half);
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace attnlab
