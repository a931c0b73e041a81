"""The bundled games' rules modules, kept apart from the engine that plays them (OpenSpiel keeps
games apart from algorithms).

A bundled game registers itself by being here: the module `pnp.games.<name>` plays the engine
`<name>` spelled with hyphens (`the_ancient_world` plays `engine: the-ancient-world`) and says
so in its `ENGINE` constant. `pnp.engine.registry` lists them without importing any, so
starting pnp costs nothing per game. Each module uses only `pnp.engine.api`, as a designer's
`rules.py` does.
"""
