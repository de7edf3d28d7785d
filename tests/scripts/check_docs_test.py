#!/usr/bin/env python3
"""scripts/check_docs.py fails on a planted broken reference and passes a clean tree: a small
synthetic project in a temporary folder, checked by running the script (exit code and the
line printed). (The section sign is written as an escape here, so that the real tree's check
does not read this file's planted anchors as its own.)
Run by ctest as Docs.CheckFailsOnPlantedReferences; by hand:
    python3 tests/scripts/check_docs_test.py
"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check_docs.py"
S = "\N{SECTION SIGN}"

CLEAN = {
    "src/engine/solver/contact.h": f"""// A contact (docs/model.md {S}2.1).
#pragma once
namespace contactlab {{
class SapContact {{
 public:
  struct Parameters {{
    double friction = 0.5;  // not R_t
    double sigma = 1e-3;
  }};
  struct Data {{
    double R_t = 0, R_n = 0;
  }};
  static Data MakeData(const Parameters& p, double dt_s);
  int num_rows() const {{ int local_rows = 3; return local_rows; }}
}};
enum class Approximation {{ kSap, kLagged }};
constexpr double kTinySize = 1e-6;
const char* Name() {{ return "class Quoted {{ int in_a_string; }}"; }}
}}  // namespace contactlab
""",
    "src/engine/world/world.h":
        "namespace contactlab {\nclass World {\n public:\n  void Step();\n};\n}\n",
    "src/engine/world/world.cc": '#include "engine/world/world.h"\n',
    "docs/model.md": f"""# Model

## 1. Time

`World::Step` (`engine/world/world.h`, its pair `src/engine/world/world`) calls
`SapContact::MakeData` of [the contact](../src/engine/solver/contact.h); `world.cc`.

### 2.1 SAP

`SapContact::Data`: `R_t`, `R_n` [1/kg]. `SapContact::Parameters` (`friction`, `sigma`);
`Approximation::kLagged`, `kTinySize`, `num_rows()`, `std::vector`, `foo.h`, `docs/NAME.md`,
`scene_variant(name)` (a script's).
As in contact.h {S}1 of the other doc (model.md {S}1).

```
SapContact::NotCheckedInAFence
```
""",
    "README.md": f"See docs/model.md {S}1, {S}2.1 and [the model](docs/model.md#1-time).\n",
    "scripts/tool.py": f"# The model (docs/model.md {S}2.1).\ndef scene_variant(name):\n"
                       "    return name\n",
    "tests/engine/world_test.cc": f"// docs/model.md {S}1–{S}2.1\n",
}


class CheckDocs(unittest.TestCase):
    def run_check(self, planted: tuple = None):
        """Exit code and output lines of the script on CLEAN with one line appended to a file."""
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            for name, text in CLEAN.items():
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_text(text)
            if planted:
                path = root / planted[0]
                path.parent.mkdir(parents=True, exist_ok=True)
                with path.open("a") as f:
                    f.write(planted[1] + "\n")
            run = subprocess.run([sys.executable, str(SCRIPT), folder],
                                 capture_output=True, text=True)
            return run.returncode, run.stdout.splitlines()

    def test_a_clean_tree_passes(self):
        code, lines = self.run_check()
        self.assertEqual(code, 0, lines)
        self.assertEqual(lines[-1].split(" in ")[0], "docs: 0 broken reference(s)")

    def test_each_planted_reference_fails_with_its_line(self):
        doc_line = CLEAN["docs/model.md"].count("\n") + 1
        cases = [  # (file, the line appended, the line printed)
            ("docs/model.md", "`SapContact::MakeParameters(dt, k)` makes it.",
             f"docs/model.md:{doc_line}: SapContact::MakeParameters is not declared in the code"),
            ("docs/model.md", "`SapContact::local_rows`",  # a function's local, not a member
             f"docs/model.md:{doc_line}: SapContact::local_rows is not declared in the code"),
            ("docs/model.md", "`Quoted::in_a_string`",  # a string literal declares nothing
             f"docs/model.md:{doc_line}: Quoted::in_a_string is not declared in the code"),
            ("docs/model.md", "Stepped by\nWorld::\nStepAll.",
             f"docs/model.md:{doc_line + 1}: World::StepAll is not declared in the code"),
            ("docs/model.md", "`SapContact::Parameters`: `friction`, `R_t` (see `R_n`).",
             f"docs/model.md:{doc_line}: SapContact::Parameters has no member R_t"),
            ("docs/model.md", "`CombinedProperties` combines them.",
             f"docs/model.md:{doc_line}: CombinedProperties does not occur in the code"),
            ("docs/model.md", "(`kHugeSize`)",
             f"docs/model.md:{doc_line}: kHugeSize does not occur in the code"),
            ("docs/model.md", "In engine/world/world_model.h.",
             f"docs/model.md:{doc_line}: engine/world/world_model.h does not exist"),
            ("docs/model.md", "`engine/solver/{contact,friction}.h`",
             f"docs/model.md:{doc_line}: engine/solver/{{contact,friction}}.h does not exist"),
            ("docs/model.md", "The `geometry.cc` file.",
             f"docs/model.md:{doc_line}: no file is named geometry.cc"),
            ("docs/model.md", "[the solver](solver.md)",
             f"docs/model.md:{doc_line}: the link's target solver.md does not exist"),
            ("docs/model.md", f"As in {S}1 and model.md {S}2.2.",
             f"docs/model.md:{doc_line}: model.md has no section {S}2.2"),
            ("src/engine/solver/contact.cc", f"// docs/model.md {S}3: the solver",
             f"src/engine/solver/contact.cc:1: model.md has no section {S}3"),
            ("tests/engine/world_test.cc", f"// docs/model.md {S}1, {S}2.4",
             f"tests/engine/world_test.cc:2: model.md has no section {S}2.4"),
            ("src/engine/world/world.cc", f"// The step (docs/model.md\n// {S}2.1, {S}2.3).",
             f"src/engine/world/world.cc:2: model.md has no section {S}2.3"),
            ("scripts/tool.py", f"# docs/solver.md {S}1",
             "scripts/tool.py:4: docs/solver.md does not exist"),
            ("docs/model.md", "`scene_variants(name)` writes them.",
             f"docs/model.md:{doc_line}: scene_variants does not occur in the code"),
        ]
        for name, text, expected in cases:
            with self.subTest(text):
                code, lines = self.run_check((name, text))
                self.assertEqual(code, 1, lines)
                self.assertEqual(lines[:-1], [expected])
                self.assertEqual(lines[-1].split(" in ")[0], "docs: 1 broken reference(s)")

    def test_a_line_with_two_broken_references_prints_both(self):
        code, lines = self.run_check(("README.md", f"See src/README.md and docs/model.md {S}1.3."))
        self.assertEqual(code, 1)
        self.assertEqual(lines[:-1], ["README.md:2: src/README.md does not exist",
                                      f"README.md:2: model.md has no section {S}1.3"])


if __name__ == "__main__":
    unittest.main()
