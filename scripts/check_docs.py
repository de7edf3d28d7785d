#!/usr/bin/env python3
"""Checks that the docs and the code still name each other (docs/architecture.md §1).

Docs drift silently when code is renamed or moved. This checks, in every .md file (docs/*.md,
the README.md files, bench/RESULTS.md):
- qualified names `Foo::Bar` (also `Foo::Bar::Baz`): Foo is a class, struct, enum or
  namespace declared in the code, and Bar is declared directly in its body (members of nested
  blocks and function bodies do not count);
- after `Foo` or `Foo::Bar` and a colon or parenthesis, a list of `member` names: each is
  declared in that scope;
- single code identifiers in backticks that look like C++ names (`ConvexSolver`,
  `kFanPolygonSize`, `AddUrdfRobot(…)`): they occur in the code;
- paths (`src/…`, `engine/world/world.h`, `tests/…`, `io/bounded_child`) and file names
  (`world.h`, `mutate.py`; not a library's `<spnav.h>`): they exist (a path without extension
  may name a file pair or a folder; globs, {a,b} alternatives and placeholders such as NAME are
  expanded), and so do the targets of links;
and, in the comments of src/, tests/, bench/, soak/, fuzz/ and scripts/ and in the docs
themselves, that every `docs/X.md §N` (or `X.md §N.M`) names a numbered heading of that doc.
"The code" is src/, tests/, bench/, soak/ and fuzz/, without comments and string literals (and
the CMake files, for the functions the docs name, and the Python of scripts/, studies/, src/ and
tests/, for the study runner's).

Prints one line per broken reference (path:line: what) and exits 1 if there is any.
Usage: check_docs.py [PROJECT_DIR]   (default: this script's project)
"""
import functools
import glob
import pathlib
import re
import sys

CODE_TREES = ("src", "tests", "bench", "soak", "fuzz")
COMMENT_TREES = CODE_TREES + ("scripts",)
CODE = (".h", ".cc", ".hpp", ".cpp")
PYTHON_TREES = ("scripts", "studies", "src", "tests")
SKIPPED = re.compile(r"^(build.*|\.git|third_party)$")  # build output, not the source tree
# Namespaces of the libraries the docs mention, never declared here.
EXTERNAL = {"std", "Eigen", "spdlog", "ImGui", "CLI", "YAML", "Assimp", "urdf", "glm"}
# Placeholders: `foo.h` in a convention, `assets/scenes/NAME.yaml` (any file there).
EXAMPLE_STEMS = {"foo", "bar"}
PLACEHOLDER = re.compile(r"\b(?:NAME|FILE|TARGET|DIR|PATH)\b")
# Extensions of the file names checked when a name stands alone (`world.h`), not `out.png`.
SOURCE_NAMES = re.compile(r"(?<![\w/.*}<-])(?<!\]\()([A-Za-z_][\w-]*\.(?:h|cc|py|sh|md|cmake))"
                          r"(?![\w/])")

