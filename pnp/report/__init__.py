"""Reports of self-play: what pnp.engine's results documents say, as text, JSON and PDF.

The engine computes (simulate, compare and sweep documents: plain JSON data) and never draws;
this layer turns those documents into words and charts, drawing PDFs with the renderer's
primitives (fonts, deterministic canvases, atomic writes). Commands call both.
"""
