#version 330 core
// Contact points, force arrows and body frames, drawn over the scene.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;

uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform mat4 u_view_projection;

out vec3 v_world;
out vec3 v_normal;

void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  v_world = world.xyz;
  v_normal = u_normal_matrix * a_normal;
  gl_Position = u_view_projection * world;
}
