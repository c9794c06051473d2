# Turns every SHADER_DIR/*.glsl into a raw string literal in one header:
#   shaders/heatmap.frag.glsl -> attnlab::shaders::kHeatmapFrag
# Run as: cmake -DSHADER_DIR=... -DOUTPUT=... -P embed_shaders.cmake
file(GLOB shader_files ${SHADER_DIR}/*.glsl)
list(SORT shader_files)
set(body "// Generated from shaders/*.glsl by embed_shaders.cmake: do not edit.\n#pragma once\n\n")
string(APPEND body "namespace attnlab::shaders {\n\n")
foreach(path IN LISTS shader_files)
  get_filename_component(file_name ${path} NAME)
  string(REGEX REPLACE "\\.glsl$" "" stem ${file_name})
  # heatmap.frag -> HeatmapFrag
  string(REGEX REPLACE "[^A-Za-z0-9]+" ";" parts ${stem})
  set(identifier "k")
  foreach(part IN LISTS parts)
    string(SUBSTRING ${part} 0 1 first)
    string(SUBSTRING ${part} 1 -1 rest)
    string(TOUPPER ${first} first)
    string(APPEND identifier ${first}${rest})
  endforeach()
  file(READ ${path} source)
  string(APPEND body "// ${file_name}\ninline constexpr const char* ${identifier} = R\"glsl(${source})glsl\";\n\n")
endforeach()
string(APPEND body "}  // namespace attnlab::shaders\n")
file(WRITE ${OUTPUT} "${body}")
