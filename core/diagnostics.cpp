#include "core/diagnostics.hpp"

#include <cmath>

#include "core/attention_math.hpp"
#include "core/masks.hpp"
#include "core/tokenizer.hpp"

namespace attnlab {

namespace {

// NaN/Inf anywhere except the -inf that masking writes on purpose.
void count_nonfinite(Trace& trace) {
  Diagnostics& d = trace.diagnostics;
  for (const TensorRecord& r : trace.records) {
    if (r.is_view || !r.tensor.has_values()) continue;
    const bool minus_inf_allowed = r.name == "masked";
    for (Scalar v : r.tensor.storage()->values) {
      if (std::isfinite(v) || (minus_inf_allowed && std::isinf(v) && v < 0)) continue;
      if (d.nonfinite_values++ == 0) d.first_nonfinite = r.name;
    }
  }
}

}  // namespace

void diagnose(Trace& trace) {
  const Config& c = trace.config;
  const int64_t B = c.batch, h = c.n_heads, T = c.tokens();
  Diagnostics& d = trace.diagnostics;
  const Tensor& weights = trace.find("weights")->tensor;  // (B, h, T, T), contiguous
  const std::vector<uint8_t> visible = visibility(c.mask, B, T);

  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < T; ++i) {
      bool any = false;
      for (int64_t j = 0; j < T; ++j) any = any || visible[(b * T + i) * T + j];
      if (!any) d.empty_rows.push_back({b, i});
    }

  d.head_entropy_bits.assign(static_cast<size_t>(h), 0.0);
  std::vector<int64_t> rows_counted(static_cast<size_t>(h), 0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t hd = 0; hd < h; ++hd)
      for (int64_t i = 0; i < T; ++i) {
        const Scalar* row = weights.data() + ((b * h + hd) * T + i) * T;
        const uint8_t* seen = visible.data() + (b * T + i) * T;
        double sum = 0.0;
        bool any = false;
        for (int64_t j = 0; j < T; ++j) {
          sum += row[j];
          any = any || seen[j];
          if (seen[j]) continue;
          ++d.masked_entries;
          if (row[j] != 0.0f) ++d.masked_nonzero;
        }
        if (!any) continue;  // an empty row sums to 0 by design; it is listed in empty_rows
        d.max_row_sum_error = std::max(d.max_row_sum_error, std::abs(sum - 1.0));
        d.head_entropy_bits[static_cast<size_t>(hd)] += entropy_bits(row, T);
        ++rows_counted[static_cast<size_t>(hd)];
      }
  for (size_t hd = 0; hd < d.head_entropy_bits.size(); ++hd) {
    if (rows_counted[hd] > 0) d.head_entropy_bits[hd] /= double(rows_counted[hd]);
  }
  count_nonfinite(trace);
}

std::vector<std::string> notices_for(const Config& c) {
  std::vector<std::string> notices;
  if (c.sentence.empty()) return notices;
  const auto n = static_cast<int64_t>(tokenize(c.sentence).size());
  if (n == 0) {
    notices.push_back("the sentence has no words or punctuation; the sample text is used instead");
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
