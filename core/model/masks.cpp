#include "core/model/masks.hpp"

#include <cstdlib>

namespace attnlab {

bool key_visible(const MaskSpec& m, int64_t b, int64_t i, int64_t j) {
  if (m.causal && j > i) return false;
  if (!m.padding_lengths.empty()) {
    const size_t which = m.padding_lengths.size() == 1 ? 0 : static_cast<size_t>(b);
    if (j >= m.padding_lengths[which]) return false;
  }
  if (m.window > 0) {
    const bool global = i < m.global_tokens || j < m.global_tokens;
    if (!global && std::llabs(i - j) > m.window) return false;
  }
  return true;
}

std::vector<uint8_t> visibility(const MaskSpec& m, int64_t batch, int64_t T, int64_t T_k) {
  std::vector<uint8_t> visible(static_cast<size_t>(batch * T * T_k));
  size_t k = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < T; ++i)
      for (int64_t j = 0; j < T_k; ++j) visible[k++] = key_visible(m, b, i, j) ? 1 : 0;
  return visible;
}

std::string describe(const MaskSpec& m) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " + ") + part; };
  if (m.causal) add("causal");
  if (!m.padding_lengths.empty()) {
    std::string lengths;
    for (int64_t l : m.padding_lengths) lengths += (lengths.empty() ? "" : ",") + std::to_string(l);
    add("padding:" + lengths);
  }
  if (m.window > 0) {
    add("window:" + std::to_string(m.window) +
        (m.global_tokens > 0 ? ":" + std::to_string(m.global_tokens) : ""));
  }
  return text.empty() ? "none" : text;
}

}  // namespace attnlab
