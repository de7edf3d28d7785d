#version 330 core
// GROUND (a program of its own, not a uniform branch: llvmpipe runs both sides of a branch, so
// every body pixel paid for the grid and the fade) draws the half-space quad.
in vec3 v_world;
in vec3 v_normal;
in vec4 v_light_clip;
in vec2 v_plane;

uniform vec3 u_albedo;           // linear albedo: the sRGB colour to the power 2.2, per draw
uniform vec3 u_light_direction;  // unit, towards the light
uniform vec3 u_eye;
uniform sampler2DShadow u_shadow_map;
uniform int u_shadows;           // 0: no shadow lookup
uniform float u_shadow_texel;    // 1 / shadow map size
uniform float u_shadow_bias;     // depth units
#ifdef GROUND
uniform int u_grid;              // 1: draw grid lines on the ground
uniform vec2 u_plane_center;     // quad centre in plane coordinates
uniform float u_fade_start;      // fade to background between these radii (m)
uniform float u_fade_end;
uniform vec3 u_background;       // sRGB clear colour
#endif
uniform float u_alpha;           // opacity (< 1: see-through static geometry, blended)

out vec4 frag_color;

vec3 ToGamma(vec3 c) { return pow(c, vec3(1.0 / 2.2)); }

// x^48 by squaring: six products where pow takes a logarithm and an exponential per pixel.
float Pow48(float x) {
  float x4 = (x * x) * (x * x);
  float x16 = (x4 * x4) * (x4 * x4);
  return x16 * x16 * x16;
}

// 3x3 taps of bilinear depth comparisons: soft, stable shadow edges. HARD_SHADOWS (the cheaper
// render qualities) takes one tap, a 2x2 bilinear comparison: a ninth of the cost on a software
// rasterizer, where the taps are most of a frame. A compile-time choice, not a uniform branch:
// llvmpipe would run both sides.
float Shadow(float n_dot_l) {
  if (u_shadows == 0) return 1.0;
  vec3 p = v_light_clip.xyz / v_light_clip.w * 0.5 + 0.5;
  if (p.z >= 1.0) return 1.0;
  float reference = p.z - u_shadow_bias * (1.0 + 2.0 * (1.0 - n_dot_l));
#ifdef HARD_SHADOWS
  return texture(u_shadow_map, vec3(p.xy, reference));
#else
  float lit = 0.0;
  for (int y = -1; y <= 1; ++y) {
    for (int x = -1; x <= 1; ++x) {
      lit += texture(u_shadow_map, vec3(p.xy + vec2(x, y) * u_shadow_texel, reference));
    }
  }
  return lit / 9.0;
#endif
}

#ifdef GROUND
// Anti-aliased grid line coverage for lines every `spacing` metres.
float GridLine(vec2 uv, float spacing) {
  vec2 cell = uv / spacing;
  vec2 width = fwidth(cell);
  vec2 distance = abs(fract(cell - 0.5) - 0.5) / max(width, vec2(1e-6));
  return 1.0 - min(min(distance.x, distance.y), 1.0);
}
#endif

void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;  // the ground seen from below, open meshes
  vec3 albedo = u_albedo;

#ifdef GROUND
  if (u_grid == 1) {
    // Minor lines fade out where they would crowd below a few pixels apart (moire).
    float density = max(fwidth(v_plane.x), fwidth(v_plane.y)) / 0.1;
    float minor = GridLine(v_plane, 0.1) * (1.0 - smoothstep(0.15, 0.5, density));
    float major = GridLine(v_plane, 1.0);
    albedo *= 1.0 - 0.45 * max(0.55 * minor, major);
  }
#endif

  vec3 l = normalize(u_light_direction);
  vec3 v = normalize(u_eye - v_world);
  vec3 h = normalize(l + v);
  float n_dot_l = max(dot(n, l), 0.0);
  float specular = n_dot_l > 0.0 ? 0.22 * Pow48(max(dot(n, h), 0.0)) : 0.0;
  float shadow = Shadow(n_dot_l);
  // Hemispheric ambient: more light from the sky (+z) than from the ground.
  vec3 ambient = albedo * (0.26 + 0.10 * n.z);
  vec3 color = ambient + shadow * (albedo * 0.95 * n_dot_l + vec3(specular));
  // Soft roll-off instead of a hard clip keeps bright faces from flattening to white.
  color = color / (1.0 + 0.15 * color);
  vec3 encoded = ToGamma(clamp(color, 0.0, 1.0));

#ifdef GROUND
  float r = length(v_plane - u_plane_center);
  encoded = mix(encoded, u_background, smoothstep(u_fade_start, u_fade_end, r));
#endif
  frag_color = vec4(encoded, u_alpha);
}
