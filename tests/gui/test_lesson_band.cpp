// Issue 38: a lesson's one-window layout is the audience's layout plus a slim band. In presenter
// mode a playing lesson has no bar of controls (B brings it back), the band takes at most a fifth
// of the window (its type shrinks to fit, then it scrolls), the picture takes the rest, and no
// tooltip shows over the band. Every scene of every built-in lesson, asked and answered, at the
// lecture hall's sizes and font scale 1.5.
#include <imgui_internal.h>  // the tooltip window

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/panels/heads_grid.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/lessons/lesson_files.hpp"
#include "headless_imgui.hpp"
#include "settle_scene.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab::gui {
namespace {

class LessonBand : public HeadlessImGui {
 protected:
  // The scene computed and shown, and the band's type fitted.
  void settle() {
    settle_scene(
        state, [&] { frame(); }, 30);
  }
  // Whatever the picture shows cut or too small, and every text cut or overlapping another.
  std::vector<std::string> picture_findings(float W) const {
    std::vector<std::string> found =
        content_findings(state, ImVec4(0, 0, W, state.frame.layout_height));
    for (const std::string& text : text_findings(drawn_texts(), state.frame.text_fields))
      found.push_back(text);
    return found;
  }
  float band() const { return ImGui::GetIO().DisplaySize.y - state.frame.layout_height; }
  // Where `text` was drawn whole among `texts` (a failure, and an empty rectangle, where not).
  static ImVec4 drawn_rect(const std::vector<DrawnText>& texts, const std::string& text) {
    for (const DrawnText& t : texts)
      if (t.text == text) return t.rect;
    ADD_FAILURE() << "\"" << text << "\" is not drawn";
    return ImVec4(0, 0, 0, 0);
  }
  // A built-in lesson played in one window of this size at font 1.5, on its scene (from 0).
  void open_presenter(const std::string& lesson, int scene, ImVec2 size) {
    use_font_scale(1.5f);
    load_presets(state);
    state.ui.presenter = true;
    ImGui::GetIO().DisplaySize = size;
    ASSERT_EQ(open_lesson(state, lesson, ""), "");
    show_scene(state, scene);
  }

