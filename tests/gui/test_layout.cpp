// The lecture hall's layout test: the app at the window sizes lecture halls have and the font
// scales the back row needs, on a small, a base-sized and a long-sequence preset at the attend
// stage. Fails when two controls overlap, when a control is cut off at its window's edge, or when
// panels leave the window.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

struct Size {
  float w, h;
};

class Layout : public HeadlessImGui {
 protected:
  // Every problem of this frame's layout, one line each.
  std::vector<std::string> problems(const Size& size) const {
    std::vector<std::string> found;
    char line[400];
    for (int p = 0; p < kPanelCount; ++p) {
      const ImVec4& r = state.frame.panel_rects[size_t(p)];
      if (r.z > r.x && (r.x < 0 || r.y < 0 || r.z > size.w + 0.5f || r.w > size.h + 0.5f)) {
        std::snprintf(line, sizeof line, "panel %s leaves the window", panel_name(PanelId(p)));
        found.push_back(line);
      }
    }
    // Presenter mode gives the heads the room: a short sequence's cells are large enough for the
    // back row (at least 24 px), and every head is drawn.
    // (The Decode and KV cache tabs take the heads panel's room: no heads panel then.)
    const int64_t tokens = int64_t(state.session.trace->tokens.size());
    const ImVec4& heads = state.frame.panel_rects[size_t(PanelId::Heads)];
    if (state.ui.presenter && tokens <= 16 && heads.z > heads.x) {
      const auto& maps = state.frame.heatmap_placements;
      if (maps.empty()) found.push_back("presenter mode draws no heatmap");
      for (const HeatmapPlacement& map : maps) {
        const float cell = (map.max.x - map.min.x) / float(tokens);
        if (cell < 24) {
          std::snprintf(line, sizeof line, "head %d's cells are %.1f px (under 24)", map.head,
                        cell);
          found.push_back(line);
        }
      }
    }
    const auto& items = state.frame.items;
    for (size_t i = 0; i < items.size(); ++i) {
      const PlacedItem& a = items[i];
      const bool shown = a.max.y > a.visible_min.y && a.min.y < a.visible_max.y;
      if (!shown) continue;  // scrolled out of view
      if (!a.scrolls_x && (a.min.x < a.visible_min.x - 0.5f || a.max.x > a.visible_max.x + 0.5f)) {
        std::snprintf(line, sizeof line,
                      "cut at its window's edge: \"%.40s\" x %.0f..%.0f of %.0f..%.0f",
                      a.label.c_str(), a.min.x, a.max.x, a.visible_min.x, a.visible_max.x);
        found.push_back(line);
      }
      if (a.max.y > a.visible_max.y + 0.5f && a.min.y < a.visible_max.y - 0.5f && !a.scrolls_y) {
        std::snprintf(line, sizeof line, "cut at its window's bottom: \"%.40s\"", a.label.c_str());
        found.push_back(line);
      }
      // What shows of each: a scrolled window clips its items to its visible rectangle.
      const auto visible = [](const PlacedItem& item) {
        return ImVec4(
            std::max(item.min.x, item.visible_min.x), std::max(item.min.y, item.visible_min.y),
            std::min(item.max.x, item.visible_max.x), std::min(item.max.y, item.visible_max.y));
      };
      const ImVec4 va = visible(a);
      for (size_t j = i + 1; j < items.size(); ++j) {
        const ImVec4 vb = visible(items[j]);
        const PlacedItem& b = items[j];
        const float dx = std::min(va.z, vb.z) - std::max(va.x, vb.x);
        const float dy = std::min(va.w, vb.w) - std::max(va.y, vb.y);
        if (dx > 1 && dy > 1) {
          std::snprintf(line, sizeof line, "overlap: \"%.30s\" and \"%.30s\"", a.label.c_str(),
                        b.label.c_str());
          found.push_back(line);
        }
      }
    }
    return found;
  }
  // The current view at every font scale, with and without presenter mode, at each size: the
  // number of problems (the first ones reported, labelled with `what`).
  int problems_everywhere(const std::vector<Size>& sizes, const std::string& what, int reported) {
    int failures = 0;
    for (const float scale : {1.0f, 1.5f, 2.0f}) {
      use_font_scale(scale);
      for (const bool presenter : {false, true}) {
        state.ui.presenter = presenter;
        for (const Size& size : sizes) {
          ImGui::GetIO().DisplaySize = ImVec2(size.w, size.h);
          frame();
          frame();  // ImGui sizes auto-fitting windows on their second frame
          for (const std::string& problem : problems(size)) {
            if (reported + ++failures <= 40)
              ADD_FAILURE() << what << " " << size.w << "x" << size.h << " font " << scale
                            << (presenter ? " presenter" : "") << ": " << problem;
          }
        }
      }
    }
    return failures;
  }
};

