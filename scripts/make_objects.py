#!/usr/bin/env python3
"""Writes contactlab's object library (assets/objects/*.obj): closed, outward-oriented triangle
meshes of parts for contact-rich tasks, made here from their dimensions (nothing downloaded).

- round_peg.obj: a 20 mm round peg, 80 mm long, with a 1 mm × 45° chamfer at its bottom edge
  (convex: it can be a compliant hydroelastic body), centred at its origin, axis z.
- round_hole_block.obj: a 100 × 100 × 50 mm block with a round through-hole of 20.5 mm (0.5 mm
  diametral clearance for the peg) and a 3 mm × 45° chamfer at its top, origin at the hole's
  centre on the top face (non-convex: a rigid hydroelastic body).

- shaft.obj: a 20 mm shaft, 150 mm long (convex), centred, axis z.
- bearing.obj: a bearing ring 40 mm across, 15 mm high, with a 20.4 mm bore (0.4 mm diametral
  clearance on the shaft) and 0.5 mm × 45° chamfers at the bore's two edges (non-convex: rigid
  hydroelastic), centred, axis z.
- mug.obj: a mug 80 mm across and 90 mm high (4 mm wall, 6 mm bottom) as four objects: the cup
  (a closed revolved shell, non-convex) and the three legs of its handle (a loop of 8 mm square
  section); origin at the centre of its base.
- rack.obj: a mug tree as three convex objects — a 160 × 160 × 10 mm base, a 12 mm post 300 mm
  high and a 10 mm arm 100 mm long rising at 30° from the post's top — a convex decomposition:
  in point contact each object collides as itself. Origin at the centre of the base's bottom.

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


def shaft(radius=0.01, length=0.15, n=48):
    return round_peg(radius, length, 0.0005, n)


def bearing(outer=0.02, bore=0.0102, height=0.015, chamfer=0.0005, n=64):
    m = Mesh()
    h = height / 2
    # Counterclockwise in (r, z): out along the bottom, up the outside, in along the top, down
    # the bore (through its chamfers).
    profile = [(bore + chamfer, -h), (outer, -h), (outer, h), (bore + chamfer, h),
               (bore, h - chamfer), (bore, -h + chamfer)]
    rings = [m.ring(r, z, n) for r, z in profile]
    for a, b in zip(rings, rings[1:] + rings[:1]):
        m.band(a, b)
    return m


def mug(radius=0.04, height=0.09, wall=0.004, bottom=0.006, n=48):
    m = Mesh()
    inner = radius - wall
    rings = [m.ring(r, z, n) for r, z in
             [(radius, 0.0), (radius, height), (inner, height), (inner, bottom)]]
    base, floor = m.point(0, 0, 0.0), m.point(0, 0, bottom)
    m.cap(base, rings[0], up=False)
    for a, b in zip(rings, rings[1:]):
        m.band(a, b)
    m.cap(floor, rings[3], up=True)
    # The handle: a loop of 8 mm square section in the xz plane beyond +x, its ends buried 2 mm
    # in the wall, as three boxes (three convex objects, which may overlap): the loop's opening
    # stays open in point contact.
    side, reach, low, high = 0.008, 0.03, 0.02, 0.07
    path = [(radius - 0.002, low), (radius + reach, low), (radius + reach, high),
            (radius - 0.002, high)]
    handle = []
    for (x0, z0), (x1, z1) in zip(path, path[1:]):
        leg = Mesh()
        box(leg, (min(x0, x1) - side / 2, -side / 2, min(z0, z1) - side / 2),
            (max(x0, x1) + side / 2, side / 2, max(z0, z1) + side / 2))
        handle.append(leg)
    return m, handle


def box(mesh, lo, hi):
    """An axis-aligned box from corner lo to corner hi."""
    v = [mesh.point(hi[0] if i & 1 else lo[0], hi[1] if i & 2 else lo[1],
                    hi[2] if i & 4 else lo[2]) for i in range(8)]
    for a, b, c in [(0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6), (0, 1, 5), (0, 5, 4),
                    (2, 6, 7), (2, 7, 3), (0, 4, 6), (0, 6, 2), (1, 3, 7), (1, 7, 5)]:
        mesh.triangles.append((v[a], v[b], v[c]))


def rack():
    base, post, arm = Mesh(), Mesh(), Mesh()
    box(base, (-0.08, -0.08, 0.0), (0.08, 0.08, 0.01))
    post_top = 0.31
    prism(post, (0, 0, 0.01), (0, 0, post_top), 0.006, 24)
    tilt = math.radians(30)
    start = (0.0, 0.0, post_top - 0.02)
    end = (0.1 * math.cos(tilt), 0.0, post_top - 0.02 + 0.1 * math.sin(tilt))
    prism(arm, start, end, 0.005, 24)
    return base, post, arm


def prism(mesh, p0, p1, radius, n):
    """A closed n-gon prism of `radius` from point p0 to point p1."""
    ax = [b - a for a, b in zip(p0, p1)]
    length = math.sqrt(sum(c * c for c in ax))
    w = [c / length for c in ax]
    helper = (1.0, 0.0, 0.0) if abs(w[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = cross(helper, w)
    nu = math.sqrt(sum(c * c for c in u))
    u = [c / nu for c in u]
    v = cross(w, u)
    def ring(center):
        first = len(mesh.vertices)
        for i in range(n):
            a = 2 * math.pi * i / n
            mesh.vertices.append(tuple(center[k] + radius * (math.cos(a) * u[k] + math.sin(a) * v[k])
                                       for k in range(3)))
        return list(range(first, first + n))
    bottom, top = ring(p0), ring(p1)
    mesh.band(bottom, top)
    mesh.cap(mesh.point(*p0), bottom, up=False)
    mesh.cap(mesh.point(*p1), top, up=True)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def write_objects(path, comment, meshes):
    """Several meshes as the objects (`o NAME`) of one OBJ file."""
    with open(path, "w") as f:
        f.write(f"# {comment}\n# Written by scripts/make_objects.py; units: metres.\n")
        base = 0
        for name, mesh in meshes:
            f.write(f"o {name}\n")
            for v in mesh.vertices:
                f.write("v {:.9f} {:.9f} {:.9f}\n".format(*v))
            for t in mesh.triangles:
                f.write("f {} {} {}\n".format(*(i + 1 + base for i in t)))
            base += len(mesh.vertices)


OBJECTS = {
    "round_peg.obj": (round_peg, "Round peg: 20 mm diameter, 80 mm long, 1 mm chamfer; "
                                 "centred, axis z."),
    "shaft.obj": (shaft, "Shaft: 20 mm diameter, 150 mm long; centred, axis z."),
    "bearing.obj": (bearing, "Bearing ring: 40 mm across, 15 mm high, 20.4 mm bore with 0.5 mm "
                             "chamfers; centred, axis z."),
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
    cup, handle = mug()
    write_objects(os.path.join(out, "mug.obj"), "Mug 80 mm across, 90 mm high: the cup and the "
                  "three legs of its handle; origin at the centre of its base.",
                  [("cup", cup)] + [(f"handle_{i}", leg) for i, leg in enumerate(handle)])
    base, post, arm = rack()
    write_objects(os.path.join(out, "rack.obj"), "Mug tree: base, post, arm (convex pieces); "
                  "origin at the centre of the base's bottom.",
                  [("base", base), ("post", post), ("arm", arm)])


if __name__ == "__main__":
    main()
