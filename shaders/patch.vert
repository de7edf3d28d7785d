#version 330 core
// Hydroelastic contact patches: triangles in world coordinates, with the pressure of the
// pressure field at each corner (interpolated linearly, as the field is per tet).
layout(location = 0) in vec3 a_position;
layout(location = 2) in float a_pressure;

uniform mat4 u_view_projection;

out float v_pressure;

void main() {
  v_pressure = a_pressure;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
}
