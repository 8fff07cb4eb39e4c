"""Tools built on the table core: audit, replay, watch, simulate and headless seats."""
