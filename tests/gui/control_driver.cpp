#include "control_driver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/gui/panels/keyboard.hpp"
#include "core/model/config_json.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {

namespace {

constexpr const char* kSentences[] = {
    "",
    "The cat sat on the mat.",
    "Ünïcödé wörds, 日本語のテキスト and emoji 😀🧠 side by side",
    "control\x01\x02\x03 chars\t\ttabs\r\nand\x7f delete \x1b[31mred",
    "   \t\n  ",
    "invalid UTF-8: \xff\xfe \xc3 \xe2\x82 end",
    "a",
};

constexpr const char* kPaddingTexts[] = {
    "",         "3",          "3, 5", "0",   "1,2,3,4,5,6,7,8,9",
    "99999999", "1234567890", "-1",   "abc", "3;5",
    "３",       "2,,,  ,4",   " 1 ",  "1e3", "\xff",
};

std::string very_long_sentence() {  // beyond the tokenizer's cap: truncated with a notice
  std::string text;
  for (int i = 0; i < 5000; ++i) text += i % 7 == 0 ? "attention " : "word ";
  return text;
}

std::string number(const char* name, int64_t value) {
  return std::string(name) + "=" + std::to_string(value);
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

std::string config_text(const Config& config) {
  return config_to_json(config).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int64_t run_bytes(const Config& config) {
  if (!validate(config).empty()) return 0;  // never run (the core's estimate is for valid ones)
  const int64_t one = trace_bytes_needed(config);
  if (config.mistake == Mistake::None) return one;
  return one > std::numeric_limits<int64_t>::max() / 2 ? std::numeric_limits<int64_t>::max()
                                                       : 2 * one;
}

ControlDriver::ControlDriver(uint64_t seed, std::function<void()> run_frame)
    : rng_(seed), run_frame_(std::move(run_frame)) {}

int64_t ControlDriver::pick(int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(rng_);
}

bool ControlDriver::chance(double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng_) < p;
}

int64_t ControlDriver::slider_value(int64_t low, int64_t high) {
  if (chance(0.9)) {
    // Small values most of the time, as teaching sizes are; the whole range now and then.
    return chance(0.7) ? pick(low, std::min(high, low + 16)) : pick(low, high);
  }
  constexpr int64_t kTyped[] = {-1,
                                0,
                                5000,
                                int64_t{1} << 40,
                                std::numeric_limits<int64_t>::min(),
                                std::numeric_limits<int64_t>::max()};
  return one_of(kTyped);
}

// [SECTION] the config controls

ControlChange ControlDriver::edit_sizes(Config& c) {
  switch (pick(0, 6)) {
    case 0:
      return {number("d_model", c.d_model = slider_value(1, 1024))};
    case 1:
      return {number("n_heads", c.n_heads = slider_value(1, 32))};
    case 2:
      return {number("d_k", c.d_k = slider_value(1, 512))};
    case 3:
      return {number("d_in", c.d_in = slider_value(0, 1024))};
    case 4:
      return {number("T", c.seq_len = slider_value(0, 256))};
    case 5:
      return {number("B", c.batch = slider_value(1, 64))};
    default:
      return edit_sentence(c);
  }
}

ControlChange ControlDriver::edit_sentence(Config& c) {
  if (chance(0.1)) {
    c.sentence = very_long_sentence();
    return {"sentence: 5000 words"};
  }
  if (chance(0.15)) {
    c.sentence.clear();
    for (int64_t i = pick(0, 120); i > 0; --i) c.sentence += char(pick(1, 255));
    return {"sentence: random bytes"};
  }
  c.sentence = one_of(kSentences);
  return {"sentence: \"" + c.sentence.substr(0, 20) + "\""};
}

ControlChange ControlDriver::edit_mask(AppState& state, Config& c) {
  MaskSpec& m = c.mask;
  const int64_t T = std::clamp<int64_t>(c.tokens(), 1, 256);
  switch (pick(0, 3)) {
    case 0:
      m.causal = !m.causal;
      return {number("causal", m.causal)};
    case 1: {
      state.controls.padding_text = one_of(kPaddingTexts);
      const bool parsed = apply_padding_text(state, m);
      return {"padding text \"" + state.controls.padding_text + "\"" +
              (parsed ? "" : " (not numbers)")};
    }
    case 2:
      return {number("window", m.window = slider_value(0, T))};
    default:
      return {number("global tokens", m.global_tokens = slider_value(0, T))};
  }
}

ControlChange ControlDriver::edit_model(AppState& state, Config& c) {
  switch (pick(0, 4)) {
    case 0:
      c.seed = rng_();
      return {"seed"};
    case 1:
      c.bias = !c.bias;
      return {number("bias", c.bias)};
    case 2:
      c.output_proj = !c.output_proj;
      return {number("output projection", c.output_proj)};
    case 3: {
      // The d_k link checkbox, as the panel handles it.
      state.ui.link_d_k = !state.ui.link_d_k;
      c.d_k = state.ui.link_d_k ? 0 : std::max<int64_t>(1, c.head_dim_k());
      return {number("link d_k", state.ui.link_d_k)};
    }
    default: {
      constexpr double kDropouts[] = {0.0, 0.1, 0.5, 0.9, 1.0, -0.1, 7.0};
      c.dropout = chance(0.7) ? double(pick(0, 90)) / 100.0 : one_of(kDropouts);
      return {"dropout=" + std::to_string(c.dropout)};
    }
  }
}

// The next lessons' controls, as variant_controls.cpp changes the config: K/V heads (a divisor of
// n_heads, or typed in), the K/V sentence (cross-attention), decode, and MLA's checkbox, d_c,
// d_rope and d_c'.
namespace {

// As the "latent K/V (MLA)" checkbox turns MLA on: DeepSeek-V2's proportions.
void latent_on(Config& c) {
  const int64_t dk = std::max<int64_t>(c.head_dim_k(), 1);
  c.kv_latent = 4 * dk;
  c.rope_dim = std::max<int64_t>(2, dk / 2 / 2 * 2);
  c.n_kv_heads = 0;
  c.bias = false;
}

}  // namespace

ControlChange ControlDriver::edit_variants(Config& c) {
  switch (pick(0, 4)) {
    case 0: {
      int64_t kv = slider_value(0, std::clamp<int64_t>(c.n_heads, 1, 32));
      if (chance(0.8) && c.n_heads >= 1 && c.n_heads <= 1024) {
        std::vector<int64_t> divisors;
        for (int64_t d = 1; d <= c.n_heads; ++d)
          if (c.n_heads % d == 0) divisors.push_back(d);
        kv = divisors[size_t(pick(0, int64_t(divisors.size()) - 1))];
        if (kv == c.n_heads) kv = 0;
      }
      return {number("n_kv_heads", c.n_kv_heads = kv)};
    }
    case 1: {
      const bool was_cross = c.cross();
      c.sentence_kv = chance(0.3) ? "" : one_of(kSentences);
      if (!was_cross && c.cross()) {  // as the field does: masks of one sequence off
        c.mask.causal = false;
        c.mask.window = c.mask.global_tokens = 0;
        c.kv_len = 0;
      }
      return {"K/V sentence: \"" + c.sentence_kv.substr(0, 20) + "\""};
    }
    case 2: {
      const int64_t T = std::clamp<int64_t>(c.tokens(), 1, 256);
      c.decode_steps = slider_value(0, std::max<int64_t>(T - 1, 1));
      if (c.decode_steps > 0) c.mask.causal = true;
      return {number("decode", c.decode_steps)};
    }
    case 3:
      if (c.latent()) {
        c.kv_latent = c.rope_dim = c.q_latent = 0;
      } else {
        latent_on(c);
      }
      return {number("latent K/V (MLA)", c.latent())};
  }
  // MLA's sliders show once its checkbox is on: a user ticks it first.
  const std::string ticked = c.latent() ? "" : "latent K/V on, ";
  if (!c.latent()) latent_on(c);
  switch (pick(0, 2)) {
    case 0:
      return {ticked + number("d_c", c.kv_latent = slider_value(1, 1024))};
    case 1:
      return {ticked + number("d_rope", c.rope_dim = slider_value(0, 256))};
    default:
      return {ticked + number("d_c'", c.q_latent = slider_value(0, 1024))};
  }
}

ControlChange ControlDriver::edit_config(AppState& state) {
  Config c = state.session.config;
  const std::string padding_before = state.controls.padding_text;
  ControlChange change;
  switch (pick(0, 4)) {
    case 0:
    case 1:
      change = edit_sizes(c);
      break;
    case 2:
      change = edit_mask(state, c);
      break;
    case 3:
      change = edit_model(state, c);
      break;
    default:
      change = edit_variants(c);
  }
  if (c == state.session.config) return change;  // e.g. padding text that is not numbers
  if (validate(c).empty() && run_bytes(c) > kMaxTraceBytes) {
    state.controls.padding_text = padding_before;  // the user did not type it after all
    return {"skipped: " + change.what + " (too big)", false};
  }
  state.session.preset_name.clear();  // as the panel does: the user's own config now
  set_config(state, c);
  return change;
}

ControlChange ControlDriver::make_oversize(AppState& state) {
  Config c = state.session.config;
  switch (pick(0, 3)) {
    case 0:  // every slider at its maximum, self-attention: B h T^2 maps beyond the 1 GiB cap
      c.sentence_kv.clear();
      c.kv_len = 0;
      c.batch = 64;
      c.seq_len = 256;
      c.n_heads = 32;
      c.d_model = 1024;
      c.d_k = 0;
      break;
    case 1:
      c.seq_len = int64_t{1} << 20;
      c.batch = 64;
      break;
    case 2:
      c.d_model = int64_t{1} << 40;
      break;
    default:
      c.n_heads = 5000;
  }
  set_config(state, c);
  return {"oversize", true, true};
}

ControlChange ControlDriver::drag_to_worker_size(AppState& state) {
  Config c = state.session.config;
  for (int attempt = 0; attempt < 20; ++attempt) {
    c.batch = pick(1, 8);
    c.seq_len = pick(32, 256);
    const int64_t bytes = run_bytes(c);
    if (!validate(c).empty() || bytes <= kSyncTraceBytes || bytes > kMaxTraceBytes) continue;
    state.session.preset_name.clear();
    set_config(state, c);
    return {number("worker-sized T", c.seq_len) + ", " + number("B", c.batch)};
  }
  return {"skipped: no worker-sized T and B", false};
}

// [SECTION] presets, keys, the toolkit and the display

ControlChange ControlDriver::switch_preset(AppState& state) {
  if (state.session.presets.empty() || chance(0.05)) {
    apply_preset(state, "no-such-preset");
    return {"preset no-such-preset"};
  }
  const Preset& preset =
      state.session.presets[size_t(pick(0, int64_t(state.session.presets.size()) - 1))];
  if (validate(preset.config).empty() && run_bytes(preset.config) > kMaxTraceBytes)
    return {"skipped: preset " + preset.name + " (too big)", false};
  apply_preset(state, preset.name);
  return {"preset " + preset.name};
}

ControlChange ControlDriver::press(int key, bool shift, const std::string& name) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeyShift = shift;
  io.KeysDown[key] = true;
  run_frame_();
  io.KeysDown[key] = false;
  io.KeyShift = false;
  return {std::string("key ") + (shift ? "Shift+" : "") + name};
}

ControlChange ControlDriver::press_key(AppState& state) {
  static const std::pair<int, const char*> kSteps[] = {
      {kGlfwRight, "Right"},   {kGlfwLeft, "Left"},    {kGlfwPageDown, "PageDown"},
      {kGlfwPageUp, "PageUp"}, {kGlfwHome, "Home"},    {kGlfwEnd, "End"},
      {kGlfwSpace, "Space"},   {kGlfwEscape, "Escape"}};
  switch (pick(0, 4)) {
    case 0:
    case 1: {
      const auto& [key, name] = one_of(kSteps);
      return press(key, false, name);
    }
    case 2: {  // 1-9 pick a tab; Shift+0..9 switch a head off or on
      const int digit = int(pick(0, 9));
      const bool shift = chance(0.5);
      if (shift && run_bytes(state.session.config) > kMaxTraceBytes)
        return {"skipped: ablation", false};
      return press(kKey0 + digit, shift, std::to_string(digit));
    }
    case 3:
      return press(kKeyC, false, "C");
    default:
      // A mistake runs twice (buggy and correct); run_bytes may saturate, so halve the limit.
      if (run_bytes(state.session.config) > kMaxTraceBytes / 2) return {"skipped: mistake", false};
      return press(kKeyM, chance(0.5), "M");
  }
}

ControlChange ControlDriver::edit_display(AppState& state) {
  switch (pick(0, 5)) {
    case 0:
      state.ui.heatmap_view = HeatmapView(pick(0, 3));
      return {"heatmap view"};
    case 1:
      state.ui.colour_scale = ColourScale((int(state.ui.colour_scale) + 1) % kColourScaleCount);
      return {std::string("colour scale ") + colour_scale_name(state.ui.colour_scale)};
    case 2:
      if (!state.session.trace) return {"sequence shown (no trace)"};
      state.walk.batch_shown = pick(0, state.session.trace->config.batch - 1);
      return {number("sequence shown", state.walk.batch_shown)};
    case 3: {
      // A mistake runs twice (buggy and correct); run_bytes may saturate, so halve the limit.
      if (run_bytes(state.session.config) > kMaxTraceBytes / 2) return {"skipped: mistake", false};
      const std::vector<MistakeInfo>& all = all_mistakes();
      const int64_t which = pick(0, int64_t(all.size()));
      set_mistake(state, which == 0 ? Mistake::None : all[size_t(which - 1)].id);
      return {number("mistake", which)};
    }
    case 4: {
      const int64_t head = pick(-1, std::clamp<int64_t>(state.session.config.n_heads, 0, 40));
      toggle_head_ablation(state, head);
      return {number("ablate head", head)};
    }
    default:
      state.mistakes.head = pick(0, 40);
      state.mistakes.token = pick(0, 300);
      state.memory.tensor = "qkv"[pick(0, 2)];
      return {"mistake map / memory tensor"};
  }
}

ControlChange ControlDriver::apply(AppState& state) {
  // A user facing an error message fixes it soon: after a few changes on an invalid config, pick a
  // preset, so the run keeps computing rather than piling up invalid settings.
  if (!state.session.issues.empty() && chance(0.3)) return switch_preset(state);
  const int64_t kind = pick(0, 99);
  if (kind < 37) return edit_config(state);
  if (kind < 45) return drag_to_worker_size(state);
  if (kind < 47) return make_oversize(state);
  if (kind < 55) return switch_preset(state);
  if (kind < 80) return press_key(state);
  return edit_display(state);
}

std::string frame_problem(AppState& state) {
  if (state.session.adopted_while_drawing > 0)
    return "a trace was adopted while a panel was drawing (not through state.requests)";
  if (state.session.trace && !state.session.trace->shape_only) {
    const Diagnostics& d = state.session.trace->diagnostics;
    if (d.nonfinite_values > 0) return "NaN/Inf in " + d.first_nonfinite;
    const HeatmapSet& maps = current_heatmaps(state);
    if (!std::isfinite(maps.value_min) || !std::isfinite(maps.value_max))
      return "heatmap colour range not finite";
    // -inf marks a masked cell, +inf an even row's cell (colormap.hpp: kEvenPosition), counted
    const int64_t even_cells = maps.even_rows * maps.cols;
    const int64_t plus_inf =
        std::count(maps.values.begin(), maps.values.end(), std::numeric_limits<float>::infinity());
    if (std::any_of(maps.values.begin(), maps.values.end(), [](float v) { return std::isnan(v); }))
      return "heatmap cell not a number";
    if (plus_inf > even_cells) return "heatmap cell not finite outside an even row";
  }
  if (!state.session.issues.empty()) {
    for (const ConfigIssue& issue : state.session.issues)
      if (!contains(state.frame.explained, issue.field))
        return "issue of \"" + issue.field + "\" not shown: " + issue.message;
    return "";
  }
  if (!state.session.run_error.empty())
    return contains(state.frame.explained, "run")
               ? ""
               : "run error not shown: " + state.session.run_error;
  if (state.session.computing)
    return "";  // the pipeline panel shows the progress and a cancel button
  if (!state.session.trace) return "no trace and no explanation";
  if (state.session.trace->config == state.session.config) return "";
  if (state.status.find("cancelled") != std::string::npos) return "";
  return "the trace shown is not of the current settings, and nothing says why";
}

}  // namespace attnlab::gui
