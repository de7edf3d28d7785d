#version 330 core
// One triangle over the whole viewport, from the vertex index alone (no vertex buffer):
// corners (-1,-1), (3,-1), (-1,3).
void main() {
  vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(2.0 * corner - 1.0, 0.0, 1.0);
}
