// The page as one file with a lesson inside, as the desktop writes it (issue 32): the block the
// page's own "Save as one page" writes, read back as the page reads it (web/index.html: the
// script's text through JSON.parse), a lesson it held replaced (a block of pages saved before the
// JSON block too), and the missing page named with the command that builds it. Every hostile text
// through it: test_writer_text.cpp; through a real HTML parser: run_writer_text_test.sh.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/gui/export/one_page.hpp"
#include "app/lessons/lesson_files.hpp"

namespace attnlab::gui {
namespace {

const std::string kStart = "<script type=\"application/json\" id=\"attnlab-lesson\">";

// The lesson inside `page` as the page reads it: its name and its Markdown.
std::pair<std::string, std::string> lesson_in(const std::string& page) {
  const size_t start = page.rfind(kStart);
  if (start == std::string::npos) return {};
  const size_t text_at = start + kStart.size();
  const nlohmann::json held =
      nlohmann::json::parse(page.substr(text_at, page.find("</script>", text_at) - text_at));
  return {held["name"].get<std::string>(), held["markdown"].get<std::string>()};
}

// The page's own code spells the block's start (it writes the block): not a lesson.
const std::string kPage =
    "<!doctype html>\n<html><body><script id=\"attnlab-code\">code()</script>\n<script>const "
    "block = '<script type=\"application/json\" id=\"attnlab-lesson\">';</script>\n"
    "</body></html>\n";

TEST(OnePage, TheLessonGoesBeforeTheBodysEndAndReadsBackWhole) {
  const std::string markdown =
      "# A lesson\n\n## Scene </script> and </b>\n```attnlab\n--preset seed003\n```\n";
  const std::string page = page_with_lesson(kPage, "course-1", markdown);
  EXPECT_EQ(page.find(kStart), kPage.find(kStart)) << "the page's code is kept whole";
  EXPECT_NE(page.find("const block = '<script"), std::string::npos);
  EXPECT_EQ(page.find("</script> and"), std::string::npos) << "a </ would end the block early";
  EXPECT_NE(page.find("\\u003c/script\\u003e and \\u003c/b\\u003e"), std::string::npos);
  const auto [name, text] = lesson_in(page);
  EXPECT_EQ(name, "course-1");
  EXPECT_EQ(text, markdown);
  EXPECT_LT(page.rfind(kStart), page.rfind("</body>"));
  EXPECT_EQ(page.substr(0, page.rfind(kStart)), kPage.substr(0, kPage.rfind("</body>")))
      << "the page before the block is the page as it was";
  // Saved again with another lesson: one block, the new one.
  const std::string again = page_with_lesson(page, "other", "# Other\n");
  EXPECT_EQ(again.substr(0, again.rfind(kStart)), kPage.substr(0, kPage.rfind("</body>")))
      << "the lesson it held is gone, the page's code kept";
  EXPECT_EQ(lesson_in(again).second, "# Other\n");
  EXPECT_EQ(page_with_lesson(again, "x", markdown).size(), page.size() - 8 + 1);
  // A page saved before the JSON block (the Markdown itself, "</" written "<\\/"): its lesson is
  // replaced too.
  const std::string old_page = kPage.substr(0, kPage.rfind("</body>")) +
                               "<script type=\"text/markdown\" id=\"attnlab-lesson\" "
                               "data-name=\"old\"># Old <\\/b>\n</script>\n</body></html>\n";
  const std::string resaved = page_with_lesson(old_page, "new", "# New\n");
  EXPECT_EQ(resaved.find("text/markdown\" id=\"attnlab-lesson"), std::string::npos) << resaved;
  EXPECT_EQ(lesson_in(resaved), (std::pair<std::string, std::string>{"new", "# New\n"}));
}

TEST(OnePage, JsonForScriptEscapesWhatHtmlOrJsonWouldRead) {
  EXPECT_EQ(json_for_script("a\"b\\c\n</script>&<!--\t\x01\x7f"),
            "\"a\\\"b\\\\c\\n\\u003c/script\\u003e\\u0026\\u003c!--\\u0009\\u0001\\u007f\"");
  EXPECT_EQ(json_for_script(std::string("\0caf\xe9 \xC3\xA9", 8)), "\"\\u0000caf\uFFFD \xC3\xA9\"");
}

TEST(OnePage, SavesABuiltInLessonAndNamesWhatIsMissing) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnlab_one_page";
  std::filesystem::create_directories(dir);
  const std::string template_path = (dir / "template.html").string();
  std::ofstream(template_path) << kPage;
  setenv("ATTNLAB_ONE_PAGE", template_path.c_str(), 1);
  const std::string out = (dir / "notebook.html").string();
  ASSERT_EQ(save_lesson_page("notebook", out), "");
  std::ifstream in(out);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(lesson_in(page).first, "notebook");
  EXPECT_EQ(lesson_in(page).second, lessons::builtin_markdown("notebook"));

  EXPECT_NE(save_lesson_page("no-such-lesson", out).find("no-such-lesson"), std::string::npos);
  const std::string unwritable = save_lesson_page("notebook", (dir / "no/dir/x.html").string());
  EXPECT_NE(unwritable.find("cannot write"), std::string::npos) << unwritable;
  setenv("ATTNLAB_ONE_PAGE", (dir / "absent.html").c_str(), 1);
  const std::string missing = save_lesson_page("notebook", out);
  EXPECT_NE(missing.find("./setup.sh web --single-file"), std::string::npos) << missing;
  std::ofstream(template_path) << "<html><body>a served page</body></html>";
  setenv("ATTNLAB_ONE_PAGE", template_path.c_str(), 1);
  EXPECT_NE(save_lesson_page("notebook", out).find("no one-file page"), std::string::npos)
      << "the served page (attnlab.js beside it) cannot hold a lesson for a USB stick";
  unsetenv("ATTNLAB_ONE_PAGE");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace attnlab::gui
