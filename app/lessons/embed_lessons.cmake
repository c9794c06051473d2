# Turns every LESSON_DIR/*.md into a raw string literal in one header, named by its file's stem:
#   lessons/ten-minutes.md -> {"ten-minutes", R"lesson(...)lesson"}
# Run as: cmake -DLESSON_DIR=... -DOUTPUT=... -P embed_lessons.cmake
file(GLOB lesson_files ${LESSON_DIR}/*.md)
list(SORT lesson_files)
set(body "// Generated from lessons/*.md by embed_lessons.cmake: do not edit.\n#pragma once\n\n")
string(APPEND body "namespace attnlab::lessons {\n\nstruct EmbeddedLesson {\n  const char* name;\n")
string(APPEND body "  const char* markdown;\n};\n\ninline constexpr EmbeddedLesson kEmbeddedLessons[] = {\n")
foreach(path IN LISTS lesson_files)
  get_filename_component(stem ${path} NAME_WE)
  file(READ ${path} text)
  string(APPEND body "    {\"${stem}\", R\"lesson(${text})lesson\"},\n")
endforeach()
string(APPEND body "};\n\n}  // namespace attnlab::lessons\n")
file(WRITE ${OUTPUT} "${body}")