TEST_F(Layout, NothingOverlapsOrIsCutOnLectureHallScreens) {
  const Size sizes[] = {{1024, 768}, {1280, 720}, {1600, 1000}, {1920, 1080}, {3840, 2160}};
  int failures = 0;
  for (const char* preset : {"seed003", "base", "gpt2-small"}) {
    start_on(preset);
    ASSERT_TRUE(go_to_named_step(state, "attend"));
    failures += problems_everywhere({std::begin(sizes), std::end(sizes)}, preset, failures);
  }
  EXPECT_EQ(failures, 0);
}

// The next lessons' views: the expand step of grouped K/V heads, the Decode tab and the KV cache
// tab (latent attention), with the controls' Next lessons section open.
TEST_F(Layout, TheNextLessonsViewsFitLectureHallScreens) {
  const Size sizes[] = {{1024, 768}, {1280, 720}, {1920, 1080}};
  start_on("seed003");
  Config c = state.session.config;
  c.sentence = "the cat sat on the mat and looked at the dog";
  c.d_model = 16;
  c.n_heads = 2;  // seed003's two heads: presenter mode promises them 24 px cells
  c.n_kv_heads = 1;
  c.decode_steps = 4;
  c.output_proj = true;
  set_config(state, c);
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_TRUE(state.session.trace) << state.session.run_error;
  Config latent = c;
  latent.n_kv_heads = 0;
  latent.decode_steps = 0;
  latent.kv_latent = 8;
  latent.rope_dim = 2;
  int failures = 0;
  for (const char* view : {"expand", "decode", "kv-cache"}) {
    if (std::string(view) == "kv-cache") {
      set_config(state, latent);
      state.session.worker->wait_idle();
      poll_trace(state);
    }
    ASSERT_TRUE(open_tab(state, std::string(view) == "expand" ? "tensors" : view));
    if (std::string(view) == "expand") {
      ASSERT_TRUE(go_to_named_step(state, "transpose:expand"));
    }
    failures += problems_everywhere({std::begin(sizes), std::end(sizes)}, view, failures);
  }
  EXPECT_EQ(failures, 0);
}

// The Word order tab's four views (key W), each on the encoding it teaches; the shuffle view with
// its shuffled run back.
TEST_F(Layout, TheWordOrderViewsFitLectureHallScreens) {
  const Size sizes[] = {{1024, 768}, {1280, 720}, {1920, 1080}};
  start_on("seed003");
  const std::pair<PositionEncoding, WordOrderView> views[] = {
      {PositionEncoding::None, WordOrderView::Shuffle},
      {PositionEncoding::Sinusoidal, WordOrderView::Sinusoidal},
      {PositionEncoding::Rope, WordOrderView::Rope},
      {PositionEncoding::Alibi, WordOrderView::Alibi}};
  int failures = 0;
  for (const auto& [pos, view] : views) {
    Config c;
    c.sentence = "the dog bit the man because it was hungry";
    c.d_model = 16;
    c.n_heads = 4;
    c.pos = pos;
    set_config(state, c);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.session.trace) << state.session.run_error;
    ASSERT_TRUE(open_tab(state, "word-order"));
    state.word_order.chosen = view;
    frame();
    state.word_order.shuffle.wait();
    failures += problems_everywhere({std::begin(sizes), std::end(sizes)},
                                    word_order_view_label(view), failures);
  }
  EXPECT_EQ(failures, 0);
}

// GQA's lesson is the zero stride of the expand view: on every lecture-hall screen and font scale,
// presenter mode gives the expand step the whole width, its strides (the core's) and the
// "stride 0" line are drawn whole, inside the window, and its cells are not specks.
TEST_F(Layout, TheExpandStepShowsItsZeroStrideWholeOnEveryProjector) {
  start_on("seed003");
  Config c = state.session.config;
  c.sentence = "The cat sat on the mat today";
  c.d_model = 16;
  c.n_heads = 8;
  c.n_kv_heads = 2;
  set_config(state, c);
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_TRUE(state.session.trace) << state.session.run_error;
  ASSERT_TRUE(go_to_named_step(state, "transpose:expand"));
  const TensorRecord* grouped = state.session.trace->find("k_grouped");
  ASSERT_NE(grouped, nullptr);
  ASSERT_EQ(grouped->tensor.strides()[2], 0);
  const std::string strides = "strides " + shape_to_string(grouped->tensor.strides());
  const std::string zero = "stride 0 on g: 4 reads, 1 copy";
  state.ui.presenter = true;
  for (const float scale : {1.0f, 1.5f, 2.0f}) {
    use_font_scale(scale);
    for (const Size size : {Size{1024, 768}, Size{1280, 720}, Size{1920, 1080}}) {
      ImGui::GetIO().DisplaySize = ImVec2(size.w, size.h);
      frame();
      frame();
      const std::string where = std::to_string(int(size.w)) + "x" + std::to_string(int(size.h)) +
                                " font " + std::to_string(scale);
      EXPECT_FALSE(shown(PanelLayout{state.frame.panel_rects}, PanelId::Heads)) << where;
      // The blocks stay blocks (captions go beside them when lines above and below would leave
      // specks): 7 rows of at least 10 px.
      EXPECT_GE(state.frame.scene_cell_px, 10) << where;
      for (const std::string& wanted : {strides, zero}) {
        const auto& captions = state.frame.captions;
        const auto found =
            std::find_if(captions.begin(), captions.end(),
                         [&](const CaptionPlacement& p) { return p.text == wanted; });
        ASSERT_NE(found, captions.end()) << where << ": no caption \"" << wanted << "\"";
        EXPECT_FALSE(found->cut) << where << ": \"" << wanted << "\" is cut";
        EXPECT_GE(found->min.x, 0) << where;
        EXPECT_LE(found->max.x, size.w) << where << ": " << wanted;
        EXPECT_LE(found->max.y, size.h) << where << ": " << wanted;
      }
    }
  }
}

