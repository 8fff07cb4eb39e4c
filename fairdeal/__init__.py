"""fairdeal: Larry and The Lie across laptops on one network, with no server and no dealer.

The installed distribution has this one top-level package. Its subpackages live at the repository
root (`engine/`, `p2p/`, `ui/`) and are mapped here by setuptools' `package-dir`:
`fairdeal.engine` (the pure rules), `fairdeal.p2p` (network, log, fair deck, table protocol) and
`fairdeal.ui` (the Textual app and the command line).
"""

# The one place the version is written: pyproject.toml reads it from here. A plain string, so that
# importing the pure engine imports nothing else (tests/engine/test_boundaries.py).
__version__ = "0.2.0"
