#version 330 core
// A marker ball (render/marker_sprites.h) as a point sprite: its disc on screen, at the depth
// of the ball's nearest point.
layout(location = 0) in vec4 a_center_radius;  // world centre [m], radius [m]
layout(location = 1) in vec3 a_color;

uniform mat4 u_view_projection;
uniform vec3 u_eye;
uniform float u_pixels_per_metre;  // at unit distance from the eye

flat out vec3 v_color;

void main() {
  vec3 center = a_center_radius.xyz;
  float radius = a_center_radius.w;
  vec3 to_eye = u_eye - center;
  float distance = max(length(to_eye), 1e-9);
  vec4 clip = u_view_projection * vec4(center, 1.0);
  vec4 front = u_view_projection * vec4(center + to_eye * (radius / distance), 1.0);
  gl_Position = vec4(clip.xy, front.z / front.w * clip.w, clip.w);
  gl_PointSize = 2.0 * radius * u_pixels_per_metre / distance;
  v_color = a_color;
}