  // The picture's panels cover the window less the band, and nothing else: no bar of controls.
  std::vector<std::string> picture_problems(float W, float H) const {
    std::vector<std::string> found;
    const float b = band();
    if (b > std::floor(H * kBandMostFraction) + 0.5f)
      found.push_back("band " + std::to_string(b) + " px of " + std::to_string(H));
    if (b <= 0) found.push_back("no band");
    const PanelLayout layout{state.frame.panel_rects};
    if (shown(layout, PanelId::Controls)) found.push_back("the bar of controls takes a row");
    ImVec4 all(W, H, 0, 0);
    for (int p = 0; p < kPanelCount; ++p) {
      const ImVec4& r = state.frame.panel_rects[size_t(p)];
      if (r.z <= r.x || r.w <= r.y) continue;
      all = ImVec4(std::min(all.x, r.x), std::min(all.y, r.y), std::max(all.z, r.z),
                   std::max(all.w, r.w));
    }
    if (all.x != 0 || all.y != 0 || all.z != W || std::abs(all.w - (H - b)) > 0.5f) {
      char line[160];
      std::snprintf(line, sizeof line, "picture %.0f,%.0f..%.0f,%.0f, not 0,0..%.0f,%.0f", all.x,
                    all.y, all.z, all.w, W, H - b);
      found.push_back(line);
    }
    return found;
  }
};

// Every scene of every built-in lesson, asked and answered, at the lecture hall's sizes and font
// 1.5, in one window: the band under a fifth, the picture the rest, and in the picture nothing cut
// (a table's row or column, a map, a text, a region's content below its fold) and no map under
// its least size (two maps: 240 px).
TEST_F(LessonBand, EverySceneOfEveryLessonShowsItsPictureWholeOverABandUnderAFifth) {
  use_font_scale(1.5f);
  load_presets(state);
  state.ui.presenter = true;
  int checked = 0, findings = 0;
  for (const lessons::BuiltinLesson& lesson : lessons::builtin_lessons()) {
    // The real-model lesson on a tiny GPT-2 in the published layout: its Model tab's scenes.
    const std::string model =
        lesson.name == "real-model" ? fixtures::tiny_checkpoint("gpt2-f32-tied") : "";
    ASSERT_EQ(open_lesson(state, lesson.name, model), "") << lesson.name;
    for (const ImVec2 size : {ImVec2(1024, 768), ImVec2(1280, 720)}) {
      ImGui::GetIO().DisplaySize = size;
      for (int scene = 0; scene < int(state.lesson.lesson.scenes.size()); ++scene) {
        show_scene(state, scene);
        for (const bool revealed : {false, true}) {
          state.lesson.revealed = revealed;
          settle();
          const std::string where = lesson.name + " scene " + std::to_string(scene + 1) +
                                    (revealed ? " answered" : " asked") + " at " +
                                    std::to_string(int(size.x)) + "x" + std::to_string(int(size.y));
          for (const std::string& problem : picture_problems(size.x, size.y))
            ADD_FAILURE() << where << ": " << problem;
          ++checked;
          for (const std::string& finding : picture_findings(size.x))
            if (++findings <= 120) ADD_FAILURE() << where << ": " << finding;
        }
      }
    }
  }
  EXPECT_GT(checked, 200);
  EXPECT_EQ(findings, 0) << "things cut or too small (the first 120 listed)";
}

// Before attend the presenter's heads header is short: the maps-ahead note on one line at the
// maps' labels' size (0.6 of the font), the masked swatch beside the colour bar. Notebook scene 6
// at 1024x768, font 1.5: its two maps 240 px beside the stage view (a wrapped note and a line of
// its own for the swatch left them 192 px).
TEST_F(LessonBand, BeforeAttendTheHeadsNoteTakesOneSmallLineAndTheSwatchSitsBesideTheBar) {
  open_presenter("notebook", 5, ImVec2(1024, 768));
  settle();
  const std::vector<DrawnText> texts = drawn_texts();
  const auto drawn = [&](const std::string& text) -> const DrawnText* {
    for (const DrawnText& t : texts)
      if (t.text == text) return &t;
    return nullptr;
  };
  const std::string note = "computed at attend: shown ahead, faded";
  const DrawnText* line = drawn(note);
  ASSERT_NE(line, nullptr) << "the note is not drawn whole on one line";
  const float font = ImGui::GetFontSize();
  const float small =
      ImGui::GetFont()->CalcTextSizeA(std::round(0.6f * font), FLT_MAX, 0, note.c_str()).x;
  EXPECT_NEAR(line->rect.z - line->rect.x, small, 0.05f * small);
  const DrawnText* high = drawn("row max");
  const DrawnText* masked = drawn("masked");
  ASSERT_NE(high, nullptr);
  ASSERT_NE(masked, nullptr);
  EXPECT_GT(masked->rect.x, high->rect.z) << "the swatch is not after the bar's end";
  EXPECT_NEAR(masked->rect.w, high->rect.w, 2) << "the swatch is not on the bar's line";
  ASSERT_EQ(state.frame.heatmap_placements.size(), 2u);
  for (const HeatmapPlacement& map : state.frame.heatmap_placements)
    EXPECT_GE(map.max.x - map.min.x, least_map_side(2)) << "head " << map.head;
}

// The check itself: a table's rows under its window's edge, its columns past it, a scroll region
// hiding content, a map out of the picture and two small maps are each found; and a lesson's table
// in a window too small for it even at the least type is found cut.
TEST_F(LessonBand, TheCheckFindsACutTableRowAColumnAMapOutOfViewAndSmallMaps) {
  const auto findings_of = [&](auto&& draw) {
    probe_frame(ImVec2(300, 200), draw);
    return content_findings(state, ImVec4(0, 0, 1000, 1000));
  };
  const auto table = [](int rows, int columns, float height) {
    if (!ImGui::BeginTable("probe_table", columns, ImGuiTableFlags_ScrollX, ImVec2(0, height)))
      return;
    ImGui::TableSetupColumn("first");
    for (int c = 1; c < columns; ++c) ImGui::TableSetupColumn("more");
    for (int r = 0; r < rows; ++r) {
      ImGui::TableNextRow();
      for (int c = 0; c < columns; ++c) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted("cell");
      }
    }
    ImGui::EndTable();
  };
  state.frame.heatmap_placements.clear();
  for (int i = 0; i < 2; ++i) findings_of([&] { table(3, 2, 150); });  // laid out on its 2nd frame
  EXPECT_EQ(findings_of([&] { table(3, 2, 150); }), std::vector<std::string>{});
  const auto rows = findings_of([&] { table(30, 2, 150); });
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].rfind("table \"first\" (probe", 0), 0u) << rows[0];
  EXPECT_NE(rows[0].find(" rows "), std::string::npos) << rows[0];
  findings_of([&] { table(2, 40, 150); });
  const auto columns = findings_of([&] { table(2, 40, 150); });
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_NE(columns[0].find(" columns "), std::string::npos) << columns[0];
  EXPECT_EQ(columns[0].find(" rows "), std::string::npos) << columns[0];
  // A scroll region: three lines fit its 100 px; thirty hide most of theirs below (ImGui draws
  // none of them, so no text is cut), and a row wider than it hides some across.
  const auto region = [](int lines, const char* line) {
    ImGui::BeginChild("probe_region", ImVec2(200, 100), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    for (int i = 0; i < lines; ++i) ImGui::TextUnformatted(line);
    ImGui::EndChild();
  };
  for (int i = 0; i < 2; ++i) findings_of([&] { region(3, "fits"); });  // measured on frame 2
  EXPECT_EQ(findings_of([&] { region(3, "fits"); }), std::vector<std::string>{});
  findings_of([&] { region(30, "fits"); });
  const auto tall = findings_of([&] { region(30, "fits"); });
  ASSERT_EQ(tall.size(), 1u);
  EXPECT_EQ(tall[0].rfind("scrolls \"probe/probe_region", 0), 0u) << tall[0];
  EXPECT_NE(tall[0].find(" hidden below"), std::string::npos) << tall[0];
  EXPECT_EQ(tall[0].find(" across"), std::string::npos) << tall[0];
  findings_of([&] { region(1, "a line much wider than the two hundred pixels of its region"); });
  const auto wide = findings_of(
      [&] { region(1, "a line much wider than the two hundred pixels of its region"); });
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_NE(wide[0].find(" hidden across"), std::string::npos) << wide[0];
  EXPECT_EQ(wide[0].find(" below"), std::string::npos) << wide[0];
  // Maps: two of 200 px (under 240), then one of them half out of the picture.
  state.frame.heatmap_placements = {{0, ImVec2(10, 10), ImVec2(210, 210)},
                                    {1, ImVec2(220, 10), ImVec2(420, 210)}};
  const auto small = findings_of([] {});
  ASSERT_EQ(small.size(), 2u);
  EXPECT_EQ(small[0], "map of head 0 is 200 px, under 240 for 2 maps");
  state.frame.heatmap_placements[1] = {1, ImVec2(900, 10), ImVec2(1150, 260)};
  const auto out = findings_of([] {});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1], "map of head 1 [900,10 1150,260] not wholly shown");
  // Eight maps may be 100 px; a ninth makes 60 px enough.
  EXPECT_EQ(least_map_side(2), 240);
  EXPECT_EQ(least_map_side(8), 100);
  EXPECT_EQ(least_map_side(9), 60);
  // ten-minutes' "Real configurations" at 640x480, font 2: the Counters tab's tables, one under
  // the other there, cannot fit whole even at the least type, and the check says so.
  use_font_scale(2.0f);
  load_presets(state);
  state.ui.presenter = true;
  ImGui::GetIO().DisplaySize = ImVec2(640, 480);
  ASSERT_EQ(open_lesson(state, "ten-minutes", ""), "");
  show_scene(state, 16);
  settle();
  const std::vector<std::string> found = picture_findings(640);
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const std::string& f) {
    return f.rfind("table \"", 0) == 0 && f.find("rows") != std::string::npos;
  })) << (found.empty() ? "nothing found" : found[0]);
}

