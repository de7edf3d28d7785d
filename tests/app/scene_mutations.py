#!/usr/bin/env python3
"""Mutated built-in scenes fail cleanly (docs/architecture.md, Errors and exit codes).

Usage: scene_mutations.py CONTACTLAB_BINARY SOURCE_DIR [COUNT] [SEED]

Each mutant is a built-in scene file with one line changed the way a typo, a bad edit or a
corrupted file changes it: a number becomes huge, tiny, negative, zero, non-finite or text; a
line is deleted, duplicated, truncated or gets binary bytes; a scalar becomes a list or a map.
The mutants are run headless for a few steps (relative URDF paths resolve against the asset
folder) and every run must end as the contract says:
  - exit 0 with a summary whose numbers are all finite (a JSON null would be a NaN); or
  - exit 1, 2 or 3 with exactly one error line, that names no library internals;
  - never a signal, a hang, std::bad_alloc, or invalid UTF-8 on stderr or in the summary.
The seed is fixed, so a failure is reproducible: the mutant is written next to the report.
"""
import json
import math
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])")
REPLACEMENTS = ["1e308", "-1e308", "1e-308", "0", "-1", "-0.5", ".nan", ".inf", "-.inf",
                "1e30", "abc", "[1, 2]", "{a: 1}", "''", "3000000000", "2147483648"]
RAW_LIBRARY_TEXT = ["bad conversion", "operator[]", "yaml-cpp", "bad_alloc", "std::",
                    "basic_string", "terminate called", "Assertion", "console_bridge",
                    "invalid node", ":0:"]
TIMEOUT_S = 60
MEMORY_LIMIT_BYTES = 8_000_000_000


def mutate(lines, rng):
    """One random edit of one line; returns (new_lines, description)."""
    out = list(lines)
    numeric = [i for i, l in enumerate(lines) if NUMBER.search(l) and not l.lstrip().startswith("#")]
    kind = rng.choice(["number"] * 6 + ["delete", "duplicate", "truncate", "binary", "scalar"])
    if kind == "number" and numeric:
        i = rng.choice(numeric)
        matches = list(NUMBER.finditer(lines[i]))
        m = rng.choice(matches)
        new = rng.choice(REPLACEMENTS)
        out[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        return out, f"line {i + 1}: {m.group(0)} -> {new}"
    content = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("#")]
    i = rng.choice(content)
    if kind == "delete":
        del out[i]
    elif kind == "duplicate":
        out.insert(i, lines[i])
    elif kind == "truncate":
        out[i] = lines[i][:rng.randrange(0, max(1, len(lines[i])))]
    elif kind == "binary":
        junk = bytes(rng.randrange(256) for _ in range(8)).decode("latin-1")
        out[i] = lines[i] + junk
    else:  # a scalar value becomes a list or a map
        out[i] = re.sub(r":\s*([^\s\[{#][^#]*)$", r": [\1, {x: 1}]", lines[i])
    return out, f"line {i + 1}: {kind}"


def finite_numbers(node, path="summary"):
    """Yields the paths of JSON nulls and non-finite numbers."""
    if node is None:
        yield path
    elif isinstance(node, float) and not math.isfinite(node):
        yield path
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from finite_numbers(v, f"{path}.{k}")
    elif isinstance(node, list):
        for k, v in enumerate(node):
            yield from finite_numbers(v, f"{path}[{k}]")


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def check(binary, scene_path, summary_path):
    """Runs one mutant; returns a defect description or None."""
    if os.path.exists(summary_path):
        os.remove(summary_path)
    try:
        run = subprocess.run([binary, "--headless", "--scene", scene_path, "--duration", "0.01",
                              "--summary", summary_path], capture_output=True,
                             timeout=TIMEOUT_S, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return f"no exit within {TIMEOUT_S} s"
    try:
        stderr = run.stderr.decode("utf-8")
    except UnicodeDecodeError:
        return "stderr is not valid UTF-8"
    errors = [l for l in stderr.splitlines() if "error" in l.lower()]
    if run.returncode < 0:
        return f"killed by signal {-run.returncode}: {stderr[-300:]!r}"
    if run.returncode == 0:
        try:
            with open(summary_path, encoding="utf-8") as f:
                bad = list(finite_numbers(json.load(f)))
        except (OSError, ValueError) as e:
            return f"exit 0 but the summary is unreadable: {e}"
        return f"exit 0 with null or non-finite {bad[:3]}" if bad else None
    if run.returncode not in (1, 2, 3):
        return f"exit code {run.returncode}"
    lines = [l for l in stderr.splitlines() if l.strip()]
    last = lines[-1] if lines else ""
    if len(errors) != 1 or "error" not in last.lower():
        return f"exit {run.returncode} without exactly one final error line: {stderr[-400:]!r}"
    raw = [t for t in RAW_LIBRARY_TEXT if t in last]
    if raw:
        return f"raw library text {raw}: {last!r}"
    return None


def main():
    binary, source_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 240
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 14)
    scene_dir = os.path.join(source_dir, "assets", "scenes")
    scenes = sorted(f for f in os.listdir(scene_dir) if f.endswith(".yaml"))
    defects = []
    with tempfile.TemporaryDirectory(prefix="contactlab_mutants_") as tmp:
        for n in range(count):
            name = scenes[n % len(scenes)]
            with open(os.path.join(scene_dir, name), encoding="latin-1") as f:  # bytes as they are
                lines = f.read().split("\n")
            mutant, what = mutate(lines, rng)
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="latin-1") as f:
                f.write("\n".join(mutant))
            defect = check(binary, path, os.path.join(tmp, "summary.json"))
            if defect:
                kept = os.path.join(tempfile.gettempdir(), f"contactlab_mutant_{n}_{name}")
                with open(kept, "w", encoding="latin-1") as f:
                    f.write("\n".join(mutant))
                defects.append(f"mutant {n} of {name} ({what}; kept as {kept}): {defect}")
    for d in defects:
        print(d)
    print(f"{count} mutants of {len(scenes)} built-in scenes: {len(defects)} defects")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
