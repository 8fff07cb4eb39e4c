"""`fairdeal host` (being built on branch driver)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    del parser


def run(args: argparse.Namespace) -> int:
    del args
    raise SystemExit("fairdeal host: not built yet")
