#version 330 core
// Bodies and ground: world-space position/normal for lighting, light-space position for the
// shadow lookup, plane coordinates for the ground grid.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;

uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform mat4 u_view_projection;
uniform mat4 u_light_view_projection;
// Ground only: mesh coordinates -> half-space frame coordinates (the quad follows the camera).
uniform mat4 u_plane_from_mesh;
// World-space push along the normal before the shadow lookup (normal-offset shadows avoid
// acne without a large depth bias), about one shadow-map texel.
uniform float u_normal_offset;

out vec3 v_world;
out vec3 v_normal;
out vec4 v_light_clip;
out vec2 v_plane;

void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  vec3 n = normalize(u_normal_matrix * a_normal);
  v_world = world.xyz;
  v_normal = n;
  v_light_clip = u_light_view_projection * vec4(world.xyz + n * u_normal_offset, 1.0);
  v_plane = (u_plane_from_mesh * vec4(a_position, 1.0)).xy;
  gl_Position = u_view_projection * world;
}
