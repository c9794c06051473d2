#include "core/position/position_encoding.hpp"

#include <cmath>

namespace attnlab {

namespace {

struct Named {
  PositionEncoding encoding;
  std::string_view name;
};

constexpr Named kNames[] = {{PositionEncoding::None, "none"},
                            {PositionEncoding::Sinusoidal, "sinusoidal"},
                            {PositionEncoding::Learned, "learned"},
                            {PositionEncoding::Rope, "rope"},
                            {PositionEncoding::Alibi, "alibi"}};

}  // namespace

std::string_view position_encoding_name(PositionEncoding encoding) {
  for (const Named& n : kNames)
    if (n.encoding == encoding) return n.name;
  return "none";
}

std::optional<PositionEncoding> parse_position_encoding(std::string_view name) {
  for (const Named& n : kNames)
    if (n.name == name) return n.encoding;
  return std::nullopt;
}

const std::vector<PositionEncoding>& all_position_encodings() {
  static const std::vector<PositionEncoding> all = [] {
    std::vector<PositionEncoding> v;
    for (const Named& n : kNames) v.push_back(n.encoding);
    return v;
  }();
  return all;
}

std::string position_encoding_choices() {
  std::string out;
  for (const Named& n : kNames) {
    if (!out.empty()) out += '|';
    out += n.name;
  }
  return out;
}

bool is_additive(PositionEncoding encoding) {
  return encoding == PositionEncoding::Sinusoidal || encoding == PositionEncoding::Learned;
}

std::vector<double> sinusoidal_table(int64_t T, int64_t d) {
  std::vector<double> pe(static_cast<size_t>(T * d));  // (T, d)
  for (int64_t i = 0; i < d; ++i) {
    const double w = std::pow(10000.0, -static_cast<double>(i - i % 2) / static_cast<double>(d));
    for (int64_t t = 0; t < T; ++t) {
      const double angle = static_cast<double>(t) * w;
      pe[static_cast<size_t>(t * d + i)] = i % 2 == 0 ? std::sin(angle) : std::cos(angle);
    }
  }
  return pe;
}

std::vector<double> rope_inverse_frequencies(int64_t d, double theta) {
  std::vector<double> inv(static_cast<size_t>(d / 2));
  for (int64_t i = 0; i < d / 2; ++i)
    inv[static_cast<size_t>(i)] =
        std::pow(theta, -static_cast<double>(2 * i) / static_cast<double>(d));
  return inv;
}

std::vector<double> alibi_slopes(int64_t heads) {
  std::vector<double> slopes(static_cast<size_t>(heads));
  for (int64_t h = 0; h < heads; ++h)
    slopes[static_cast<size_t>(h)] =
        std::pow(2.0, -8.0 * static_cast<double>(h + 1) / static_cast<double>(heads));
  return slopes;
}

}  // namespace attnlab
