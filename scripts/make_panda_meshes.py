#!/usr/bin/env python3
"""Writes contactlab's own visual meshes for the Panda (assets/robots/meshes/*.obj).

Nothing is downloaded: every link is a superellipsoid shell sized like its collision primitive
in assets/robots/panda.urdf (rounded cylinders for the arm links, rounded boxes for the hand and
fingers). A superellipsoid with exponents <= 1 is convex, so the shells are convex too.

    x = a C(v, e1) C(u, e2),  y = b C(v, e1) S(u, e2),  z = c S(v, e1)
    C(w, e) = sign(cos w) |cos w|^e,  S(w, e) = sign(sin w) |sin w|^e

e2 = 1 gives a circular cross-section (a cylinder with rounded rims when e1 is small), e1 = e2
small a box with rounded edges. Coordinates in metres, z along the primitive's axis (as a URDF
<cylinder>), centred at the origin: the URDF places each mesh with the collision origin.

Usage: scripts/make_panda_meshes.py [OUTPUT_DIR]   (default: assets/robots/meshes)
Standard library only; the output is deterministic.
"""
import math
import os
import sys

# name: (a, b, c) half sizes [m], e1 (along z), e2 (around z)
ROUNDED_CYLINDER = 0.25
ROUNDED_BOX = 0.2
LINKS = {
    "link0": ((0.06, 0.06, 0.07), ROUNDED_CYLINDER, 1.0),
    "link1": ((0.06, 0.06, 0.09), ROUNDED_CYLINDER, 1.0),
    "link2": ((0.06, 0.06, 0.06), ROUNDED_CYLINDER, 1.0),
    "link3": ((0.06, 0.06, 0.075), ROUNDED_CYLINDER, 1.0),
    "link4": ((0.06, 0.06, 0.06), ROUNDED_CYLINDER, 1.0),
    "link5": ((0.06, 0.06, 0.09), ROUNDED_CYLINDER, 1.0),
    "link6": ((0.05, 0.05, 0.04), ROUNDED_CYLINDER, 1.0),
    "link7": ((0.045, 0.045, 0.045), ROUNDED_CYLINDER, 1.0),
    "hand": ((0.025, 0.1, 0.03), ROUNDED_BOX, ROUNDED_BOX),
    "finger": ((0.01, 0.006, 0.0225), ROUNDED_BOX, ROUNDED_BOX),
}
SEGMENTS = 32  # around z
RINGS = 16  # pole to pole


def signed_power(x, e):
    return math.copysign(abs(x) ** e, x)


def superellipsoid(half, e1, e2, segments=SEGMENTS, rings=RINGS):
    """Vertices and counterclockwise (outward) triangles, 1-based for OBJ."""
    a, b, c = half
    vertices = [(0.0, 0.0, -c)]  # south pole
    for i in range(1, rings):
        v = -math.pi / 2 + math.pi * i / rings
        cv, sv = signed_power(math.cos(v), e1), signed_power(math.sin(v), e1)
        for j in range(segments):
            u = -math.pi + 2 * math.pi * j / segments
            vertices.append((a * cv * signed_power(math.cos(u), e2),
                             b * cv * signed_power(math.sin(u), e2), c * sv))
    vertices.append((0.0, 0.0, c))  # north pole
    north = len(vertices)

    def ring(i, j):  # ring i in 1..rings-1, segment j (wraps)
        return 2 + (i - 1) * segments + (j % segments)

    triangles = []
    for j in range(segments):
        triangles.append((1, ring(1, j + 1), ring(1, j)))
        triangles.append((north, ring(rings - 1, j), ring(rings - 1, j + 1)))
    for i in range(1, rings - 1):
        for j in range(segments):
            p, q = ring(i, j), ring(i, j + 1)
            r, s = ring(i + 1, j + 1), ring(i + 1, j)
            triangles.append((p, q, r))
            triangles.append((p, r, s))
    return vertices, triangles


def write_obj(path, name, vertices, triangles):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(f"# contactlab Panda visual mesh '{name}' (scripts/make_panda_meshes.py)\n")
        f.write(f"o {name}\n")
        for x, y, z in vertices:
            f.write(f"v {x:.7f} {y:.7f} {z:.7f}\n")
        for t in triangles:
            f.write("f {} {} {}\n".format(*t))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "assets", "robots", "meshes")
    os.makedirs(out, exist_ok=True)
    for name, (half, e1, e2) in LINKS.items():
        vertices, triangles = superellipsoid(half, e1, e2)
        write_obj(os.path.join(out, f"panda_{name}.obj"), f"panda_{name}", vertices, triangles)
    print(f"wrote {len(LINKS)} meshes to {out}")


if __name__ == "__main__":
    main()
