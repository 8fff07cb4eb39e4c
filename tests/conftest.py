"""Shared pytest configuration: markers that skip with a clear reason where they cannot run, and
the groups of tests that pytest-xdist keeps in one worker."""

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


# Under pytest-xdist (`-n 2 --dist loadgroup`, README), the tests of one group run one after
# another in a single worker. Real mDNS on loopback: every browser on the host hears every
# advertisement, so these tests share the one multicast group with nobody but each other. A real
# terminal (tmux): its screen is polled against a deadline.
SERIAL_GROUPS = {
    "mdns-loopback": (
        "tests/p2p/test_discovery_loopback.py",
        "tests/p2p/test_lobby_session.py",
        "tests/p2p/test_mdns_port.py",
        "tests/ui/test_netui_play.py",
    ),
    "terminal": ("tests/ui/test_tmux_smoke.py", "tests/ui/test_lie_tmux_smoke.py"),
}
NAMESPACE_GROUP = "namespaces"  # the netns and avahi tests: root, iproute2, whole-LAN timeouts
# Files whose tests share an expensive module-scoped fixture (a played game, its transcripts):
# kept in one worker, the fixture is built once, not once in each worker.
SHARED_FIXTURE_FILES = (
    "tests/deck/test_batch.py",
    "tests/deck/test_session.py",
    "tests/deck/test_shuffle.py",
    "tests/game/test_audit.py",
    "tests/game/test_audit_damage.py",
    "tests/game/test_audit_wording.py",
    "tests/game/test_lie_table.py",
    "tests/game/test_report.py",
    "tests/game/test_resume_damage.py",
    "tests/game/test_simulate_lie.py",
    "tests/p2p/test_message_kinds.py",
    "tests/third_game/test_highcard_table.py",
    "tests/fourth_game/test_lowcard.py",
)


def _serial_group(item: pytest.Item) -> str | None:
    path = item.nodeid.split("::", 1)[0]
    for group, paths in SERIAL_GROUPS.items():
        if path in paths:
            return group
    if path in SHARED_FIXTURE_FILES:
        return path
    if "netns" in item.keywords or "avahi" in item.keywords:
        return NAMESPACE_GROUP
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    netns_reason = _netns_unavailable_reason()
    avahi_reason = _avahi_unavailable_reason()
    for item in items:
        group = _serial_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        if netns_reason and "netns" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=netns_reason))
        elif avahi_reason and "avahi" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=avahi_reason))
