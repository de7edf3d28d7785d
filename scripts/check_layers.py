#!/usr/bin/env python3
"""Checks every #include of the project against its layers (docs/architecture.md §1):

    engine  <-  io, input  <-  app  <-  render  <-  ui  <-  main.cc
                                 app  <-  python (the Python module)

Why: the headless binary, the tests and the benchmarks build without a display, and a layer
that includes one above it ties them together again. src/ is made of layers, and a layer of
parts (its subfolders, or file pairs named in PARTS); bench/, fuzz/, soak/ and tests/ are
trees with rows of their own. A file may include its own part or tree, and what its row lists.
An include is resolved as the compiler does (the including file's folder, then src/, tests/
and the project), so headers outside the project are skipped. A folder of src/ that is not in
the tables is reported too: splitting a layer into subfolders means adding their order here.

Prints one line per violation (path:line: what) and exits 1 if there is any.
Usage: check_layers.py [PROJECT_DIR]   (default: this script's project)
"""
import pathlib
import re
import sys

ABOVE = "*"  # in a row: every entry listed above it in its table

# src/: what each layer may include besides itself, bottom-up.
LAYERS = {
    "engine": "",
    "io": "engine",
    "input": "",
    "app": "engine io input",
    "render": "engine app",  # the data it draws, read-only: not io or input
    "ui": ABOVE,
    "main": ABOVE,  # src/main.cc
    "python": "engine io app",  # src/python: the Python module, beside main.cc; no GUI
}
# A layer's parts, bottom-up, and which parts of the same layer each may include. A part is a
# subfolder, or a file pair at the top of the layer (named without extension); "." is every
# other file at the top. A layer not listed is flat ({".": ""}). To split a layer, add a line
# per part in its order, e.g. "app": {"teleop": "", "runtime": "teleop", ".": ABOVE}.
PARTS = {
    "engine": {
        "multibody": "",
        "geometry": "",
        "solver": "",
        "hydroelastic": "geometry",
        "control": "multibody",
        "world": "multibody geometry solver hydroelastic",
    },
    "app": {
        "teleop": "",  # a person's commands to robot targets and forces
        "command_line": "",  # app/command_line.{h,cc}: the options, checked, for both runs
        "runtime": "teleop",  # the sim thread, its snapshots, timeline, ghost and recording
        "headless": "teleop command_line",  # runs without a window: logs, summaries, checks
        # contact parameters fitted to a reference log (a file, or the run's timeline)
        "calibration": "teleop command_line runtime",
    },
    "ui": {
        "widgets": "",  # ImGui pieces: sliders, plots, colour bars, the palette
        "view": "widgets",  # the 3D view: camera, picking, overlays
        "state": "view widgets",  # what the window keeps between frames, and its actions
        "panels": ABOVE,
        ".": ABOVE,  # the application, which composes them
    },
}
# The other trees: what each may include besides itself, for its purpose.
TREES = {
    "bench": "engine io input app",  # headless runs as the command line makes them; no GUI
    "fuzz": "engine io input",  # the readers of a user's files (scenes, URDF, meshes, CSV)
    "soak": "engine io input app render ui",  # the sim runtime, and the GUI's Application
    "tests": "engine io input app render ui",  # any layer, but see GUI_FREE_TESTS
}
# Tests of the engine run without a display: they may not reach the GUI, not even through a
# helper header of tests/ they include.
GUI_FREE_TESTS = ("tests/engine", "tests/physics")
GUI = {"render", "ui"}

INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]')
SOURCES = (".h", ".cc", ".hpp", ".cpp")


def rows(table: dict) -> dict:
    """The table with each row as a set, ABOVE expanded."""
    result = {}
    for name, row in table.items():
        listed = set(row.split())
        result[name] = (listed - {ABOVE}) | (set(result) if ABOVE in listed else set())
    return result


def unit(root: pathlib.Path, path: pathlib.Path):
    """(layer or tree, part) of a project file: ("engine", "world"), ("tests", "."); the part is
    None for a file of src/ that the tables do not place."""
    parts = path.relative_to(root).parts
    if parts[0] != "src":
        return parts[0], "."
    if len(parts) == 2:  # a file at the top of src/: its own layer (main.cc)
        return path.stem, "."
    layer, inner = parts[1], parts[2:]
    if layer not in LAYERS:
        return layer, None
    table = PARTS.get(layer, {".": ""})
    name = inner[0] if len(inner) > 1 else pathlib.PurePath(inner[0]).stem
    if name in table:
        return layer, name
    if len(inner) == 1 and "." in table:
        return layer, "."
    return layer, None


