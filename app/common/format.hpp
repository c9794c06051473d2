// Numbers as both front ends write them.
#pragma once

#include <string>

namespace attnlab {

// A count with its unit: exact below 10,000 ("5742 FLOP"), then k, M or G ("98.3 kFLOP",
// "9.70 GFLOP"). With unit "" (parameters): "1234", "2.36 M".
std::string count_text(double value, const char* unit);

}  // namespace attnlab
