#version 330 core
// The layer's texel under this pixel, as stored: colour premultiplied by alpha.
uniform sampler2D u_layer;
out vec4 frag_color;

void main() { frag_color = texelFetch(u_layer, ivec2(gl_FragCoord.xy), 0); }
