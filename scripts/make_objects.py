#!/usr/bin/env python3
"""Writes contactlab's object library (assets/objects/*.obj): closed, outward-oriented triangle
meshes of parts for contact-rich tasks, made here from their dimensions (nothing downloaded).

- round_peg.obj: a 20 mm round peg, 80 mm long, with a 1 mm × 45° chamfer at its bottom edge
  (convex: it can be a compliant hydroelastic body), centred at its origin, axis z.
- round_hole_block.obj: a 100 × 100 × 50 mm block with a round through-hole of 20.5 mm (0.5 mm
  diametral clearance for the peg) and a 3 mm × 45° chamfer at its top, origin at the hole's
  centre on the top face (non-convex: a rigid hydroelastic body).

Round parts are polygons of N sides inscribed in their circle (N = 64 for holes, 48 for pegs).

Usage: scripts/make_objects.py [OUTPUT_DIR]   (default: assets/objects)
Standard library only; the output is deterministic.
"""
import math
import os
import sys


class Mesh:
    def __init__(self):
        self.vertices = []
        self.triangles = []

    def ring(self, radius, z, n, phase=0.0):
        """n vertices on a circle of `radius` at height z; returns their indices."""
        first = len(self.vertices)
        for i in range(n):
            a = phase + 2 * math.pi * i / n
            self.vertices.append((radius * math.cos(a), radius * math.sin(a), z))
        return list(range(first, first + n))

    def square_ring(self, half_width, z, n, phase):
        """n vertices where the rays of ring() meet a square of `half_width` at height z."""
        first = len(self.vertices)
        for i in range(n):
            a = phase + 2 * math.pi * i / n
            c, s = math.cos(a), math.sin(a)
            t = half_width / max(abs(c), abs(s))
            self.vertices.append((t * c, t * s, z))
        return list(range(first, first + n))

    def point(self, x, y, z):
        self.vertices.append((x, y, z))
        return len(self.vertices) - 1

    def band(self, lower, upper):
        """Quads between two rings (same n), outward when `lower` runs counterclockwise seen from
        +z below `upper` and the band faces away from the axis (swap them to face it)."""
        n = len(lower)
        for i in range(n):
            j = (i + 1) % n
            self.triangles.append((lower[i], lower[j], upper[j]))
            self.triangles.append((lower[i], upper[j], upper[i]))

    def cap(self, center, ring, up):
        """A fan from `center` to `ring`, its normal +z when `up`, else −z."""
        n = len(ring)
        for i in range(n):
            j = (i + 1) % n
            self.triangles.append((center, ring[i], ring[j]) if up else (center, ring[j], ring[i]))

    def write(self, path, comment):
        with open(path, "w") as f:
            f.write(f"# {comment}\n# Written by scripts/make_objects.py; units: metres.\n")
            for v in self.vertices:
                f.write("v {:.9f} {:.9f} {:.9f}\n".format(*v))
            for t in self.triangles:
                f.write("f {} {} {}\n".format(*(i + 1 for i in t)))


def round_peg(radius=0.01, length=0.08, chamfer=0.001, n=48):
    m = Mesh()
    h = length / 2
    bottom = m.ring(radius - chamfer, -h, n)
    low = m.ring(radius, -h + chamfer, n)
    top = m.ring(radius, h, n)
    m.band(bottom, low)
    m.band(low, top)
    m.cap(m.point(0, 0, -h), bottom, up=False)
    m.cap(m.point(0, 0, h), top, up=True)
    return m


def round_hole_block(half_width=0.05, height=0.05, hole_radius=0.01025, chamfer=0.003, n=64):
    """Origin at the hole's centre on the top face (z = 0), the block below it."""
    m = Mesh()
    phase = math.pi / 4  # a ray through each corner: the square rings keep the corners exact
    outer_top = m.square_ring(half_width, 0.0, n, phase)
    outer_bottom = m.square_ring(half_width, -height, n, phase)
    rim = m.ring(hole_radius + chamfer, 0.0, n, phase)
    throat = m.ring(hole_radius, -chamfer, n, phase)
    hole_bottom = m.ring(hole_radius, -height, n, phase)
    m.band(outer_bottom, outer_top)  # outer walls, facing out
    m.band(throat, hole_bottom)      # the hole's wall, facing the axis
    m.band(rim, throat)              # the chamfer, facing up and in
    # Top annulus (normal +z) and bottom annulus (normal −z), square to circle.
    for i in range(n):
        j = (i + 1) % n
        m.triangles.append((outer_top[i], outer_top[j], rim[j]))
        m.triangles.append((outer_top[i], rim[j], rim[i]))
        m.triangles.append((outer_bottom[i], hole_bottom[j], outer_bottom[j]))
        m.triangles.append((outer_bottom[i], hole_bottom[i], hole_bottom[j]))
    return m


OBJECTS = {
    "round_peg.obj": (round_peg, "Round peg: 20 mm diameter, 80 mm long, 1 mm chamfer; "
                                 "centred, axis z."),
    "round_hole_block.obj": (round_hole_block, "Block 100 x 100 x 50 mm, round through-hole "
                                               "20.5 mm with a 3 mm chamfer; origin at the "
                                               "hole's centre on the top face."),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "assets", "objects")
    os.makedirs(out, exist_ok=True)
    for name, (make, comment) in OBJECTS.items():
        make().write(os.path.join(out, name), comment)


if __name__ == "__main__":
    main()
