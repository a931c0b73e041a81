"""Each job has one home, checked on the source: reportlab's private internals only in
pnp/render/pdfops.py, text measured only in pnp/render/text.py, an engine that imports
nothing from the renderer, the reports or reportlab, a rulesheet that imports nothing from the
renderer, a templating layer below both, directly or through another pnp module, and one
inline-icon marker (the layers: docs/design-notes.md)."""

from __future__ import annotations

import ast
from pathlib import Path

from pnp.render.pdfops import PRIVATE_NAMES

PNP = Path(__file__).resolve().parents[1] / "pnp"
PDFOPS = PNP / "render" / "pdfops.py"
ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}
#: what the engine must never import: it computes results, the layers above draw them
ENGINE_MAY_NOT_IMPORT = ("pnp.render", "pnp.report", "reportlab")
#: the renderer draws a prepared rulesheet; the rulesheet never reaches up into the renderer
RULESHEET_MAY_NOT_IMPORT = ("pnp.render",)
#: what layouts and rulesheets share sits below both, and below reportlab
TEMPLATING_MAY_NOT_IMPORT = ("pnp.render", "pnp.rulesheet", "pnp.engine", "reportlab")


def named_uses(source: str, names, filename: str = "<source>") -> list[str]:
    """Every place `source` reaches one of `names`: as an attribute (`c._code`,
    `pdfmetrics.stringWidth`), a name or an import, or a string given to getattr and friends."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.alias):
            name = node.name.rpartition(".")[2]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ACCESSORS and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant)):
            name = node.args[1].value
        if name in names:
            found.append(f"{filename}:{getattr(node, 'lineno', '?')}: {name}")
    return found


def private_uses(source: str, filename: str = "<source>") -> list[str]:
    """Every place `source` names one of reportlab's private internals."""
    return named_uses(source, PRIVATE_NAMES, filename)


def test_only_pdfops_touches_reportlab_internals():
    found = []
    for path in sorted(PNP.rglob("*.py")):
        if path != PDFOPS:
            found += private_uses(path.read_text(encoding="utf-8"), str(path.relative_to(PNP)))
    assert found == [], "use pnp.render.pdfops instead:\n" + "\n".join(found)


def test_pdfops_itself_uses_every_name_it_guards():
    """The list is the contract's: a name pdfops no longer uses should leave it."""
    used = {u.rpartition(": ")[2] for u in private_uses(PDFOPS.read_text(encoding="utf-8"))}
    assert used == PRIVATE_NAMES


def test_the_check_catches_each_way_of_reaching_in():
    planted = '''
from reportlab.pdfbase.pdfdoc import PDFStream
import reportlab.pdfbase.pdfdoc as pdfdoc

def draw(c):
    c._code.append("0 0 m")
    doc = c._doc
    c._formsinuse.append("x")
    c._escape("(")
    cache = c.__dict__
    s = pdfdoc.PDFStream()
    getattr(c, "_code").append("Q")
    c.acroForm.makeFont = None
'''
    names = [u.rpartition(": ")[2] for u in private_uses(planted)]
    assert names.count("PDFStream") == 2
    assert names.count("_code") == 2
    assert {"_doc", "_formsinuse", "_escape", "__dict__", "makeFont"} <= set(names)
    assert private_uses("def f(result):\n    return result.exit_code, vars(result)\n") == []


# ---------------------------------------------------------------------------------------------
# text is measured, wrapped, shrunk and ellipsised in pnp/render/text.py only

#: what measures text: reportlab's widths and splitter (pdfmetrics, canvas and font methods
#: alike), the glyph-width table, and the width helpers pnp had before text.py
MEASURING_NAMES = frozenset({
    "stringWidth", "simpleSplit", "instanceStringWidthTTF", "instanceStringWidthT1",
    "charWidths", "text_width_1000", "string_width",
})
#: text.py measures; fonts.py holds the glyph-width table; pdfops.py writes it into the PDF
MAY_MEASURE = {PNP / "render" / "text.py", PNP / "render" / "fonts.py", PDFOPS}


