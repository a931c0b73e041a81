"""pnp: print-and-play toolkit for tabletop game designers."""

__version__ = "0.1.0"
