"""`python -m ui` runs the `fairdeal` command line."""

import sys

from ui.cli import main

sys.exit(main())
