#version 330 core
in vec3 v_world;
in vec3 v_normal;

uniform vec3 u_color;     // sRGB, 0-1
uniform float u_shading;  // 0: exact flat colour (emissive); up to 1: facing-ratio shading
uniform vec3 u_eye;

out vec4 frag_color;

void main() {
  // No lighting, no gamma: with u_shading = 0 the framebuffer gets u_color exactly.
  vec3 color = u_color;
  if (u_shading > 0.0) {
    float facing = abs(dot(normalize(v_normal), normalize(u_eye - v_world)));
    color *= mix(1.0, 0.55 + 0.45 * facing, u_shading);
  }
  frag_color = vec4(color, 1.0);
}