def measuring_uses(source: str, filename: str = "<source>") -> list[str]:
    """Every place `source` reaches for a text-measuring function."""
    return named_uses(source, MEASURING_NAMES, filename)


def test_only_text_py_measures_text():
    found = []
    for path in sorted(PNP.rglob("*.py")):
        if path not in MAY_MEASURE:
            found += measuring_uses(path.read_text(encoding="utf-8"), str(path.relative_to(PNP)))
    assert found == [], ("measure, wrap, shrink and ellipsise with pnp.render.text "
                         "(measure, fit_width, ellipsise, fit, fit_words, wrap):\n"
                         + "\n".join(found))


def test_the_measuring_check_catches_each_way_of_measuring():
    planted = '''
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from pnp.render.fonts import text_width_1000

def label(c, text, width):
    w = pdfmetrics.stringWidth(text, "Vera", 8)
    w = c.stringWidth(text, "Vera", 8)
    lines = simpleSplit(text, "Vera", 8, width)
    w = getattr(pdfmetrics, "stringWidth")(text, "Vera", 8)
    w = sum(pdfmetrics.getFont("Vera").face.charWidths.get(ord(ch), 0) for ch in text)
    return text_width_1000(text, "Vera")
'''
    names = [u.rpartition(": ")[2] for u in measuring_uses(planted)]
    assert names.count("stringWidth") == 4
    assert names.count("simpleSplit") == 2
    assert names.count("text_width_1000") == 2
    assert "charWidths" in names
    clean = "from pnp.render.text import measure\n\ndef f(t):\n    return measure(t, 'Vera', 8)\n"
    assert measuring_uses(clean) == []


# ---------------------------------------------------------------------------------------------
# the import graph: the engine below the report layer and the renderer


def imports(source: str, module: str, is_package: bool = False) -> set[str]:
    """The absolute names of every module `source` (the module `module`) imports, wherever the
    import statement is (inside functions too), relative imports resolved; a constant name
    given to importlib.import_module or __import__ counts."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source, module)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # may be submodules
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name)
                       and node.func.id in {"import_module", "__import__"}))):
            found.add(node.args[0].value)
    return found


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the modules it imports, from {module: (source, is_package)}."""
    return {m: imports(src, m, pkg) for m, (src, pkg) in sources.items()}


