#!/usr/bin/env python3
"""Writes assets/robots/meshes/wsg50_bubble.obj: the collision ellipsoid of a Soft-bubble finger
pad of the WSG-50 gripper (assets/robots/wsg50.urdf), semi-axes a = b = 41.65 mm (x, y) and
c = 62.5 mm (z), as in Drake's schunk_wsg_50_hydro_bubble.sdf (drake_models), centred at its
origin.

An octahedron subdivided LEVEL = 1 times (8·4 = 32 triangles, edges of about 40 mm: the
coarseness of Drake's mesh_resolution_hint of 0.04 m for these pads) with its vertices pushed
onto the unit sphere, then scaled to the semi-axes: closed, convex, outward-oriented. As a
hydroelastic_compliant mesh its tets are fanned from these triangles to the centroid
(assets/scenes/README.md, Meshes), so its pressure field rises linearly from 0 on the surface
to E_h at the centre along each ray, the field of Drake's compliant ellipsoid. (A finer pad,
e.g. the icosahedron's, changes the grip little: the handle's 5 mm mesh sets the patches'
faces.)

Usage: scripts/make_wsg50_pads.py [OUTPUT]   (default: assets/robots/meshes/wsg50_bubble.obj)
Standard library only; the output is deterministic.
"""
import math
import os
import sys

SEMI_AXES_M = (0.04165, 0.04165, 0.0625)
LEVEL = 1
BASE = "octahedron"


def octahedron():
    v = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    f = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]
    return v, f


def icosahedron():
    t = (1 + math.sqrt(5)) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
         (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
         (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
         (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    return [normalized(p) for p in v], f


def normalized(p):
    n = math.sqrt(sum(c * c for c in p))
    return tuple(c / n for c in p)


def subdivide(vertices, faces):
    """Each triangle into four, the new vertices on the unit sphere."""
    midpoint = {}

    def mid(i, j):
        key = (min(i, j), max(i, j))
        if key not in midpoint:
            a, b = vertices[i], vertices[j]
            vertices.append(normalized(tuple((x + y) / 2 for x, y in zip(a, b))))
            midpoint[key] = len(vertices) - 1
        return midpoint[key]

    out = []
    for a, b, c in faces:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        out += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "assets", "robots", "meshes", "wsg50_bubble.obj")
    vertices, faces = {"octahedron": octahedron, "icosahedron": icosahedron}[BASE]()
    for _ in range(LEVEL):
        faces = subdivide(vertices, faces)
    with open(path, "w") as f:
        f.write("# WSG-50 Soft-bubble pad collision ellipsoid, a = b = 41.65 mm, c = 62.5 mm "
                "(scripts/make_wsg50_pads.py)\no wsg50_bubble\n")
        for p in vertices:
            f.write("v {:.7f} {:.7f} {:.7f}\n".format(*(c * s for c, s in zip(p, SEMI_AXES_M))))
        for a, b, c in faces:
            f.write("f {} {} {}\n".format(a + 1, b + 1, c + 1))


if __name__ == "__main__":
    main()