TEST_F(LessonBand, ALongQuestionShrinksItsTypeToTheFloorThenScrollsAndChoicesKeepOneRow) {
  open_presenter("ten-minutes", 2, ImVec2(1280, 720));  // "Four kinds of relation": 4 choices
  ASSERT_TRUE(state.lesson.lesson.scenes[2].question);
  ASSERT_GE(state.lesson.lesson.scenes[2].question->choices.size(), 3u);
  settle();
  EXPECT_LE(band(), std::floor(720 * kBandMostFraction));
  // The type shrank (the caption, question and choices need more than 144 px at full size), but
  // not under its floor.
  const float least = band_least_font_scale(ImGui::GetFontSize());
  EXPECT_LT(state.lesson.band_fit.scale, 1.0f);
  EXPECT_GE(state.lesson.band_fit.scale, least);
  // Another scene: the type starts whole again, and fits again.
  show_scene(state, 0);
  settle();
  EXPECT_LE(band(), std::floor(720 * kBandMostFraction));
}

// Notebook 6 at 1280x720, font 1.5, asked: the title on the strip's row, the "answers first" line
// beside the class's answer; the band's five rows then fit under a fifth without scrolling.
TEST_F(LessonBand, TheTitleSharesTheStripsRowAndTheHowToLineTheAnswersRow) {
  open_presenter("notebook", 5, ImVec2(1280, 720));  // "Step 2: split", a typed answer
  ASSERT_TRUE(state.lesson.lesson.scenes[5].question);
  ASSERT_TRUE(state.lesson.lesson.scenes[5].question->choices.empty());
  settle();
  const std::vector<DrawnText> texts = drawn_texts();
  const auto find = [&](const std::string& text) { return drawn_rect(texts, text); };
  const ImVec4 title = find(state.lesson.lesson.scenes[5].title);
  const ImVec4 first_scene = find("1?");
  const ImVec4 how = find("The class answers first; the next click (PageDown) reveals the answer.");
  const ImVec4 hint = find("the class's answer");
  // On one row: their ink overlaps in y; beside: to the right of the row's last item.
  EXPECT_LT(title.y, first_scene.w);
  EXPECT_GT(title.w, first_scene.y);
  EXPECT_GT(title.x, find("18").z);
  EXPECT_LT(how.y, hint.w);
  EXPECT_GT(how.w, hint.y);
  EXPECT_GT(how.x, hint.z);
  EXPECT_LE(band(), std::floor(720 * kBandMostFraction));
  EXPECT_FALSE(ImGui::FindWindowByName("Lesson###lesson")->ScrollbarY) << "the band scrolls";
}

