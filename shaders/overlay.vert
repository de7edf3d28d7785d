#version 330 core
// Contact points, force arrows and body frames, drawn over the scene: one instanced draw per
// mesh (render/overlay_batch.h), each instance with its model matrix, colour and shading.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in mat4 i_model;  // locations 2–5
layout(location = 6) in vec4 i_color_shading;

uniform mat4 u_view_projection;

out vec3 v_world;
out vec3 v_normal;
flat out vec4 v_color_shading;

void main() {
  vec4 world = i_model * vec4(a_position, 1.0);
  v_world = world.xyz;
  // Every overlay's model is a rotation times a scale, M = R S, so the inverse transpose is
  // R S⁻¹ = M S⁻²: normals stay perpendicular under the arrows' non-uniform scale.
  mat3 m = mat3(i_model);
  v_normal = m * (a_normal / vec3(dot(m[0], m[0]), dot(m[1], m[1]), dot(m[2], m[2])));
  v_color_shading = i_color_shading;
  gl_Position = u_view_projection * world;
}
