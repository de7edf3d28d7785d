#version 330 core
// Depth is written by the fixed pipeline; no colour attachment.
void main() {}
