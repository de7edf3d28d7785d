#version 330 core
in vec3 v_world;
in vec3 v_normal;
flat in vec4 v_color_shading;  // sRGB 0-1; shading 0: exact flat colour, up to 1: facing ratio

uniform vec3 u_eye;

out vec4 frag_color;

void main() {
  // No lighting, no gamma: with shading 0 the framebuffer gets the colour exactly.
  vec3 color = v_color_shading.rgb;
  float shading = v_color_shading.a;
  if (shading > 0.0) {
    float facing = abs(dot(normalize(v_normal), normalize(u_eye - v_world)));
    color *= mix(1.0, 0.55 + 0.45 * facing, shading);
  }
  frag_color = vec4(color, 1.0);
}
