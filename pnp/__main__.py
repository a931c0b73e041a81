"""`python -m pnp` runs the CLI."""

from pnp.cli import main

if __name__ == "__main__":
    main()
