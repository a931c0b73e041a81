"""Rulesheets written from the game data: Markdown + jinja2 sources in rulesheet/<game>/.

`sources` finds and renders the templates (sandboxed, every output line traced back to its
source line), `markdown` parses the result and checks it, `check` is what `pnp validate` runs,
and `pnp.render.rulesheet` lays the parsed Markdown out as a PDF. None of it knows any game.
"""
