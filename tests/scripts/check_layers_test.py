#!/usr/bin/env python3
"""scripts/check_layers.py fails on a planted include that breaks the layers and passes a clean
tree: a small synthetic project in a temporary folder, checked by running the script (exit code
and the line printed) and, for the tables of parts, by calling it with a patched table.
Run by ctest as Layers.CheckFailsOnPlantedIncludes; by hand:
    python3 tests/scripts/check_layers_test.py
"""
import pathlib
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check_layers.py"
sys.path.insert(0, str(SCRIPT.parent))
import check_layers  # noqa: E402

# Every row of the tables used once, as the real tree does, and headers outside the project.
CLEAN = {
    "src/engine/geometry/shape.h": "#include <vector>\n",
    "src/engine/world/world.h": '#include "engine/geometry/shape.h"\n#include <Eigen/Dense>\n',
    "src/io/loader.h": '#include "engine/world/world.h"\n',
    "src/input/device.h": "",
    "src/app/runtime/runtime.h": '#include "io/loader.h"\n#include "input/device.h"\n',
    "src/app/runtime/runtime.cc": '#include "app/runtime/runtime.h"\n',
    "src/render/renderer.h": '#include "app/runtime/runtime.h"\n#include "glad/gl.h"\n',
    "src/ui/panels.h": '#include "render/renderer.h"\n#include "imgui.h"\n',
    "src/main.cc": '#include "ui/panels.h"\n',
    "tests/test_support/scenes.h": '#include "io/loader.h"\n',
    "tests/test_support/pixels.h": '#include "render/renderer.h"\n',
    "tests/engine/world/world_test.cc":
        '#include "engine/world/world.h"\n#include "test_support/scenes.h"\n#include "local.h"\n',
    "tests/engine/world/local.h": '#include "engine/geometry/shape.h"\n',
    "tests/physics/fall_test.cc": '#include "app/runtime/runtime.h"\n',
    "tests/ui/panels_test.cc": '#include "ui/panels.h"\n#include "test_support/pixels.h"\n',
    "bench/step_bench.cc": '#include "app/runtime/runtime.h"\n',
    "fuzz/fuzz_loader.cc": '#include "io/loader.h"\n',
    "soak/soak_figures.h": "",
    "soak/soak_main.cc": '#include "ui/panels.h"\n#include "soak/soak_figures.h"\n',
}


def write(root: pathlib.Path, files: dict):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


class CheckLayers(unittest.TestCase):
    def run_check(self, planted: dict):
        """Exit code and output lines of the script on CLEAN with `planted` added."""
        with tempfile.TemporaryDirectory() as folder:
            write(pathlib.Path(folder), {**CLEAN, **planted})
            run = subprocess.run([sys.executable, str(SCRIPT), folder],
                                 capture_output=True, text=True)
            return run.returncode, run.stdout.splitlines()

    def test_a_clean_tree_passes(self):
        code, lines = self.run_check({})
        self.assertEqual(code, 0, lines)
        self.assertEqual(lines[-1].split(" in ")[0], "layers: 0 violation(s)")

    def test_each_planted_include_fails_with_its_line(self):
        cases = [  # (file, its text, the line printed)
            ("src/render/colors.cc", '#include <cmath>\n#include "io/loader.h"\n',
             "src/render/colors.cc:2: render includes io/loader.h (it may include app, engine)"),
            ("src/render/keys.h", '#include "input/device.h"\n',
             "src/render/keys.h:1: render includes input/device.h (it may include app, engine)"),
            ("src/app/runtime/gui_hook.cc", '#include "ui/panels.h"\n',
             "src/app/runtime/gui_hook.cc:1: app includes ui/panels.h "
             "(it may include engine, input, io)"),
            ("src/engine/geometry/world_hook.h", '#include "engine/world/world.h"\n',
             "src/engine/geometry/world_hook.h:1: engine/geometry includes engine/world/world.h "
             "(it may include nothing else of engine)"),
            ("src/io/test_hook.cc", '#include "test_support/scenes.h"\n',
             "src/io/test_hook.cc:1: io includes test_support/scenes.h, which is outside src/"),
            ("tests/engine/world/draw_test.cc", '#include "render/renderer.h"\n',
             "tests/engine/world/draw_test.cc:1: an engine test reaches the GUI: "
             "render/renderer.h"),
            ("tests/physics/pixels_test.cc", '#include "test_support/pixels.h"\n',
             "tests/physics/pixels_test.cc:1: an engine test reaches the GUI: "
             "test_support/pixels.h -> render/renderer.h"),
            ("bench/gui_bench.cc", '#include "ui/panels.h"\n',
             "bench/gui_bench.cc:1: bench includes ui/panels.h "
             "(it may include app, engine, input, io)"),
            ("fuzz/fuzz_runtime.cc", '#include "app/runtime/runtime.h"\n',
             "fuzz/fuzz_runtime.cc:1: fuzz includes app/runtime/runtime.h "
             "(it may include engine, input, io)"),
            ("src/app/plugins/sim.h", "",
             "src/app/plugins: a subfolder not in check_layers.py's PARTS['app']"),
            ("src/engine/helpers.h", "",
             "src/engine/helpers.h: a file at the top of engine, which PARTS lists by subfolder"),
            ("src/plugins/x.h", "", "src/plugins: not a layer of check_layers.py's LAYERS"),
        ]
        for name, text, expected in cases:
            with self.subTest(name):
                code, lines = self.run_check({name: text})
                self.assertEqual(code, 1, lines)
                self.assertEqual(lines[:-1], [expected])
                self.assertEqual(lines[-1].split(" in ")[0], "layers: 1 violation(s)")

    def test_parts_of_a_split_layer_keep_their_order(self):
        # app split into subfolders and ui into a file pair and the rest, one line per part.
        parts = {"app": {"teleop": "", "runtime": "", "sim": "teleop", ".": "*"},
                 "ui": {"widgets": "", ".": "*"}}
        files = {
            "src/app/teleop/controller.h": "",
            "src/app/sim/sim_thread.h": '#include "app/teleop/controller.h"\n',
            "src/app/headless.cc": '#include "app/sim/sim_thread.h"\n#include "app/runtime/runtime.h"\n',
            "src/ui/widgets.h": "",
            "src/ui/widgets.cc": '#include "ui/widgets.h"\n',
            "src/ui/panels.cc": '#include "ui/widgets.h"\n#include "app/sim/sim_thread.h"\n',
        }
        planted = {
            "src/app/teleop/uses_sim.cc": '#include "app/sim/sim_thread.h"\n',
            "src/app/sim/uses_top.cc": '#include "app/runtime/runtime.h"\n',
            "src/ui/widgets_extra.h": "",  # not a listed pair: the top of ui
            "src/ui/widgets.cc": '#include "ui/widgets.h"\n#include "ui/widgets_extra.h"\n',
        }
        with tempfile.TemporaryDirectory() as folder, mock.patch.dict(check_layers.PARTS, parts):
            root = pathlib.Path(folder)
            write(root, {**CLEAN, **files})
            self.assertEqual(list(check_layers.violations(root)), [])
            write(root, planted)
            self.assertEqual(sorted(check_layers.violations(root)), [
                "src/app/sim/uses_top.cc:1: app/sim includes app/runtime/runtime.h "
                "(it may include teleop of app)",
                "src/app/teleop/uses_sim.cc:1: app/teleop includes app/sim/sim_thread.h "
                "(it may include nothing else of app)",
                "src/ui/widgets.cc:2: ui/widgets includes ui/widgets_extra.h "
                "(it may include nothing else of ui)",
            ])


if __name__ == "__main__":
    unittest.main()
