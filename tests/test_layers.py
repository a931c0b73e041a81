"""Each job has one home, checked on the source: reportlab's private internals only in
pnp/render/pdfops.py, and an engine that imports nothing from the renderer, the reports or
reportlab, directly or through another pnp module (the layers: docs/design-notes.md)."""

from __future__ import annotations

import ast
from pathlib import Path

from pnp.render.pdfops import PRIVATE_NAMES

PNP = Path(__file__).resolve().parents[1] / "pnp"
PDFOPS = PNP / "render" / "pdfops.py"
ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}
#: what the engine must never import: it computes results, the layers above draw them
ENGINE_MAY_NOT_IMPORT = ("pnp.render", "pnp.report", "reportlab")


def private_uses(source: str, filename: str = "<source>") -> list[str]:
    """Every place `source` names one of reportlab's private internals: as an attribute
    (`c._code`), a name or import (`PDFStream`), or a string given to getattr and friends."""
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
        if name in PRIVATE_NAMES:
            found.append(f"{filename}:{getattr(node, 'lineno', '?')}: {name}")
    return found


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