// The figure: at 1024 x 768 with font scale 1.5, presenter mode shows seed003's two heads
// each at least 300 px wide, beside the stage view's tensors, under the pipeline strip.
TEST_F(Layout, PresenterModeGivesEachOfSeed003sHeads300PixelsOnA1024By768Projector) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend"));
  use_font_scale(1.5f);
  state.ui.presenter = true;
  ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
  frame();
  frame();
  const auto& maps = state.frame.heatmap_placements;
  ASSERT_EQ(maps.size(), 2u);
  for (const HeatmapPlacement& map : maps) {
    EXPECT_GE(map.max.x - map.min.x, 300) << "head " << map.head;
    EXPECT_LE(map.max.y, 768) << "head " << map.head;
  }
  const ImVec4 stage = state.frame.panel_rects[int(PanelId::Tensors)];
  const ImVec4 strip = state.frame.panel_rects[int(PanelId::Pipeline)];
  EXPECT_GT(stage.z - stage.x, 200);  // the tensors keep a column of their own
  EXPECT_LE(strip.w, stage.y);
}

// Maps fill the free room: base's maps are at least 180 px at 1280 x 720, presenter, font 1.5.
TEST_F(Layout, PresenterModeGivesBasesMaps180PixelsAt1280By720) {
  start_on("base");
  ASSERT_TRUE(go_to_named_step(state, "attend"));
  use_font_scale(1.5f);
  state.ui.presenter = true;
  ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
  frame();
  frame();
  const auto& maps = state.frame.heatmap_placements;
  ASSERT_FALSE(maps.empty());
  for (const HeatmapPlacement& map : maps) {
    EXPECT_GE(map.max.x - map.min.x, 180) << "head " << map.head;
    EXPECT_GE(map.max.y - map.min.y, 180) << "head " << map.head;
    EXPECT_LE(map.max.y, 720) << "head " << map.head;
  }
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

class Borders : public HeadlessImGui {
 protected:
  void drag(ImVec2 from, ImVec2 to) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = from;
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MousePos = to;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
};

TEST_F(Borders, DraggingThePanelBordersMovesThemAndPresenterModeKeepsItsOwn) {
  start_on("seed003");
  frame();  // the pipeline strip's height settles once its rows were measured
  const ImVec4 controls = state.frame.panel_rects[int(PanelId::Controls)];
  const ImVec4 tensors = state.frame.panel_rects[int(PanelId::Tensors)];
  // The controls' right edge, dragged 100 px to the right.
  drag(ImVec2(controls.z, 500), ImVec2(controls.z + 100, 500));
  EXPECT_NEAR(state.frame.panel_rects[int(PanelId::Controls)].z, controls.z + 100, 1.5f);
  // The border under the stage view, dragged 80 px down.
  const ImVec4 tensors_now = state.frame.panel_rects[int(PanelId::Tensors)];
  ASSERT_EQ(tensors_now.w, tensors.w);
  drag(ImVec2(1200, tensors.w), ImVec2(1200, tensors.w + 80));
  EXPECT_NEAR(state.frame.panel_rects[int(PanelId::Tensors)].w, tensors.w + 80, 1.5f);
  const PanelSplits normal = state.ui.splits;

  // P: presenter mode; the stage view and the heads share the screen, the code panel is hidden.
  press(kKeyP);
  ASSERT_TRUE(state.ui.presenter);
  const ImVec4 stage = state.frame.panel_rects[int(PanelId::Tensors)];
  EXPECT_EQ(stage.x, 0);
  EXPECT_EQ(state.frame.panel_rects[int(PanelId::Heads)].x, stage.z);
  EXPECT_FALSE(shown(compute_layout(ImGui::GetIO().DisplaySize, ImGui::GetFontSize(), state.ui),
                     PanelId::Info));
  drag(ImVec2(stage.z, 700), ImVec2(stage.z - 150, 700));
  EXPECT_NEAR(state.frame.panel_rects[int(PanelId::Tensors)].z, stage.z - 150, 1.5f);
  // Leaving presenter mode restores the normal layout exactly.
  press(kKeyP);
  EXPECT_FALSE(state.ui.presenter);
  EXPECT_EQ(state.ui.splits.controls, normal.controls);
  EXPECT_NEAR(state.frame.panel_rects[int(PanelId::Controls)].z, controls.z + 100, 1.5f);
}

}  // namespace
}  // namespace attnlab::gui
