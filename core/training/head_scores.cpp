#include "core/training/head_scores.hpp"

#include <cmath>

namespace attnlab::training {

template <typename S>
std::vector<HeadScores> head_scores(const ModelShape& s, const Batch& batch,
                                    const ForwardCache<S>& cache) {
  const int64_t B = batch.batch, T = batch.seq_len, h = s.heads;
  std::vector<HeadScores> out;
  for (int64_t l = 0; l < int64_t(cache.layers.size()); ++l) {
    const Matrix<S>& w = cache.layers[size_t(l)].weights;  // (B*h*T, T)
    for (int64_t hd = 0; hd < h; ++hd) {
      HeadScores sc;
      sc.layer = l;
      sc.head = hd;
      int64_t prefix_queries = 0;
      for (int64_t b = 0; b < B; ++b) {
        const int64_t* tok = batch.tokens.data() + b * T;
        for (int64_t t = 0; t < T; ++t) {
          const S* row = &w((b * h + hd) * T + t, 0);  // query t's weights over the T keys
          if (t >= 1) {
            sc.previous += double(row[t - 1]);
            sc.first += double(row[0]);
          }
          sc.same += double(row[t]);
          sc.mirror += double(row[T - 1 - t]);
          double matched = 0;
          bool has_match = false;
          for (int64_t j = 1; j <= t; ++j) {
            if (tok[j - 1] == tok[t]) {
              matched += double(row[j]);
              has_match = true;
            }
          }
          if (has_match) {
            sc.prefix += matched;
            ++prefix_queries;
          }
          for (int64_t j = 0; j < T; ++j)
            if (row[j] > 0) sc.entropy -= double(row[j]) * std::log(double(row[j]));
        }
      }
      const double queries = double(B * T), later = double(B * (T - 1));
      sc.previous /= later;
      sc.first /= later;
      sc.same /= queries;
      sc.mirror /= queries;
      sc.entropy /= queries;
      sc.prefix = prefix_queries ? sc.prefix / double(prefix_queries) : 0.0;
      out.push_back(sc);
    }
  }
  return out;
}

template std::vector<HeadScores> head_scores<float>(const ModelShape&, const Batch&,
                                                    const ForwardCache<float>&);
template std::vector<HeadScores> head_scores<double>(const ModelShape&, const Batch&,
                                                     const ForwardCache<double>&);

}  // namespace attnlab::training