def in_src(root: pathlib.Path, path: pathlib.Path) -> bool:
    return path.relative_to(root).parts[0] == "src"


def resolve(root: pathlib.Path, source: pathlib.Path, target: str):
    """The project file an include names, or None (a system or generated header)."""
    for folder in (source.parent, root / "src", root / "tests", root):
        candidate = (folder / target).resolve()
        if candidate.is_file() and candidate.is_relative_to(root):
            return candidate
    return None


def includes(path: pathlib.Path):
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        match = INCLUDE.match(line)
        if match:
            yield number, match.group(1)


def gui_chain(root: pathlib.Path, path: pathlib.Path, seen: set):
    """How a file reaches the GUI: [] for a file of render/ or ui/, the includes that lead to
    one for a file of tests/ (a helper header), None if it does not."""
    top, _ = unit(root, path)
    if in_src(root, path):
        return [] if top in GUI else None  # the layers keep the GUI out of the layers below it
    if top != "tests" or path in seen:
        return None
    seen.add(path)
    for _, target in includes(path):
        resolved = resolve(root, path, target)
        chain = gui_chain(root, resolved, seen) if resolved else None
        if chain is not None:
            return [target] + chain
    return None


def unlisted(root: pathlib.Path):
    """A folder or file of src/ that the tables do not place."""
    src = root / "src"
    for path in sorted(src.iterdir()):
        name = path.name if path.is_dir() else path.stem
        if (path.is_dir() or path.suffix in SOURCES) and name not in LAYERS:
            yield f"src/{path.name}: not a layer of check_layers.py's LAYERS"
    for layer in LAYERS:
        table = PARTS.get(layer, {".": ""})
        for path in sorted((src / layer).iterdir()) if (src / layer).is_dir() else []:
            where = f"src/{layer}/{path.name}"
            if path.is_dir() and path.name not in table:
                yield f"{where}: a subfolder not in check_layers.py's PARTS[{layer!r}]"
            elif path.suffix in SOURCES and path.stem not in table and "." not in table:
                yield f"{where}: a file at the top of {layer}, which PARTS lists by subfolder"


def problem(root: pathlib.Path, path: pathlib.Path, target: str, resolved: pathlib.Path):
    """What is wrong with the file `path` including `target` (the file `resolved`), or None."""
    top, part = unit(root, path)
    target_top, target_part = unit(root, resolved)
    if in_src(root, path):
        if part is None:
            return None  # reported by unlisted()
        if not in_src(root, resolved):
            return f"{top} includes {target}, which is outside src/"
        if target_top != top:
            allowed = rows(LAYERS)[top]
            return None if target_top in allowed else \
                f"{top} includes {target} (it may include {names(allowed)})"
        allowed = rows(PARTS.get(top, {".": ""}))[part]
        return None if target_part in (part, None) or target_part in allowed else \
            f"{label(top, part)} includes {target} (it may include {names(allowed)} of {top})"
    allowed = rows(TREES)[top]
    if target_top != top and (not in_src(root, resolved) or target_top not in allowed):
        return f"{top} includes {target} (it may include {names(allowed)})"
    if path.relative_to(root).as_posix().startswith(GUI_FREE_TESTS):
        chain = gui_chain(root, resolved, {path})
        if chain is not None:
            return f"an engine test reaches the GUI: {' -> '.join([target] + chain)}"
    return None


def violations(root: pathlib.Path):
    root = root.resolve()
    for tree in ["src", *TREES]:
        for path in sorted((root / tree).rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            for number, target in includes(path):
                resolved = resolve(root, path, target)
                found = resolved and problem(root, path, target, resolved)
                if found:
                    yield f"{path.relative_to(root).as_posix()}:{number}: {found}"
    yield from unlisted(root)


def label(layer: str, part: str) -> str:
    return f"{layer}/{part}" if part != "." else f"the top of {layer}"


def names(allowed: set) -> str:
    return ", ".join(sorted(allowed)) or "nothing else"


def main() -> int:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1]
    if root.name == "src" and not (root / "src").is_dir():
        root = root.parent  # the former usage, check_layers.py SRC_DIR
    found = list(violations(root))
    for line in found:
        print(line)
    print(f"layers: {len(found)} violation(s) in {root}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
