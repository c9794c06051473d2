#version 330 core
// Colours one attention map: each texel of Values is one (query, key) cell as a float; the
// colour comes from the Colormap strip, the same 256-entry table the CPU side uses (colormap.cpp),
// so the pixel test can predict every cell's colour.
in vec2 Frag_UV;
in vec4 Frag_Color;

uniform sampler2D Values;    // GL_R32F, rows = queries, columns = keys
uniform float MaskedBelow;   // a value below this is a masked cell (heatmap_data.hpp)
uniform sampler2D Colormap;  // 256 x 1 RGBA8, sampled linearly between entries
uniform vec2 ValueRange;     // values mapped to the first and last colour
uniform vec3 MaskedColorA;   // masked cells are hatched with these two greys, so they never
uniform vec3 MaskedColorB;   // look like a small weight
uniform float HatchPeriod;   // stripe width in pixels
uniform float EvenAbove;     // a value above this is an even row's cell (colormap.hpp: spread
uniform vec3 EvenColor;      // evenly, 1/n each), drawn in this neutral grey, not the map's top

layout(location = 0) out vec4 Out_Color;

void main() {
  float value = texture(Values, Frag_UV).r;
  if (value < MaskedBelow) {
    float stripe = mod(floor((gl_FragCoord.x + gl_FragCoord.y) / HatchPeriod), 2.0);
    Out_Color = vec4(mix(MaskedColorA, MaskedColorB, stripe), Frag_Color.a);
    return;
  }
  if (value > EvenAbove) {
    Out_Color = vec4(EvenColor, Frag_Color.a);
    return;
  }
  float span = max(ValueRange.y - ValueRange.x, 1.0e-12);
  float t = clamp((value - ValueRange.x) / span, 0.0, 1.0);
  float entries = float(textureSize(Colormap, 0).x);
  vec3 rgb = texture(Colormap, vec2((t * (entries - 1.0) + 0.5) / entries, 0.5)).rgb;
  Out_Color = vec4(rgb, Frag_Color.a);
}
