"""Templating: what card layouts and rulesheets share, below both and drawing nothing.

- `sandbox`: jinja2's sandbox with a time and size budget (`render_limited`), for layout
  templates (PNP-R014) and rulesheet sources (PNP-R089) alike
- `icons`: the one inline-icon marker `ICON_MARK`, and the icons a game defines (`game_icons`),
  read as data from templates/icons.yaml and the game's layout files
- `layout_files`: layout files loaded and schema-checked, the shared ones once per process;
  `safe_path` keeps the paths they name inside their folder
- `codes`: the diagnostic codes reading them reports

pnp.render (layouts, text fitting, the rulesheet PDF) and pnp.rulesheet import this package;
it imports neither of them, nor reportlab (tests/test_layers.py).
"""
