// std::visit over a variant with one lambda per alternative: std::visit(Overloaded{f, g}, v).
#pragma once

namespace attnlab {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
// Spelled out for compilers without C++20's aggregate deduction (Emscripten's clang 14).
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace attnlab
