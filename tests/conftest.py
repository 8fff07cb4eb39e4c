"""Shared pytest configuration: markers that skip with a clear reason where they cannot run."""

from __future__ import annotations

import os
import shutil

import pytest


def _netns_unavailable_reason() -> str | None:
    if os.geteuid() != 0:
        return "needs root to create network namespaces (CI runs as root)"
    if shutil.which("ip") is None:
        return "needs iproute2 (`ip`), installed by .ci/run"
    return None


def _avahi_unavailable_reason() -> str | None:
    missing = [
        tool
        for tool in ("avahi-daemon", "avahi-browse", "dbus-daemon", "unshare")
        if shutil.which(tool) is None
    ]
    if missing:
        return f"needs {', '.join(missing)} (Debian avahi-daemon, avahi-utils, dbus; .ci/run)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    netns_reason = _netns_unavailable_reason()
    avahi_reason = _avahi_unavailable_reason()
    for item in items:
        if netns_reason and "netns" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=netns_reason))
        elif avahi_reason and "avahi" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=avahi_reason))