// Ten-minutes 12 at 1024x768, font 1.5: three choices leave most of their row empty, and the
// "answers first" line sits there, then the answer; the band then fits without scrolling (it
// scrolled that line half out of view, and the answer's).
TEST_F(LessonBand, TheHowToLineAndTheAnswerSitBesideTheChoices) {
  open_presenter("ten-minutes", 11, ImVec2(1024, 768));  // "A grammar head?": three choices
  ASSERT_EQ(state.lesson.lesson.scenes[11].question->choices.size(), 3u);
  settle();
  const std::vector<DrawnText> texts = drawn_texts();
  const auto find = [&](const std::string& text) { return drawn_rect(texts, text); };
  const lessons::Choice& last = state.lesson.lesson.scenes[11].question->choices.back();
  const ImVec4 choice = find(std::string(1, last.letter) + ") " + last.text);
  const ImVec4 how = find("The class answers first; the next click (PageDown) reveals the answer.");
  EXPECT_LT(how.y, choice.w);
  EXPECT_GT(how.w, choice.y);
  EXPECT_GT(how.x, choice.z);
  EXPECT_LE(how.z, 1024);
  EXPECT_FALSE(ImGui::FindWindowByName("Lesson###lesson")->ScrollbarY) << "the band scrolls";

  state.lesson.revealed = true;
  settle();
  const std::vector<DrawnText> revealed = drawn_texts();
  const auto answer = std::find_if(revealed.begin(), revealed.end(), [](const DrawnText& t) {
    return t.text.rfind("Answer: ", 0) == 0;
  });
  ASSERT_NE(answer, revealed.end());
  EXPECT_LT(answer->rect.y, choice.w);
  EXPECT_GT(answer->rect.w, choice.y);
  EXPECT_GT(answer->rect.x, choice.z);
  EXPECT_FALSE(ImGui::FindWindowByName("Lesson###lesson")->ScrollbarY) << "the band scrolls";
}

