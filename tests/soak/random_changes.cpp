#include "tests/soak/random_changes.hpp"

#include <algorithm>
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

std::string RandomChanges::change_variant(Config& config) {
  auto set = [](int64_t& field, int64_t value, const char* name) {
    field = value;
    return std::string(name) + "=" + std::to_string(value);
  };
  const int64_t h = std::max<int64_t>(config.n_heads, 1);
  const int64_t T = config.seq_len > 0 ? config.seq_len : 8;
  auto latent_off = [&] { config.kv_latent = config.rope_dim = config.q_latent = 0; };
  auto cross_off = [&] {
    config.sentence_kv.clear();
    config.kv_len = config.d_in_kv = 0;
  };
  // Half the time a lesson is switched to as its control does it (the settings it cannot combine
  // with turned off); otherwise one of its settings changes alone, often to a value refused.
  const bool as_the_controls_do = chance(0.5);
  switch (pick(0, 4)) {
    case 0: {  // K/V heads: mostly a divisor of n_heads (MQA, GQA, MHA)
      if (as_the_controls_do) latent_off();
      if (chance(0.8)) {
        int64_t kv = pick(1, h);
        while (h % kv != 0) --kv;
        return set(config.n_kv_heads, kv, "n_kv_heads");
      }
      return set(config.n_kv_heads, pick(-1, h + 2), "n_kv_heads");
    }
    case 1: {  // cross-attention
      static const std::array<const char*, 4> kKeySentences = {"", "Le chat est assis sur le tapis",
                                                               "猫 が 座った", "a"};
      if (as_the_controls_do) {
        latent_off();
        config.decode_steps = 0;
        config.mask.causal = false;
        config.mask.window = config.mask.global_tokens = 0;
      }
      switch (pick(0, 2)) {
        case 0:
          config.sentence_kv =
              kKeySentences[static_cast<size_t>(pick(0, kKeySentences.size() - 1))];
          return "sentence_kv: " + std::to_string(config.sentence_kv.size()) + " bytes";
        case 1:
          return set(config.kv_len, chance(0.3) ? 0 : pick(-1, 12), "kv_len");
        default:
          return set(config.d_in_kv, chance(0.5) ? 0 : pick(-1, 24), "d_in_kv");
      }
    }
    case 2:  // decoding with a KV cache: causal, no dropout, the last few tokens
      if (as_the_controls_do) {
        latent_off();
        cross_off();
        config.mask.causal = true;
        config.dropout = 0;
        return set(config.decode_steps, pick(1, std::max<int64_t>(T - 1, 1)), "decode_steps");
      }
      return set(config.decode_steps, chance(0.3) ? 0 : pick(-1, T + 1), "decode_steps");
    case 3:  // MLA: its own way of sharing K and V, and no biases (DeepSeek-V2 has none)
      if (as_the_controls_do) {
        cross_off();
        config.n_kv_heads = config.decode_steps = 0;
        config.bias = false;
        config.rope_dim = chance(0.5) ? 0 : 2 * pick(1, 4);
        config.q_latent = chance(0.5) ? 0 : pick(1, 16);
        return set(config.kv_latent, pick(1, 16), "MLA on, kv_latent");
      }
      switch (pick(0, 2)) {
        case 0:
          return set(config.kv_latent, chance(0.4) ? 0 : pick(-1, 16), "kv_latent");
        case 1:
          return set(config.rope_dim, chance(0.5) ? 0 : pick(-1, 8), "rope_dim");
        default:
          return set(config.q_latent, chance(0.5) ? 0 : pick(-1, 16), "q_latent");
      }
    default:  // back to plain multi-head attention
      latent_off();
      cross_off();
      config.n_kv_heads = config.decode_steps = 0;
      return "variants off";
  }
}

std::string RandomChanges::apply(Config& config) {
  auto set = [](int64_t& field, int64_t value, const char* name) {
    field = value;
    return std::string(name) + "=" + std::to_string(value);
  };
  switch (pick(0, 19)) {
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
    case 14:
    case 15:
      return change_sentence(config);
    default:
      return change_variant(config);
  }
}

}  // namespace attnlab::soak
