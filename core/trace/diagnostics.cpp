#include "core/trace/diagnostics.hpp"

#include <Eigen/Core>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/kernels/parallel.hpp"
#include "core/model/masks.hpp"
#include "core/model/tokenizer.hpp"

namespace attnlab {

namespace {

using RowArray = Eigen::Array<Scalar, Eigen::Dynamic, 1>;

int64_t count_nonfinite_in(const TensorRecord& r) {
  const Scalar* values = r.tensor.storage()->values.data();
  const int64_t n = r.tensor.storage()->numel;
  const bool minus_inf_allowed = r.name == "masked";
  std::atomic<int64_t> bad{0};
  parallel_for(n, double(n), [&](int64_t begin, int64_t end) {
    const Eigen::Map<const RowArray> v(values + begin, end - begin);
    int64_t found = (!v.isFinite()).count();
    if (minus_inf_allowed) found -= (v == -std::numeric_limits<Scalar>::infinity()).count();
    bad += found;
  });
  return bad;
}

// NaN/Inf anywhere except the -inf that masking writes on purpose. A NaN or Inf upstream reaches
// the weights, the context or the output (0 * NaN is NaN), so those are scanned first and the
// whole trace only when they hold one, to name where it started.
void count_nonfinite(Trace& trace) {
  Diagnostics& d = trace.diagnostics;
  bool suspicious = false;
  for (const TensorRecord& r : trace.records) {
    const bool final_product = r.name == "weights" || r.name == "context" || r.name == "out";
    if (final_product && !r.is_view && r.tensor.has_values())
      suspicious |= count_nonfinite_in(r) > 0;
  }
  if (!suspicious) return;
  for (const TensorRecord& r : trace.records) {
    if (r.is_view || !r.tensor.has_values()) continue;
    const int64_t bad = count_nonfinite_in(r);
    if (bad > 0 && d.nonfinite_values == 0) d.first_nonfinite = r.name;
    d.nonfinite_values += bad;
  }
}

// What one query row of one head contributes to the diagnostics.
struct RowCheck {
  double sum_error = 0, entropy = 0, max_masked_weight = 0;
  int64_t masked = 0, masked_nonzero = 0, visible_keys = 0;
};

RowCheck check_row(const Scalar* weights, const uint8_t* visible, int64_t T) {
  RowCheck check;
  const Eigen::Map<const RowArray> w(weights, T);
  if (visible) {
    for (int64_t j = 0; j < T; ++j) {
      if (visible[j]) {
        ++check.visible_keys;
        continue;
      }
      ++check.masked;
      if (weights[j] != 0.0f) ++check.masked_nonzero;
      check.max_masked_weight = std::max(check.max_masked_weight, double(weights[j]));
    }
  } else {
    check.visible_keys = T;
  }
  if (check.visible_keys == 0) return check;  // an empty row sums to 0 by design
  check.sum_error = std::abs(double(w.sum()) - 1.0);
  // -sum p log2 p, vectorised. max(p, FLT_MIN) changes no normal float and makes p = 0
  // contribute 0 * log(FLT_MIN) = 0, without a select that would cost a second pass.
  const Scalar smallest = std::numeric_limits<Scalar>::min();
  check.entropy = -double((w * w.max(smallest).log()).sum()) / std::log(2.0);
  return check;
}

// (B, T, h, h) weights when the transpose was forgotten: the heads are the rows and the keys, and
// the (T, T) mask never applied.
bool heads_are_rows(const Config& c) {
  return c.mistake == Mistake::ForgetTranspose;
}

}  // namespace

void diagnose(Trace& trace) {
  const Config& c = trace.config;
  Diagnostics& d = trace.diagnostics;
  const Tensor& weights = trace.find("weights")->tensor;  // (L0, L1, M, N), contiguous
  // (B, h, T, T) in a correct run; (B, T, h, h) when the transpose was forgotten.
  const bool heads_are_rows = attnlab::heads_are_rows(c);
  const int64_t L1 = weights.size(1), M = weights.size(2), N = weights.size(3);
  const int64_t rows_total = weights.numel() / N;
  const int64_t heads = heads_are_rows ? M : L1;
  const std::vector<uint8_t> visible =
      c.mask.any() && !heads_are_rows ? visibility(c.mask, c.batch, M, N) : std::vector<uint8_t>{};

  // Rows are checked in parallel into per-row results, then summed in order (deterministic).
  std::vector<RowCheck> rows(static_cast<size_t>(rows_total));
  parallel_for(rows_total, 10.0 * double(weights.numel()), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {  // row = (b*h + hd)*T + i when (B, h, T, T)
      const int64_t b = row / (L1 * M), i = row % M;
      rows[size_t(row)] =
          check_row(weights.data() + row * N,
                    visible.empty() ? nullptr : visible.data() + (b * M + i) * N, N);
    }
  });
  d.head_entropy_bits.assign(static_cast<size_t>(heads), 0.0);
  std::vector<int64_t> rows_counted(static_cast<size_t>(heads), 0);
  for (int64_t row = 0; row < rows_total; ++row) {
    const RowCheck& r = rows[size_t(row)];
    const int64_t b = row / (L1 * M), hd = heads_are_rows ? row % M : (row / M) % L1, i = row % M;
    d.masked_entries += r.masked;
    d.masked_nonzero += r.masked_nonzero;
    d.max_masked_weight = std::max(d.max_masked_weight, r.max_masked_weight);
    if (r.visible_keys == 0) {
      if (hd == 0) d.empty_rows.push_back({b, i});
      continue;
    }
    d.max_row_sum_error = std::max(d.max_row_sum_error, r.sum_error);
    d.head_entropy_bits[size_t(hd)] += r.entropy;
    ++rows_counted[size_t(hd)];
    // Every head has the same queries with keys (the mask is per sequence), so averaging over all
    // rows gives each head's average over its (b, i).
    d.uniform_entropy_bits += std::log2(double(r.visible_keys));
  }
  int64_t rows_with_keys = 0;
  for (size_t hd = 0; hd < d.head_entropy_bits.size(); ++hd) {
    if (rows_counted[hd] > 0) d.head_entropy_bits[hd] /= double(rows_counted[hd]);
    rows_with_keys += rows_counted[hd];
  }
  if (rows_with_keys > 0) d.uniform_entropy_bits /= double(rows_with_keys);
  count_nonfinite(trace);
}

