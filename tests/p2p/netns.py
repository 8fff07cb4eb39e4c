"""A throw-away LAN made of network namespaces, for tests that need real multicast between hosts.

`VirtualLan` creates one namespace holding a bridge (multicast snooping off, so mDNS floods) and
N "host" namespaces, each with a veth `eth0` into the bridge, an address in a private test subnet
that exists only inside these namespaces, loopback up and a multicast route. Everything it makes
carries the run's unique prefix, and `close()` kills every process it started (and anything else
still inside its namespaces) before deleting the namespaces, which also deletes the veths.

Processes are started with `VirtualLan.spawn`; their stdout is read line by line with a deadline
(`LanProcess.expect`), so tests wait on what the process reports rather than on sleeps.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SUBNET_PREFIX = "10.213.1"  # a private test subnet: it exists only inside our namespaces
KILL_GRACE_S = 3.0
_lan_numbers = itertools.count()


def run_ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


@dataclass(frozen=True)
class Host:
    """One namespace on the virtual LAN."""

    namespace: str
    address: str

    def argv(self, command: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self.namespace, *command]


@dataclass
class LanProcess:
    """A process running in one namespace whose stdout lines are read with a deadline."""

    name: str
    popen: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    _buffer: str = ""

    def expect(self, matches: Callable[[str], bool], timeout: float) -> str:
        """Return the first stdout line (seen before or arriving now) for which `matches` holds."""
        for line in self.lines:
            if matches(line):
                return line
        deadline = time.monotonic() + timeout
        assert self.popen.stdout is not None
        fd = self.popen.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while (left := deadline - time.monotonic()) > 0:
                if not selector.select(left):
                    continue
                chunk = os.read(fd, 65536).decode()
                if not chunk:
                    break
                self._buffer += chunk
                *complete, self._buffer = self._buffer.split("\n")
                self.lines.extend(complete)  # keep every line: later expects may want them
                for line in complete:
                    if matches(line):
                        return line
        raise AssertionError(
            f"{self.name}: no matching line within {timeout} s "
            f"(exit code {self.popen.poll()}); output so far:\n" + "\n".join(self.lines)
        )

    def expect_json(self, event: str, timeout: float) -> dict[str, object]:
        """The first JSON line whose "event" is `event`."""

        def is_event(line: str) -> bool:
            try:
                record = json.loads(line)
            except ValueError:
                return False
            return isinstance(record, dict) and record.get("event") == event

        return json.loads(self.expect(is_event, timeout))

    def stop(self) -> None:
        """Terminate the process group, then kill it if it does not go within the grace time."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(KILL_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(KILL_GRACE_S)
        if self.popen.stdout is not None:
            self.popen.stdout.close()


class VirtualLan:
    """N namespaces on one bridge. Use as a context manager; it undoes everything on exit."""

    def __init__(self, host_count: int, prefix: str | None = None) -> None:
        self.prefix = prefix or f"fdt{os.getpid()}n{next(_lan_numbers)}"
        self.bridge_namespace = f"{self.prefix}-br"
        self.hosts = [
            Host(f"{self.prefix}-h{index}", f"{SUBNET_PREFIX}.{index + 1}")
            for index in range(host_count)
        ]
        self.processes: list[LanProcess] = []
        self._created: list[str] = []

    def __enter__(self) -> VirtualLan:
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _add_namespace(self, name: str) -> None:
        run_ip("netns", "add", name)
        self._created.append(name)

    def _build(self) -> None:
        bridge = self.bridge_namespace
        self._add_namespace(bridge)
        run_ip("-n", bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        run_ip("-n", bridge, "link", "set", "br0", "up")
        for index, host in enumerate(self.hosts):
            self._add_namespace(host.namespace)
            port = f"p{index}"
            run_ip(
                "-n", bridge, "link", "add", port, "type", "veth",
                "peer", "name", "eth0", "netns", host.namespace,
            )  # fmt: skip
            run_ip("-n", bridge, "link", "set", port, "master", "br0", "up")
            ns = host.namespace
            run_ip("-n", ns, "link", "set", "lo", "up")
            run_ip("-n", ns, "addr", "add", f"{host.address}/24", "dev", "eth0")
            run_ip("-n", ns, "link", "set", "eth0", "multicast", "on", "up")
            run_ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")

    def spawn(
        self,
        host: Host,
        command: Sequence[str],
        name: str,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> LanProcess:
        """Start `command` inside `host`'s namespace in its own process group."""
        popen = subprocess.Popen(
            host.argv(command),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=cwd,
            start_new_session=True,
        )
        process = LanProcess(name, popen)
        self.processes.append(process)
        return process

    def close(self) -> None:
        for process in reversed(self.processes):
            process.stop()
        self.processes.clear()
        for namespace in reversed(self._created):
            self._kill_stragglers(namespace)
            with contextlib.suppress(subprocess.CalledProcessError):
                run_ip("netns", "del", namespace)
        self._created.clear()

    @staticmethod
    def _kill_stragglers(namespace: str) -> None:
        """Anything still running in a namespace we created (a daemon that forked) must go."""
        listed = subprocess.run(
            ["ip", "netns", "pids", namespace], capture_output=True, text=True, timeout=10
        )
        for pid in listed.stdout.split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)


def namespaces_with_prefix(prefix: str) -> list[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=10)
    names = [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]
    return [name for name in names if name.startswith(prefix)]


DBUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

AVAHI_CONFIG = """[server]
host-name={host_name}
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes

[wide-area]
enable-wide-area=no

[publish]
publish-hinfo=no
publish-workstation=no

[reflector]
enable-reflector=no
"""


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll a real condition until it holds, or fail naming what did not happen."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


def start_avahi(
    lan: VirtualLan, host: Host, workdir: Path, timeout: float = 10.0
) -> dict[str, str]:
    """A private system bus and avahi-daemon in `host`; returns the env that avahi clients need.

    avahi-daemon gets its own mount namespace with a tmpfs on /run (for its pid file and socket),
    so it touches nothing of the machine's own /run, and it sees only the namespace's eth0.
    """
    socket_path = workdir / "system_bus_socket"
    dbus_config = workdir / "dbus.conf"
    dbus_config.write_text(DBUS_CONFIG.format(socket=socket_path))
    avahi_config = workdir / "avahi-daemon.conf"
    avahi_config.write_text(AVAHI_CONFIG.format(host_name=f"{lan.prefix}-avahi"))
    bus_env = {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={socket_path}"}

    dbus = lan.spawn(
        host, ["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={dbus_config}"], "dbus"
    )
    wait_until(socket_path.exists, timeout, "the private D-Bus socket appearing")
    avahi_command = (
        "mount -n -t tmpfs tmpfs /run && exec avahi-daemon -f "
        f"{avahi_config} --no-drop-root --no-chroot --no-rlimits"
    )
    avahi = lan.spawn(
        host,
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", avahi_command],
        "avahi-daemon",
        env=bus_env,
    )
    avahi.expect(lambda line: "Server startup complete" in line, timeout)
    assert dbus.popen.poll() is None, "dbus-daemon exited"
    return bus_env
