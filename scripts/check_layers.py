#!/usr/bin/env python3
"""Checks that no folder of src/ includes a folder above it (docs/architecture.md, Layers):

    engine  <-  io, input  <-  app  <-  render  <-  ui  <-  main.cc

Within the engine, each module may include only the modules listed for it below. Prints one
line per violation and exits 1 if there is any. Usage: check_layers.py SRC_DIR
"""
import pathlib
import re
import sys

# What each layer may include (besides itself).
ALLOWED = {
    "engine": set(),
    "io": {"engine"},
    "input": set(),
    "app": {"engine", "io", "input"},
    "render": {"engine", "io", "input", "app"},
    "ui": {"engine", "io", "input", "app", "render"},
    "main.cc": {"engine", "io", "input", "app", "render", "ui"},
}
# Engine modules: what each may include (besides itself).
ENGINE = {
    "multibody": set(),
    "geometry": set(),
    "solver": set(),
    "hydroelastic": {"geometry"},
    "control": {"multibody"},
    "world": {"multibody", "geometry", "solver", "hydroelastic"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(relative: pathlib.Path) -> str:
    return relative.parts[0] if len(relative.parts) > 1 else relative.name


def violations(src: pathlib.Path):
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cc") or not path.is_file():
            continue
        relative = path.relative_to(src)
        layer = layer_of(relative)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = pathlib.PurePosixPath(match.group(1))
            target_layer = target.parts[0] if len(target.parts) > 1 else None
            if target_layer is None or target_layer not in ALLOWED or target_layer == layer:
                if layer == "engine" and target_layer == "engine" and len(target.parts) > 2:
                    module, target_module = relative.parts[1], target.parts[1]
                    if target_module != module and target_module not in ENGINE.get(module, set()):
                        yield f"{relative}:{number}: engine/{module} includes {target}"
                continue
            if target_layer not in ALLOWED.get(layer, set()):
                yield f"{relative}:{number}: {layer} includes {target} (a layer above it)"


def main() -> int:
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    found = list(violations(src))
    for v in found:
        print(v)
    print(f"layers: {len(found)} violation(s) in {src}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
