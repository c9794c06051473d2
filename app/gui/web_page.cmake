# The browser page (included by CMakeLists.txt when Emscripten builds): attnlab.js + .wasm (+ its
# thread worker), the presets and the DejaVu fonts preloaded into the page's file system at the
# paths the desktop uses, and web/index.html beside them. Settings persist in IndexedDB (IDBFS).
# The one-file page (ATTNLAB_ONE_THREAD): no threads, the presets and fonts embedded in the
# WebAssembly, the WebAssembly in attnlab.js, and attnlab.js in attnlab.html (tools/one_page.py),
# which needs nothing else and opens from file://.
target_sources(attnlab PRIVATE platform/platform_web.cpp platform/stb_image_write_impl.cpp
                               platform/web_gemm_speed.cpp platform/web_lesson_markdown.cpp
                               platform/web_file_limits.cpp
                               lessons/slide_export_none.cpp gl/audience_window_none.cpp
                               export/picture_export_none.cpp)
target_link_libraries(attnlab PRIVATE attnlab_gui_logic)
set(DEJAVU /usr/share/fonts/truetype/dejavu)
foreach(font IN ITEMS DejaVuSans.ttf DejaVuSansMono.ttf)
  if(NOT EXISTS ${DEJAVU}/${font})
    message(FATAL_ERROR "${DEJAVU}/${font} is missing: install fonts-dejavu-core")
  endif()
endforeach()
if(ATTNLAB_ONE_THREAD)
  set(put_file --embed-file)
  set(page_setting -sSINGLE_FILE=1)
else()
  set(put_file --preload-file)
  # Threads: the core's helpers (one fewer than the cores), the trace worker and the tab jobs.
  set(page_setting -sPTHREAD_POOL_SIZE=8)
endif()
target_link_options(attnlab PRIVATE
  -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2  # (-sUSE_GLFW=3 comes with ImGui: web_dependencies)
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=128MB -sMAXIMUM_MEMORY=2GB
  ${page_setting}
  -sFORCE_FILESYSTEM=1 -lidbfs.js
  "SHELL:-sEXPORTED_RUNTIME_METHODS=FS,ENV,UTF8ToString,ccall"
  "SHELL:-sEXPORTED_FUNCTIONS=_main,_attnlab_page_state,_attnlab_open_model,_attnlab_gemm_speed,_attnlab_follow_lesson,_attnlab_lesson_markdown,_attnlab_file_limit,_attnlab_file_refusal,_attnlab_files_refusal"
  "SHELL:${put_file} ${PROJECT_SOURCE_DIR}/assets/presets@/assets/presets"
  "SHELL:${put_file} ${DEJAVU}/DejaVuSans.ttf@${DEJAVU}/DejaVuSans.ttf"
  "SHELL:${put_file} ${DEJAVU}/DejaVuSansMono.ttf@${DEJAVU}/DejaVuSansMono.ttf")
set_target_properties(attnlab PROPERTIES SUFFIX ".js")
set_target_properties(attnlab PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
if(ATTNLAB_ONE_THREAD)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/attnlab.html
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tools/one_page.py ${PROJECT_SOURCE_DIR}/web/index.html
            ${CMAKE_BINARY_DIR}/attnlab.js ${CMAKE_BINARY_DIR}/attnlab.html
    DEPENDS attnlab ${PROJECT_SOURCE_DIR}/tools/one_page.py ${PROJECT_SOURCE_DIR}/web/index.html
    COMMENT "The one-file page: attnlab.html")
  add_custom_target(attnlab_one_page ALL DEPENDS ${CMAKE_BINARY_DIR}/attnlab.html)
else()
  foreach(page_file IN ITEMS index.html isolation.js)
    configure_file(${PROJECT_SOURCE_DIR}/web/${page_file} ${CMAKE_BINARY_DIR}/${page_file} COPYONLY)
  endforeach()
endif()