def pnp_sources() -> dict[str, tuple[str, bool]]:
    out = {}
    for path in sorted(PNP.rglob("*.py")):
        parts = list(path.relative_to(PNP.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        out[module] = (path.read_text(encoding="utf-8"), is_package)
    return out


def _matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def forbidden_chains(graph: dict[str, set[str]], layer: str,
                     forbidden: tuple[str, ...]) -> list[str]:
    """For each module in `layer`, the import chains (through modules of `graph`) that reach a
    module in `forbidden`."""
    chains = []
    for start in sorted(m for m in graph if _matches(m, (layer,))):
        seen, todo = {start}, [(start, [start])]
        while todo:
            module, path = todo.pop()
            for name in sorted(graph.get(module, ())):
                if _matches(name, forbidden):
                    chains.append(" -> ".join([*path, name]))
                elif name in graph and name not in seen:
                    seen.add(name)
                    todo.append((name, [*path, name]))
    return chains


def test_the_engine_imports_no_renderer_report_or_reportlab():
    chains = forbidden_chains(import_graph(pnp_sources()), "pnp.engine", ENGINE_MAY_NOT_IMPORT)
    assert chains == [], "the engine must not draw; move this to pnp.report:\n" + "\n".join(chains)


def test_the_import_check_catches_direct_relative_lazy_and_indirect_imports():
    planted = import_graph({
        "pnp.engine.a": ("from pnp.render.fonts import string_width\n", False),
        "pnp.engine.b": ("from ..report import text\n", False),
        "pnp.engine.c": ("def f():\n    from reportlab.lib import colors\n", False),
        "pnp.engine.d": ("import importlib\nimportlib.import_module('pnp.report.pdf')\n", False),
        "pnp.engine.e": ("from pnp.data import helper\n", False),
        "pnp.data.helper": ("import reportlab.pdfgen.canvas\n", False),
        "pnp.engine.games": ("from . import mod\n", True),
        "pnp.engine.games.mod": ("from ..a import string_width\nimport json\n", False),
    })
    chains = forbidden_chains(planted, "pnp.engine", ENGINE_MAY_NOT_IMPORT)
    assert "pnp.engine.a -> pnp.render.fonts" in chains
    assert "pnp.engine.b -> pnp.report" in chains
    assert "pnp.engine.c -> reportlab.lib" in chains
    assert "pnp.engine.d -> pnp.report.pdf" in chains
    assert "pnp.engine.e -> pnp.data.helper -> reportlab.pdfgen.canvas" in chains
    assert ("pnp.engine.games -> pnp.engine.games.mod -> pnp.engine.a -> pnp.render.fonts"
            in chains)
    assert forbidden_chains(import_graph({"pnp.engine.x": ("import json\n", False)}),
                            "pnp.engine", ENGINE_MAY_NOT_IMPORT) == []


# ---------------------------------------------------------------------------------------------
# rules modules: the public API and nothing else of pnp (docs/design-notes.md, "Three rooms")

#: what a rules module may import from pnp
API = "pnp.engine.api"
ROOT = PNP.parent


def pnp_imports_besides(source: str, module: str, allowed: tuple[str, ...],
                        is_package: bool = False) -> list[str]:
    """The pnp modules `source` imports that are not in `allowed` (each a module or package);
    a name imported from a module listed is left out (`from pnp.x import y`: only `pnp.x`)."""
    wrong = {name for name in imports(source, module, is_package)
             if _matches(name, ("pnp",)) and not _matches(name, allowed)}
    return sorted(name for name in wrong if name.rpartition(".")[0] not in wrong)


def test_the_starter_and_the_docs_examples_import_only_the_api():
    files = [PNP / "starter_rules.py", *sorted(ROOT.glob("docs/examples/*/rules.py"))]
    assert len(files) >= 2
    found = {str(f.relative_to(ROOT)): wrong for f in files
             if (wrong := pnp_imports_besides(f.read_text(encoding="utf-8"), "rules", (API,)))}
    assert found == {}, f"a rules module imports from {API} only: {found}"


def test_the_api_check_catches_other_pnp_imports():
    planted = ("from pnp.engine.api import State\nfrom pnp.engine.core import Context\n"
               "import json\ndef f():\n    import pnp.data.model\n")
    assert pnp_imports_besides(planted, "rules", (API,)) == ["pnp.data.model", "pnp.engine.core"]
    own = "from . import tables\nfrom .tables import ROWS\nfrom pnp.engine.api import GameMeta\n"
    assert pnp_imports_besides(own, "pnp.games.demo.rules", (API, "pnp.games.demo")) == []

# the rulesheet below the renderer, templating below both


def test_the_rulesheet_imports_nothing_from_the_renderer():
    chains = forbidden_chains(import_graph(pnp_sources()), "pnp.rulesheet",
                              RULESHEET_MAY_NOT_IMPORT)
    assert chains == [], ("the renderer draws a prepared rulesheet, never the other way; what "
                          "both need belongs in pnp.templating:\n" + "\n".join(chains))


def test_templating_imports_no_renderer_rulesheet_engine_or_reportlab():
    chains = forbidden_chains(import_graph(pnp_sources()), "pnp.templating",
                              TEMPLATING_MAY_NOT_IMPORT)
    assert chains == [], "pnp.templating sits below render and rulesheet:\n" + "\n".join(chains)


def planted_copy(lines: dict[str, str]) -> dict[str, tuple[str, bool]]:
    """A copy of the real sources with a line added at the end of each named module."""
    sources = pnp_sources()
    for module, line in lines.items():
        source, is_package = sources[module]
        sources[module] = (source + "\n" + line + "\n", is_package)
    return sources


def test_the_layer_checks_catch_a_planted_import():
    graph = import_graph(planted_copy({
        "pnp.rulesheet.check": "def icons(game):\n    from pnp.render.layout import load_library",
        "pnp.templating.sandbox": "from ..render import fonts",
        "pnp.templating.icons": "from pnp.rulesheet.markdown import walk",
        "pnp.colors": "import reportlab.lib.colors",
    }))
    rulesheet = forbidden_chains(graph, "pnp.rulesheet", RULESHEET_MAY_NOT_IMPORT)
    templating = forbidden_chains(graph, "pnp.templating", TEMPLATING_MAY_NOT_IMPORT)
    assert "pnp.rulesheet.check -> pnp.render.layout" in rulesheet
    assert "pnp.templating.sandbox -> pnp.render.fonts" in templating
    assert "pnp.templating.icons -> pnp.rulesheet.markdown" in templating
    # through a pure module the layer imports: pnp.colors
    assert "pnp.templating.icons -> pnp.colors -> reportlab.lib.colors" in templating
    # and a rulesheet that reaches the renderer through templating
    graph = import_graph(planted_copy({"pnp.templating.icons": "from pnp.render.text import wrap"}))
    assert ("pnp.rulesheet.check -> pnp.templating.icons -> pnp.render.text"
            in forbidden_chains(graph, "pnp.rulesheet", RULESHEET_MAY_NOT_IMPORT))


# ---------------------------------------------------------------------------------------------
# one inline-icon marker

#: the start of the `{name}` regex: wherever it is written, icons are found twice
ICON_MARK_TEXT = "{([A-Za-z0-9_]"


def icon_mark_modules(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """The modules with a string constant holding the icon marker's regex (raw or escaped)."""
    found = []
    for module, (source, _) in sorted(sources.items()):
        for node in ast.walk(ast.parse(source, module)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and ICON_MARK_TEXT in node.value:
                found.append(module)
                break
    return found


def test_the_icon_marker_is_written_once():
    assert icon_mark_modules(pnp_sources()) == ["pnp.templating.icons"], (
        "import ICON_MARK from pnp.templating.icons")


def test_the_marker_check_catches_a_second_copy():
    planted = planted_copy({  # a raw string and an escaped one
        "pnp.render.text": 'MARK = re.compile(r"\\{([A-Za-z0-9_][A-Za-z0-9_-]*)\\}")',
        "pnp.rulesheet.markdown": 'MARK = re.compile("\\\\{([A-Za-z0-9_][A-Za-z0-9_-]*)\\\\}")',
    })
    assert icon_mark_modules(planted) == ["pnp.render.text", "pnp.rulesheet.markdown",
                                          "pnp.templating.icons"]



def test_the_bundled_games_import_only_the_api_and_their_own_package():
    """A module of pnp/games/<game> (a module or a package) may import pnp.engine.api and
    pnp.games.<game>, nothing else of pnp: a game is played through the API like any other."""
    found = {}
    for module, (source, is_package) in pnp_sources().items():
        parts = module.split(".")
        if parts[:2] != ["pnp", "games"] or len(parts) < 3:
            continue
        own = ".".join(parts[:3])
        wrong = pnp_imports_besides(source, module, (API, own), is_package)
        if wrong:
            found[module] = wrong
    assert found == {}, "a bundled game imports from pnp.engine.api only:\n" + "\n".join(
        f"  {m}: {', '.join(w)}" for m, w in sorted(found.items()))


#: a module longer than this does more than one job: split it by concern (issue 26)
MAX_MODULE_LINES = 900


def too_long_modules(root: Path, limit: int = MAX_MODULE_LINES) -> list[str]:
    """Every .py file under `root` with more than `limit` lines, with its length."""
    return [f"{path.relative_to(root)}: {n} lines"
            for path in sorted(root.rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > limit]


def test_no_module_in_pnp_is_over_900_lines():
    assert too_long_modules(PNP) == []


def test_the_length_check_catches_a_long_module(tmp_path):
    (tmp_path / "short.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    (tmp_path / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    assert too_long_modules(tmp_path) == [f"long.py: {MAX_MODULE_LINES + 1} lines"]
