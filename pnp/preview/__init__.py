"""`pnp preview`: a local page that shows a game's components and redraws what a saved change touched."""
