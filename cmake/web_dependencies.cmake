# The WebAssembly build's dependencies (emcmake cmake ... -DIMGUI_SOURCE_DIR=...; see
# tools/build_web.sh). Emscripten compiles against its own sysroot, so Debian's header-only
# libraries (Eigen, nlohmann-json, CLI11, stb) are reached through a folder of links to just their
# own include folders, never /usr/include itself. Dear ImGui is compiled from Debian's source
# package (libimgui-dev ships no .cpp), with its GLFW and OpenGL 3 backends and std::string helpers; GLFW and WebGL 2 are
# Emscripten's own. Threads are Web Workers (-pthread): the page must be cross-origin isolated;
# the one-file page (ATTNLAB_ONE_THREAD, ./setup.sh web --single-file) opens from file://, which
# never is, so it has no threads (core/model/threads_available.hpp).
set(WEB_HEADERS ${CMAKE_BINARY_DIR}/debian-headers)
file(MAKE_DIRECTORY ${WEB_HEADERS})
foreach(link IN ITEMS nlohmann CLI stb Eigen unsupported)
  if(link STREQUAL "Eigen" OR link STREQUAL "unsupported")
    set(target /usr/include/eigen3/${link})
  else()
    set(target /usr/include/${link})
  endif()
  if(NOT EXISTS ${target})
    message(FATAL_ERROR "${target} is missing: install libeigen3-dev nlohmann-json3-dev "
                        "libcli11-dev libstb-dev (./setup.sh web does)")
  endif()
  file(CREATE_LINK ${target} ${WEB_HEADERS}/${link} SYMBOLIC)
endforeach()

add_library(web_headers INTERFACE)
target_include_directories(web_headers SYSTEM INTERFACE ${WEB_HEADERS} ${WEB_HEADERS}/stb)
add_library(Eigen3::Eigen ALIAS web_headers)
add_library(nlohmann_json::nlohmann_json ALIAS web_headers)
add_library(CLI11::CLI11 ALIAS web_headers)

option(ATTNLAB_ONE_THREAD "The one-file page: no threads, for file:// (tools/build_web.sh --single-file)"
       OFF)
if(ATTNLAB_ONE_THREAD)
  add_compile_definitions(ATTNLAB_ONE_THREAD)
else()
  set(THREADS_PREFER_PTHREAD_FLAG ON)
  add_compile_options(-pthread)
  add_link_options(-pthread)
endif()
# The app reports bad input and cancellation with C++ exceptions: caught, not Emscripten's default
# of aborting on a throw.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)
# WebAssembly SIMD (Chrome 91, Firefox 89, Safari 16.4 and later): the compiler vectorizes loops
# with 128-bit wasm vectors. (Eigen 3.4 has no wasm kernels; its SSE ones, through Emscripten's
# SSE headers, need x86 inline assembly that clang 14 cannot compile for wasm.)
add_compile_options(-msimd128)
add_library(Threads::Threads INTERFACE IMPORTED)

if(NOT IMGUI_SOURCE_DIR OR NOT EXISTS ${IMGUI_SOURCE_DIR}/imgui.cpp)
  message(FATAL_ERROR "IMGUI_SOURCE_DIR='${IMGUI_SOURCE_DIR}' holds no imgui.cpp: run "
                      "./setup.sh web, which unpacks Debian's imgui source package")
endif()
add_library(web_imgui STATIC
  ${IMGUI_SOURCE_DIR}/imgui.cpp
  ${IMGUI_SOURCE_DIR}/imgui_draw.cpp
  ${IMGUI_SOURCE_DIR}/imgui_tables.cpp
  ${IMGUI_SOURCE_DIR}/imgui_widgets.cpp
  ${IMGUI_SOURCE_DIR}/misc/cpp/imgui_stdlib.cpp
  ${IMGUI_SOURCE_DIR}/backends/imgui_impl_glfw.cpp
  ${IMGUI_SOURCE_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(web_imgui SYSTEM PUBLIC ${IMGUI_SOURCE_DIR} ${IMGUI_SOURCE_DIR}/misc/cpp)
target_compile_definitions(web_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
# The GLFW backend calls Emscripten's GLFW 3 library (its header is in Emscripten's sysroot
# whatever the flags). USE_GLFW is a link setting: given to a compile, emcc ignores it with a
# "linker setting ignored during compilation" warning per file, so only the link that takes
# ImGui gets it.
target_link_options(web_imgui INTERFACE -sUSE_GLFW=3)
add_library(PkgConfig::IMGUI ALIAS web_imgui)

# zlib's inflate (students' np.savez_compressed answers), compiled from Debian's source package
# like Dear ImGui: Emscripten's own zlib port would be a download.
if(NOT ZLIB_SOURCE_DIR OR NOT EXISTS ${ZLIB_SOURCE_DIR}/inflate.c)
  message(FATAL_ERROR "ZLIB_SOURCE_DIR='${ZLIB_SOURCE_DIR}' holds no inflate.c: run "
                      "./setup.sh web, which unpacks Debian's zlib source package")
endif()
add_library(web_zlib STATIC
  ${ZLIB_SOURCE_DIR}/adler32.c
  ${ZLIB_SOURCE_DIR}/crc32.c
  ${ZLIB_SOURCE_DIR}/inffast.c
  ${ZLIB_SOURCE_DIR}/inflate.c
  ${ZLIB_SOURCE_DIR}/inftrees.c
  ${ZLIB_SOURCE_DIR}/zutil.c)
target_include_directories(web_zlib SYSTEM PUBLIC ${ZLIB_SOURCE_DIR})
add_library(ZLIB::ZLIB ALIAS web_zlib)
