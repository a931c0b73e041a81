"""Each job has one home, checked on the source: reportlab's private internals only in
pnp/render/pdfops.py, and an engine that imports nothing from the renderer or the reports."""

from __future__ import annotations

import ast
from pathlib import Path

from pnp.render.pdfops import PRIVATE_NAMES

PNP = Path(__file__).resolve().parents[1] / "pnp"
PDFOPS = PNP / "render" / "pdfops.py"
ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


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
