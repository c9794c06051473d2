#include "app/gui/state/atlas_text.hpp"

#include "app/gui/look/theme.hpp"

namespace attnlab::gui {

std::string lesson_text(const LessonPlayer& player) {
  const lessons::Lesson& lesson = player.lesson;
  std::string text = lesson.title + "\n" + lesson.description + "\n";
  for (const lessons::Scene& scene : lesson.scenes) {
    text += scene.title + "\n" + scene.caption + "\n";
    for (const std::string& note : scene.notes) text += note + "\n";
    if (!scene.question) continue;
    text += scene.question->text + "\n" + scene.question->answer + "\n";
    for (const lessons::Choice& choice : scene.question->choices) text += choice.text + "\n";
  }
  for (const std::string& error : player.errors) text += error + "\n";
  return text;
}

std::string atlas_text(const AppState& state) {
  return state.session.config.sentence + "\n" + state.session.config.sentence_kv + "\n" +
         state.model.sentence + "\n" + lesson_text(state.lesson);
}

void ask_for_glyphs(AppState& state) {
  if (needs_new_glyphs(atlas_text(state), state.window.font_text)) state.window.fonts_dirty = true;
}

}  // namespace attnlab::gui
