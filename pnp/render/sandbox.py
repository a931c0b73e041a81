"""The one jinja2 sandbox every designer-written template runs in (card layouts, rulesheets).

Templates come from game folders a user may have downloaded, so they render in jinja2's sandbox
with StrictUndefined: a typo is an error with a line, never a blank on the printed page.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment


class _DataOnlySandbox(ImmutableSandboxedEnvironment):
    """Reads game data, nothing else: no mutation, no file paths, no raw YAML documents."""

    hidden_attributes = frozenset({"folder", "documents", "layout_documents"})

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if attr in self.hidden_attributes or isinstance(obj, PurePath) or isinstance(value, PurePath):
            return False
        return super().is_safe_attribute(obj, attr, value)


def sandboxed_environment(*, data_only: bool = False, **options: Any) -> SandboxedEnvironment:
    """A sandboxed, StrictUndefined, non-escaping environment.

    `data_only` also forbids changing lists and dicts and reaching file paths, for templates
    that are handed whole model objects (the rulesheet's `game`) rather than plain dicts.
    """
    cls = _DataOnlySandbox if data_only else SandboxedEnvironment
    options.setdefault("undefined", jinja2.StrictUndefined)
    options.setdefault("autoescape", False)
    return cls(**options)