double fraction_of_uniform(const Diagnostics& d, size_t head) {
  assert(head < d.head_entropy_bits.size());
  return d.uniform_entropy_bits > 0 ? d.head_entropy_bits[head] / d.uniform_entropy_bits : 0.0;
}

std::string describe_uniform_entropy(const Trace& t) {
  const Config& c = t.config;
  char bits[32];
  std::snprintf(bits, sizeof bits, "%.2f bits", t.diagnostics.uniform_entropy_bits);
  if (heads_are_rows(c)) return "uniform over h = " + std::to_string(c.n_heads) + " keys: " + bits;
  if (c.mask.any()) return std::string("uniform over each query's visible keys: ") + bits;
  return std::string("uniform over ") + (c.cross() ? "T_k = " : "T = ") +
         std::to_string(c.key_tokens()) + " keys: " + bits;
}

std::vector<std::string> notices_for(const Config& c) {
  std::vector<std::string> notices;
  if (c.sentence.empty()) return notices;  // no sentence asks for the sample text
  const auto n = static_cast<int64_t>(tokenize(c.sentence).size());
  if (n == 0) {
    notices.push_back(sample_text_notice("the sentence", c.sentence));
  } else if (c.seq_len == 0 && n > kMaxTokens) {
    notices.push_back("the sentence has " + std::to_string(n) + " tokens; only the first " +
                      std::to_string(kMaxTokens) + " are used");
  } else if (c.seq_len > 0 && c.seq_len < n) {
    notices.push_back("the sentence has " + std::to_string(n) + " tokens; T=" +
                      std::to_string(c.seq_len) + " keeps the first " + std::to_string(c.seq_len));
  } else if (c.seq_len > n) {
    notices.push_back("the sentence has " + std::to_string(n) +
                      " tokens; it is repeated to fill T=" + std::to_string(c.seq_len));
  }
  return notices;
}

}  // namespace attnlab
