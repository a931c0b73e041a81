"""Diagnostic codes reported while reading layout files and their icons (docs/rendering.md).

The renderer reports the same codes for what it draws (pnp.render.layout.codes imports them
from here), so a code means one thing wherever it is raised.
"""

from __future__ import annotations

R_SCHEMA = "PNP-R001"  # layout file does not match schemas/layout.schema.json
R_COLOR = "PNP-R005"  # an unknown colour
R_MISSING_IMAGE = "PNP-R030"
R_IMAGE_ESCAPES = "PNP-R031"
R_IMAGE_FORMAT = "PNP-R032"
