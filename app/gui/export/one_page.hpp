// The page as one file with a lesson inside (the desktop's "Save as one page", --export-page):
// the one-file page ./setup.sh web --single-file builds, and the lesson's Markdown in the block the
// page's own "Save as one page" writes and plays at start (web/index.html), just before </body>:
//   <script type="application/json" id="attnlab-lesson">{"name":NAME,"markdown":MARKDOWN}</script>
// both JSON strings with every "<", ">" and "&" (and every control character) written \u00XX, so
// the block holds no "<" and an HTML parser gives back exactly the lesson, whatever it holds
// (JSON.parse reads it). A course hands it out: it opens by double-click, with no server.
#pragma once

#include <string>
#include <string_view>

namespace attnlab::gui {

// `text` (made valid UTF-8 first: unicode::valid_utf8) as a JSON string that is safe inside a
// <script>: quoted, with no "<", ">", "&" or control character left (each written \u00XX).
// Linear in the text's length.
std::string json_for_script(std::string_view text);

// `page` with the lesson `name`'s `markdown` inside, in place of a lesson it held (this block or
// the one pages saved before wrote: <script type="text/markdown" id="attnlab-lesson">).
std::string page_with_lesson(const std::string& page, const std::string& name,
                             const std::string& markdown);

// Where the one-file page is read from: $ATTNLAB_ONE_PAGE, else build-web-single/attnlab.html in
// the source tree the app was built from.
std::string one_page_path();

// Writes `path`: the one-file page with the lesson `file_or_name` (a .md file or a built-in
// lesson's name) inside, whole or not at all. "" or one line saying what is wrong and what to do.
std::string save_lesson_page(const std::string& file_or_name, const std::string& path);

}  // namespace attnlab::gui
