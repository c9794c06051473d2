// A sentence typed in the GUI keeps every character (issue 21): ImGui 1.86's 16-bit characters
// turned an emoji typed (or already in the text when the field was edited) into U+FFFD, which the
// settings then saved.
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/text_field.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/startup.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class TypedText : public HeadlessImGui {
 protected:
  // Clicks into the field whose tooltip starts with `tip` (the caret lands near its start).
  void click_field(const std::string& tip) {
    const PlacedItem* field = nullptr;
    for (const PlacedItem& item : state.frame.items)
      if (item.label.rfind(tip, 0) == 0) field = &item;
    ASSERT_NE(field, nullptr) << tip;
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(field->min.x + 40, (field->min.y + field->max.y) / 2);
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
    ASSERT_TRUE(io.WantTextInput);
  }
  // As GLFW's character callback reaches the window's and then ImGui's backend.
  void type(const std::u32string& text) {
    for (const char32_t c : text) {
      note_typed_char(state.typed, unsigned(c));
      ImGui::GetIO().AddInputCharacter(unsigned(c));
    }
    frame();
  }
  void end_typing() {
    press(kGlfwEnd);
    press(kGlfwEnter);
  }
};

// The settings written at exit and read at the next start.
Config saved_and_loaded(const AppState& state) {
  return settings_from_json(settings_to_json(current_settings(state, "")), "settings.json").config;
}

TEST_F(TypedText, EmojiAndCjkTypedIntoTheSentenceRoundTripThroughSettings) {
  start_on("seed003");
  Config config = state.session.config;
  config.sentence = "cat";
  set_config(state, config);
  frame();
  click_field("The tokens of the input");
  press(kGlfwEnd);
  type(U" \u732B\U0001F431 \u306D\u3053 \U0001F9E0!");  // " 猫🐱 ねこ 🧠!"
  end_typing();
  const std::string expected = "cat \u732B\U0001F431 \u306D\u3053 \U0001F9E0!";
  EXPECT_EQ(state.session.config.sentence, expected);
  EXPECT_EQ(saved_and_loaded(state).sentence, expected);
}

TEST_F(TypedText, EmojiAlreadyInTheSentenceSurviveAnEdit) {
  start_on("seed003");
  Config config = state.session.config;
  config.sentence = "\U0001F600 smiles at \u732B";  // from --sentence or the last session
  set_config(state, config);
  frame();
  click_field("The tokens of the input");
  press(kGlfwEnd);
  type(U" \uE000");  // a private-use character typed is ImGui's to drop, as before
  type(U"x");
  end_typing();
  EXPECT_EQ(state.session.config.sentence, "\U0001F600 smiles at \u732B x");
  EXPECT_EQ(saved_and_loaded(state).sentence, state.session.config.sentence);
}

// The platform's clipboard, as a test holds it.
std::string clipboard_text;
const char* get_clipboard(void*) {
  return clipboard_text.c_str();
}
void set_clipboard(void*, const char* text) {
  clipboard_text = text;
}

// Pasting (Ctrl+V) an emoji keeps it; copying the field (Ctrl+A, Ctrl+C) hands the clipboard the
// emoji, not its private-use stand-in.
TEST_F(TypedText, PastedEmojiSurviveAndCopiedOnesLeaveWhole) {
  start_on("seed003");
  Config config = state.session.config;
  config.sentence = "cat";
  set_config(state, config);
  ImGuiIO& io = ImGui::GetIO();
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  route_clipboard(io, state.typed);
  constexpr int kGlfwA = 65, kGlfwC = 67, kGlfwV = 86;
  io.KeyMap[ImGuiKey_A] = kGlfwA;
  io.KeyMap[ImGuiKey_C] = kGlfwC;
  io.KeyMap[ImGuiKey_V] = kGlfwV;
  frame();
  click_field("The tokens of the input");
  press(kGlfwEnd);
  clipboard_text = " \U0001F431 \u732B \U0001F9E0";  // " 🐱 猫 🧠"
  io.KeyCtrl = true;
  press(kGlfwV);
  press(kGlfwA);
  clipboard_text.clear();
  press(kGlfwC);
  io.KeyCtrl = false;
  EXPECT_EQ(clipboard_text, "cat \U0001F431 \u732B \U0001F9E0") << "copied with stand-ins";
  end_typing();
  EXPECT_EQ(state.session.config.sentence, "cat \U0001F431 \u732B \U0001F9E0");
}

TEST_F(TypedText, TheKeyValueSentenceKeepsEmojiToo) {
  start_on("seed003");
  Config config = state.session.config;
  config.sentence_kv = "le chat";
  config.mask.causal = false;
  set_config(state, config);
  frame();
  click_field("Cross-attention: queries from the sentence");
  press(kGlfwEnd);
  type(U" \U0001F408");
  end_typing();
  EXPECT_EQ(state.session.config.sentence_kv, "le chat \U0001F408");
  EXPECT_EQ(saved_and_loaded(state).sentence_kv, "le chat \U0001F408");
}

TEST(FieldText, StandInsMapBothWaysAndLeaveOtherTextAlone) {
  TypedInput typed;
  const std::string text = "a \U0001F600 b \U0001F600 \uE001 \u732B";
  const std::string shown = to_field_text(typed, text);
  // Two distinct characters need stand-ins (the emoji once, the private-use one): U+E000, U+E001.
  ASSERT_EQ(typed.stand_ins, (std::vector<char32_t>{0x1F600, 0xE001}));
  EXPECT_EQ(shown, "a \uE000 b \uE000 \uE001 \u732B");
  EXPECT_EQ(from_field_text(typed, shown), text);
  EXPECT_EQ(to_field_text(typed, "plain \u00E9"), "plain \u00E9");
}

}  // namespace
}  // namespace attnlab::gui