QUALIFIED = re.compile(r"(?<![\w:])([A-Za-z_]\w*(?:::\s*[A-Za-z_~]\w*)+)")
SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+)?)`")  # an inline code span, at most over one line break
# A constant, a CamelCase name of two words or more, or a call (`joint_damping()`).
IDENTIFIER = re.compile(r"^(k[A-Z]\w*|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z]\w*(?=\())"
                        r"(?:\(.*\))?$")
PATH = re.compile(r"(?<![\w/.$~-])(?<!\]\()([\w.-]+(?:/[\w.*{},…-]*)+)")
FIELD_LIST = re.compile(r"`((?:\w+::)*[A-Z]\w*)`(?::| \()")  # `SapContact::Data`: `R_t`, `R_n` …
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
SECTION = r"§ ?\d+(?:\.\d+)*"
GAP = r"(?:\s|//|#)"  # also a line break in a comment: "docs/contact-model.md\n// §3.2"
ANCHOR = re.compile(rf"(?:docs/)?([\w-]+\.md),?{GAP}+"
                    rf"({SECTION}(?:{GAP}*(?:,|–|-|and|or){GAP}*{SECTION})*)")
HEADING = re.compile(r"^#+\s+(\d+(?:\.\d+)*)\.?\s", re.M)
SCOPE = re.compile(r"\b(?:class|struct|union|enum(?:\s+class|\s+struct)?|namespace)\s+"
                   r"(?:\[\[[^\]]*\]\]\s*)?(\w+(?:::\w+)*)[^;{()]*\{")


def files(root: pathlib.Path, trees, suffixes):
    """The files of these trees with these suffixes, and the project's own CMakeLists.txt."""
    if ".txt" in suffixes and (root / "CMakeLists.txt").is_file():
        yield root / "CMakeLists.txt"
    for tree in trees:
        for path in sorted((root / tree).rglob("*")):
            if path.suffix in suffixes and path.is_file():
                yield path


def strip_code(text: str) -> str:
    """The code without comments and string or character literals (same length of lines)."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: blank(m) if m.group(0)[0] == "/" else '""', text)


def blank(match: re.Match) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def shallow(body: str) -> str:
    """A block's text at its own depth: nested blocks (function bodies, nested types) removed."""
    out, depth = [], 0
    for char in body:
        depth -= char == "}"
        if depth == 0:
            out.append(char)
        depth += char == "{"
    return "".join(out)


class Code:
    """What the code declares: the names declared directly in each scope, by the scope's
    qualified name (contactlab::SapContact::Data), and every identifier it uses."""

    def __init__(self, root: pathlib.Path):
        self.scopes, self.identifiers = {}, set()
        for path in files(root, CODE_TREES, CODE):
            text = strip_code(path.read_text(errors="replace"))
            self.identifiers.update(re.findall(r"\w+", text))
            around = []  # (where its block ends, qualified name) of the scopes around a match
            for match in SCOPE.finditer(text):
                start = match.end() - 1
                body = block(text, start)
                while around and around[-1][0] < start:
                    around.pop()
                outer, names = around[-1][1] if around else (), tuple(match.group(1).split("::"))
                for i, name in enumerate(names):  # namespace a::b declares b in a
                    self.scopes.setdefault(outer + names[:i], set()).add(name)
                declared = re.findall(r"~?\w+", shallow(body))
                self.scopes.setdefault(outer + names, set()).update(declared)
                around.append((start + len(body) + 1, outer + names))
        for path in files(root, CODE_TREES, (".txt", ".cmake")):  # the CMake functions
            self.identifiers.update(re.findall(r"\w+", path.read_text(errors="replace")))
        for path in files(root, PYTHON_TREES, (".py",)):  # the scripts' and studies' functions
            self.identifiers.update(re.findall(r"\w+", path.read_text(errors="replace")))

    def members(self, qualified: str) -> set:
        """What the scopes named `qualified` (or ending so: Data, SapContact::Data) declare."""
        names = tuple(n.strip() for n in qualified.split("::"))
        return set().union(*(m for key, m in self.scopes.items() if key[-len(names):] == names))

    def has(self, qualified: str) -> bool:
        *scope, name = [n.strip() for n in qualified.split("::")]
        return scope[0] in EXTERNAL or name in self.members("::".join(scope))


def block(text: str, start: int) -> str:
    """The inside of the {…} that opens at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i]
    return text[start + 1:]


def field_list(text: str) -> list:
    """(name, offset) of the `spans` of a list that starts text, up to its closing parenthesis
    or the clause's end (. or ;); spans inside parentheses of their own are remarks, not fields."""
    fields, depth = [], 0
    for match in re.finditer(r"`([^`]*)`|[()]|[.;]\s|\n\s*\n|\|", text):  # | ends a table's cell
        token = match.group(0)
        if token.startswith("`"):
            name = re.fullmatch(r"(\w+)(?:\(.*\))?", match.group(1))
            if depth == 0 and name:
                fields.append((name.group(1), match.start()))
        elif token == "(":
            depth += 1
        elif depth == 0:
            break
        elif token == ")":
            depth -= 1
    return fields


@functools.cache
def sections(doc: pathlib.Path) -> set:
    """The numbers of a doc's numbered headings: "## 2. …" is §2, "### 2.1 …" §2.1."""
    return set(HEADING.findall(doc.read_text()))


def exists(root: pathlib.Path, folder: pathlib.Path, reference: str) -> bool:
    """Whether a path the docs cite names something in the project."""
    reference = PLACEHOLDER.sub("*", reference.split("…")[0].rstrip("/")) or "."
    match = re.search(r"\{([^{}]*)\}", reference)
    if match:  # engine/solver/{coupler,distance}_constraint.h: each alternative must exist
        head, tail = reference[:match.start()], reference[match.end():]
        return all(exists(root, folder, head + alternative + tail)
                   for alternative in match.group(1).split(","))
    for base in (root, root / "src", root / "tests", folder):
        for candidate in (reference, reference + ".h", reference + ".cc"):
            if glob.glob(str(base / candidate)):
                return True
    return False


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def check_doc(root: pathlib.Path, doc: pathlib.Path, code: Code, names: set, folders: set):
    text, where = doc.read_text(), doc.relative_to(root).as_posix()
    # Inline code and plain text both cite names; fenced blocks hold equations and commands.
    prose = re.sub(r"^```.*?^```", blank, text, flags=re.S | re.M)
    for match in QUALIFIED.finditer(prose):
        name = re.sub(r"::\s+", "::", match.group(1))
        if not code.has(name):
            yield f"{where}:{line_of(text, match.start())}: {name} is not declared in the code"
    for match in FIELD_LIST.finditer(prose):  # a list of a struct's fields or a class's members
        members = code.members(match.group(1))
        for name, offset in field_list(prose[match.end():]) if members else []:
            if name not in members:
                line = line_of(text, match.end() + offset)
                yield f"{where}:{line}: {match.group(1)} has no member {name}"
    for match in SPAN.finditer(prose):
        span = match.group(1).strip()
        ident = IDENTIFIER.match(span)
        if ident and "::" not in span and ident.group(1) not in code.identifiers:
            line = line_of(text, match.start())
            yield f"{where}:{line}: {ident.group(1)} does not occur in the code"
    for match in PATH.finditer(prose):
        reference = match.group(1).rstrip(".,;:")  # the sentence's, not the path's
        if reference.split("/")[0] in folders and not exists(root, doc.parent, reference):
            yield f"{where}:{line_of(text, match.start())}: {reference} does not exist"
    for match in SOURCE_NAMES.finditer(prose):
        stem = match.group(1).split(".")[0]
        example = stem in EXAMPLE_STEMS or PLACEHOLDER.fullmatch(stem)
        if match.group(1) not in names and not example:
            yield f"{where}:{line_of(text, match.start())}: no file is named {match.group(1)}"
    for match in LINK.finditer(text):
        target, line = match.group(1), line_of(text, match.start())
        if ":" not in target and not (doc.parent / target).exists():  # not https: or mailto:
            yield f"{where}:{line}: the link's target {target} does not exist"


def check_anchors(root: pathlib.Path, path: pathlib.Path):
    """`docs/X.md §N` in a comment of code or scripts, or in a doc, names a heading of X.md."""
    text, where = path.read_text(errors="replace"), path.relative_to(root).as_posix()
    for match in ANCHOR.finditer(text):
        name, line = match.group(1), line_of(text, match.start())
        candidates = [root / "docs" / name] + ([path.parent / name] if path.suffix == ".md" else [])
        doc = next((d for d in candidates if d.is_file()), None)
        if doc is None:
            yield f"{where}:{line}: docs/{name} does not exist"
            continue
        for number in re.findall(r"§ ?(\d+(?:\.\d+)*)", match.group(2)):
            if number not in sections(doc):
                yield f"{where}:{line}: {name} has no section §{number}"


def broken_references(root: pathlib.Path):
    root = root.resolve()
    code = Code(root)
    everything = [path for top in root.iterdir() if not SKIPPED.match(top.name)
                  for path in [top, *top.rglob("*")]]
    names = {p.name for p in everything if p.is_file()}
    folders = {p.name for base in (root, root / "src", root / "tests") if base.is_dir()
               for p in base.iterdir() if p.is_dir() and not SKIPPED.match(p.name)}
    docs = sorted(p for p in everything if p.suffix == ".md" and p.is_file())
    for doc in docs:
        yield from check_doc(root, doc, code, names, folders)
        yield from check_anchors(root, doc)
    for path in files(root, COMMENT_TREES, CODE + (".py", ".sh", ".txt", ".cmake")):
        yield from check_anchors(root, path)


def main() -> int:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1]
    found = list(broken_references(root))
    for line in found:
        print(line)
    print(f"docs: {len(found)} broken reference(s) in {root}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
