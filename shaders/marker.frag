#version 330 core
flat in vec3 v_color;  // sRGB 0-1, written exactly (the GUI tests look for it)

out vec4 frag_color;

void main() {
  vec2 d = 2.0 * gl_PointCoord - 1.0;
  if (dot(d, d) > 1.0) discard;
  frag_color = vec4(v_color, 1.0);
}