TEST_F(LessonBand, BShowsAndHidesTheBarOfControlsWhileTheLessonPlays) {
  load_presets(state);
  state.ui.presenter = true;
  ASSERT_EQ(open_lesson(state, "ten-minutes", ""), "");
  settle();
  const PanelLayout none{state.frame.panel_rects};
  EXPECT_FALSE(shown(none, PanelId::Controls));
  press(kKeyB);
  settle();
  const PanelLayout with_bar{state.frame.panel_rects};
  EXPECT_TRUE(shown(with_bar, PanelId::Controls));
  EXPECT_GT(state.frame.panel_rects[size_t(PanelId::Pipeline)].y, 0);
  press(kKeyB);
  settle();
  EXPECT_FALSE(shown(PanelLayout{state.frame.panel_rects}, PanelId::Controls));
  // Free play (Esc): the bar is back, every control the lecturer's again.
  press(kGlfwEscape);
  settle();
  EXPECT_TRUE(shown(PanelLayout{state.frame.panel_rects}, PanelId::Controls));
}

bool tooltip_shown() {
  const ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
  return tip && tip->Active;
}

TEST_F(LessonBand, NoTooltipOverTheBandWhileTheLessonPlays) {
  load_presets(state);
  ASSERT_EQ(open_lesson(state, "ten-minutes", ""), "");  // outside presenter mode: notes, capture
  settle();
  const PlacedItem capture = item("Writes what is shown now");
  ASSERT_GT(capture.max.x, capture.min.x);
  ImGui::GetIO().MousePos =
      ImVec2((capture.min.x + capture.max.x) / 2, (capture.min.y + capture.max.y) / 2);
  frame();
  frame();
  EXPECT_FALSE(tooltip_shown());
  // In free play the band's controls explain themselves again.
  leave_lesson(state);
  settle();
  const PlacedItem moved = item("Writes what is shown now");
  ImGui::GetIO().MousePos =
      ImVec2((moved.min.x + moved.max.x) / 2, (moved.min.y + moved.max.y) / 2);
  frame();
  frame();
  EXPECT_TRUE(tooltip_shown());
}

