#version 330 core
in float v_pressure;

uniform sampler2D u_colormap;    // 256 x 1 RGB8: PressureColorMapTable (sRGB, 0-1)
uniform float u_pressure_min;    // Pa, the first colour
uniform float u_inverse_range;   // 1 / (max - min) [1/Pa]
// X-ray look where the patch is seen through a body: diagonal stripes u_hatch_px pixels
// wide in the exact colour, with u_gap_alpha opacity between them (0: solid).
uniform float u_hatch_px;
uniform float u_gap_alpha;
// Alpha > 0: the triangles' edges (drawn as lines) in this exact sRGB colour, no colour map.
uniform vec4 u_line_color;

out vec4 frag_color;

void main() {
  if (u_line_color.a > 0.0) {
    frag_color = u_line_color;
    return;
  }
  // The pressure is mapped per fragment (not per vertex) so that every pixel is a colour of the
  // map; texel centres hold the table's colours exactly, and no lighting or gamma is applied.
  float t = clamp((v_pressure - u_pressure_min) * u_inverse_range, 0.0, 1.0);
  vec3 color = texture(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb;
  float alpha = 1.0;
  if (u_hatch_px > 0.0 && mod(gl_FragCoord.x + gl_FragCoord.y, 2.0 * u_hatch_px) >= u_hatch_px) {
    alpha = u_gap_alpha;
  }
  frag_color = vec4(color, alpha);
}
