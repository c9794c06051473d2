#include "tests/soak/random_changes.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace attnlab::soak {
namespace {

// Over the tokenizer's kMaxTokens: the sentence is truncated with a notice.
std::string very_long_sentence() {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += (i % 7 == 0 ? "attention " : "word ");
  return text;
}

std::string random_bytes(std::mt19937_64& rng, size_t length) {
  std::string text;
  for (size_t i = 0; i < length; ++i) text += static_cast<char>(rng() & 0xff);
  return text;
}

}  // namespace

int64_t RandomChanges::pick(int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(rng_);
}

bool RandomChanges::chance(double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng_) < p;
}

std::string RandomChanges::change_mask(Config& config) {
  MaskSpec& mask = config.mask;
  const int64_t T = config.seq_len > 0 ? config.seq_len : 8;
  switch (pick(0, 4)) {
    case 0:
      mask.causal = !mask.causal;
      return "causal=" + std::to_string(mask.causal);
    case 1: {
      mask.padding_lengths.clear();
      if (chance(0.3)) return "padding off";
      // One length for all, one per sequence, or a wrong count; lengths sometimes past T.
      const int64_t count = chance(0.4) ? 1 : config.batch + pick(-1, 1);
      for (int64_t i = 0; i < count && i < 8; ++i) mask.padding_lengths.push_back(pick(-1, T + 1));
      return "padding lengths x" + std::to_string(mask.padding_lengths.size());
    }
    case 2:
      mask.window = chance(0.3) ? 0 : pick(-1, 8);
      return "window=" + std::to_string(mask.window);
    case 3:
      mask.global_tokens = chance(0.5) ? 0 : pick(-1, T + 1);
      return "global_tokens=" + std::to_string(mask.global_tokens);
    default:
      mask = MaskSpec{};
      return "masks off";
  }
}

std::string RandomChanges::change_sentence(Config& config) {
  static const std::array<const char*, 7> kSentences = {
      "",
      "The cat sat on the mat.",
      "Ünïcödé wörds, 日本語のテキスト and emoji 😀🧠 side by side",
      "control\x01\x02\x03 chars\t\ttabs\r\nand\x7f delete",
      "   \t\n  ",
      "!!!???...,,,;;;",
      "a",
  };
  switch (pick(0, 3)) {
    case 0:
      config.sentence = very_long_sentence();
      return "sentence: 5000 words";
    case 1:
      config.sentence = random_bytes(rng_, static_cast<size_t>(pick(0, 200)));
      return "sentence: random bytes";
    case 2:
      config.sentence = std::string("embedded\0nul byte", 17);
      return "sentence: embedded NUL";
    default:
      config.sentence = kSentences[static_cast<size_t>(pick(0, kSentences.size() - 1))];
      return "sentence: sample " + std::to_string(config.sentence.size()) + " bytes";
  }
}

std::string RandomChanges::apply(Config& config) {
  auto set = [](int64_t& field, int64_t value, const char* name) {
    field = value;
    return std::string(name) + "=" + std::to_string(value);
  };
  switch (pick(0, 15)) {
    case 0:
      return set(config.d_model, chance(0.02) ? (1 << 21) : pick(-1, 96), "d_model");
    case 1:
      return set(config.n_heads, chance(0.02) ? 5000 : pick(0, 16), "n_heads");
    case 2:
      return set(config.d_k, chance(0.5) ? 0 : pick(-1, 32), "d_k");
    case 3:
      return set(config.d_v, chance(0.5) ? 0 : pick(-1, 32), "d_v");
    case 4:
      return set(config.d_in, chance(0.5) ? 0 : pick(-1, 48), "d_in");
    case 5:
      return set(config.seq_len, chance(0.02) ? 5000 : pick(-1, 64), "seq_len");
    case 6:
      return set(config.batch, pick(-1, 4), "batch");
    case 7:
    case 8:
      return change_mask(config);
    case 9:
      config.bias = !config.bias;
      return "bias=" + std::to_string(config.bias);
    case 10:
      config.output_proj = !config.output_proj;
      return "output_proj=" + std::to_string(config.output_proj);
    case 11: {
      static const std::array<double, 9> kDropouts = {0.0,
                                                      0.1,
                                                      0.5,
                                                      0.9,
                                                      0.999,
                                                      1.0,
                                                      -0.1,
                                                      std::numeric_limits<double>::quiet_NaN(),
                                                      std::numeric_limits<double>::infinity()};
      config.dropout = kDropouts[static_cast<size_t>(pick(0, kDropouts.size() - 1))];
      return "dropout=" + std::to_string(config.dropout);
    }
    case 12:
      config.shape_only = chance(0.3);
      return "shape_only=" + std::to_string(config.shape_only);
    case 13:
      config.seed = rng_();
      config.dropout_seed = rng_();
      return "seeds";
    default:
      return change_sentence(config);
  }
}

}  // namespace attnlab::soak