// The audience's window: its own ImGui context, drawn after the lecturer's frame as the app does
// (AudienceWindow::draw), the lecturer's window outside presenter mode (with its tab bars).
class AudienceOptions : public LessonBand {
 protected:
  void SetUp() override {
    LessonBand::SetUp();
    lecturer_ = ImGui::GetCurrentContext();
    audience_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(audience_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.0f / 60.0f;
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    audience_mono_ = load_fonts(1.0f).mono;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    apply_theme(state.ui.theme, 1.0f);
    ImGui::SetCurrentContext(lecturer_);
    load_presets(state);
    state.lesson.audience_window = true;
  }
  void TearDown() override {
    ImGui::DestroyContext(audience_);
    ImGui::SetCurrentContext(lecturer_);
    LessonBand::TearDown();
  }
  // The lecturer's frame, then the audience's; what the audience's drew is `audience_frame`.
  void both_frames() {
    state.session.worker->wait_idle();
    poll_trace(state);
    frame();
    ImGui::SetCurrentContext(audience_);
    ImFont* lecturer_mono = std::exchange(state.window.mono_font, audience_mono_);
    ImGui::NewFrame();
    draw_audience_frame(state, nullptr, measured_);
    ImGui::Render();
    state.window.mono_font = lecturer_mono;
    audience_frame = state.frame;
    ImGui::SetCurrentContext(lecturer_);
  }
  // Scene 1 plain, scene 2 with `options`; played to scene 2 with the clicker (PageDown).
  void play_to_scene_with(const std::string& options) {
    const std::string file = ::testing::TempDir() + "attnlab_audience_" +
                             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                             ".md";
    std::FILE* out = std::fopen(file.c_str(), "w");
    ASSERT_TRUE(out);
    std::fprintf(out,
                 "# Two\n\n## Plain\n```attnlab\n--preset seed003 --heads 2 --stage "
                 "attend:softmax\n```\nA.\n\n## Set\n```attnlab\n--preset seed003 --heads 2 "
                 "--stage attend:softmax %s\n```\nB.\n",
                 options.c_str());
    std::fclose(out);
    ASSERT_EQ(open_lesson(state, file, ""), "");
    for (int i = 0; i < 4; ++i) both_frames();
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[kGlfwPageDown] = true;
    both_frames();
    io.KeysDown[kGlfwPageDown] = false;
    for (int i = 0; i < 6; ++i) both_frames();
    std::remove(file.c_str());
    ASSERT_EQ(state.lesson.scene, 1) << state.lesson.scene_error;
    ASSERT_EQ(state.lesson.scene_error, "");
  }
  FrameOutput audience_frame;

 private:
  ImGuiContext* lecturer_ = nullptr;
  ImGuiContext* audience_ = nullptr;
  ImFont* audience_mono_ = nullptr;
  MeasuredLayout measured_;
};

// A scene's --tab: the audience's window took the request first and the lecturer's tab bar, never
// told, put the stage view back for both.
TEST_F(AudienceOptions, ASceneTabShowsInBothWindows) {
  play_to_scene_with("--tab head-tools");
  EXPECT_EQ(state.tabs.tool, ToolTab::HeadTools);
  // The audience's picture: the tab across the whole width, no heads panel beside it.
  EXPECT_FALSE(shown(PanelLayout{audience_frame.panel_rects}, PanelId::Heads));
  // Back to scene 1 (the stage view's tab again), in both.
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[kGlfwPageUp] = true;
  both_frames();
  io.KeysDown[kGlfwPageUp] = false;
  for (int i = 0; i < 4; ++i) both_frames();
  EXPECT_EQ(state.tabs.tool, ToolTab::Tensors);
  EXPECT_TRUE(shown(PanelLayout{audience_frame.panel_rects}, PanelId::Heads));
}

TEST_F(AudienceOptions, ASceneFocusedHeadShowsInTheAudiencesWindow) {
  play_to_scene_with("--focus-head 1 --compare-head 0");
  EXPECT_EQ(state.heads.focus.head, 1);
  std::vector<int> heads;
  for (const HeatmapPlacement& map : audience_frame.heatmap_placements) heads.push_back(map.head);
  EXPECT_EQ(heads, (std::vector<int>{1, 0}));
}

TEST_F(AudienceOptions, ASceneZoomShowsInTheAudiencesWindow) {
  play_to_scene_with("--focus-head 0 --zoom 2");
  EXPECT_EQ(state.heads.focus.head, 0);
  EXPECT_GT(state.heads.focus.view.span, 0);  // a window of the map, not the whole
  ASSERT_FALSE(audience_frame.heatmap_placements.empty());
  const HeatmapPlacement& map = audience_frame.heatmap_placements[0];
  EXPECT_LT(map.uv_max.x - map.uv_min.x, 0.99f);  // the audience's map shows part of it
}

TEST_F(AudienceOptions, ASceneMapsViewShowsInTheAudiencesWindow) {
  play_to_scene_with("--heatmaps scores");
  EXPECT_EQ(state.ui.heatmap_view, HeatmapView::Scores);
  EXPECT_FALSE(audience_frame.heatmap_placements.empty());
  EXPECT_EQ(state.heads.heatmaps.value().view, HeatmapView::Scores);  // the maps both drew
}

}  // namespace
}  // namespace attnlab::gui
