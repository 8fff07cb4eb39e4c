"""`python -m fairdeal` runs the `fairdeal` command line."""

import sys

from fairdeal.ui.cli import main

sys.exit(main())
