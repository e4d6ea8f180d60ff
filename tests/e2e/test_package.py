"""The installed package's app, end to end: run by `scripts/test-package.sh` only.

That script builds the .deb, installs it with dpkg, and runs this file twice against
`/usr/bin/weir` on the same fresh XDG homes: `WEIR_PACKAGE_PHASE=first` on a new install,
then `again` after the same package was installed over it. This file starts its own
tauri-driver (loopback ports, its own process group, stopped with everything it started)
with those homes, so it needs none of the `WEIR_E2E_*` set-up of the main suite.

* first: the app starts on the demo organization's Memberships page, the grid shows;
  one subscribed cell is unchecked and applied (kept by the local server's database and
  the apply journal); which one is written to `WEIR_PACKAGE_STATE`.
* again: the app opens on the same data: the same account and organization, that cell
  still unsubscribed, and the apply still in the history (the journal).

Screenshots go to `WEIR_PACKAGE_ARTIFACTS`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

if not os.environ.get("WEIR_PACKAGE_PHASE"):
    pytest.skip(
        "the installed package's test: run by scripts/test-package.sh",
        allow_module_level=True,
    )

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.options import ArgOptions  # noqa: E402
from selenium.webdriver.common.proxy import Proxy, ProxyType  # noqa: E402
from selenium.webdriver.remote.client_config import ClientConfig  # noqa: E402
from selenium.webdriver.remote.remote_connection import RemoteConnection  # noqa: E402

from test_app import DEMO_REALM, Ui, apply_and_wait, click_cell, grid_cells  # noqa: E402

DRIVER_START_TIMEOUT = 30.0


@dataclass(frozen=True)
class PackageEnv:
    """What `Ui` needs of its environment, plus this test's own settings."""

    phase: str
    app: Path
    data_home: Path
    config_home: Path
    cache_home: Path
    artifacts: Path
    state: Path
    timeout: float


@pytest.fixture(scope="module")
def env() -> PackageEnv:
    def required(name: str) -> str:
        value = os.environ.get(name, "")
        if not value:
            pytest.exit(f"{name} is not set (scripts/test-package.sh sets it)", returncode=2)
        return value

    phase = required("WEIR_PACKAGE_PHASE")
    assert phase in ("first", "again"), f"WEIR_PACKAGE_PHASE={phase!r}"
    return PackageEnv(
        phase=phase,
        app=Path(os.environ.get("WEIR_PACKAGE_APP", "/usr/bin/weir")),
        data_home=Path(required("WEIR_PACKAGE_DATA_HOME")),
        config_home=Path(required("WEIR_PACKAGE_CONFIG_HOME")),
        cache_home=Path(required("WEIR_PACKAGE_CACHE_HOME")),
        artifacts=Path(required("WEIR_PACKAGE_ARTIFACTS")),
        state=Path(required("WEIR_PACKAGE_STATE")),
        timeout=float(os.environ.get("WEIR_E2E_TIMEOUT", "30")),
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _stop(process: subprocess.Popen) -> None:
    """Ends tauri-driver's process group (it, WebKitWebDriver and the app), by its id."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=5)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@pytest.fixture(scope="module")
def driver(env: PackageEnv):
    assert env.app.is_file(), f"{env.app} is not installed"
    env.artifacts.mkdir(parents=True, exist_ok=True)
    log_path = env.artifacts / f"tauri-driver-{env.phase}.log"
    port, native_port = _free_port(), _free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ["tauri-driver", "--port", str(port), "--native-port", str(native_port)],
            env={
                **os.environ,
                "XDG_DATA_HOME": str(env.data_home),
                "XDG_CONFIG_HOME": str(env.config_home),
                "XDG_CACHE_HOME": str(env.cache_home),
                # Screenshots can hang in WebKitWebDriver without compositing.
                "WEIR_HARDWARE_ACCELERATION": "always",
            },
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    # For scripts/test-package.sh, should this process be killed before it stops the group.
    pgid_file = env.state.parent / "tauri-driver.pgid"
    pgid_file.write_text(str(process.pid))
    try:
        deadline = time.monotonic() + DRIVER_START_TIMEOUT
        while not (_accepts(port) and _accepts(native_port)):
            assert process.poll() is None, f"tauri-driver exited:\n{log_path.read_text()}"
            assert time.monotonic() < deadline, f"tauri-driver not listening:\n{log_path.read_text()}"
            time.sleep(0.05)
        options = ArgOptions()
        options.set_capability("browserName", "wry")
        options.set_capability("tauri:options", {"application": str(env.app)})
        config = ClientConfig(
            remote_server_addr=f"http://127.0.0.1:{port}",
            proxy=Proxy({"proxyType": ProxyType.DIRECT}),  # loopback only
            timeout=120,
        )
        session = webdriver.Remote(
            command_executor=RemoteConnection(client_config=config), options=options
        )
        session.set_script_timeout(env.timeout)
        try:
            yield session
        finally:
            try:
                session.quit()  # quits the app, so that its databases are closed
            except Exception as error:  # the session itself may be what broke
                print(f"could not end the WebDriver session: {error!r}")
    finally:
        _stop(process)
        pgid_file.unlink(missing_ok=True)
        print(f"tauri-driver log: {log_path}")


@pytest.fixture(scope="module")
def ui(driver, env: PackageEnv) -> Ui:
    return Ui(driver, env)  # type: ignore[arg-type]  # Ui reads .timeout and .artifacts


def _memberships_page(ui: Ui) -> dict:
    ui.wait_text("realm-name", DEMO_REALM)
    page = ui.driver.find_element(By.CSS_SELECTOR, '[data-testid="main"]')
    assert page.get_attribute("data-page") == "memberships", "not on the Memberships page"
    ui.one("nav-memberships")
    return ui.wait(lambda d: grid_cells(ui) or False, "the memberships grid's cells")


def test_the_installed_app_opens_the_demo_memberships(ui: Ui, env: PackageEnv):
    cells = _memberships_page(ui)
    ui.assert_no_error()
    # The account, less the local server's port (a free one on every start).
    account = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", ui.text_of("active-account"))
    assert DEMO_REALM in account, f"active account {account!r}"
    if env.phase == "first":
        # One subscription to a public stream that the owner may change, removed.
        public = {
            int(header.get_attribute("data-stream-id") or 0)
            for header in ui.stream_headers().values()
            if header.get_attribute("data-private") == "false"
        }
        user, stream = next(
            key
            for key, cell in sorted(cells.items())
            if key[1] in public and cell.checked and not cell.disabled
        )
        click_cell(ui, user, stream)
        ui.wait_text("pending-count", "1")
        apply_and_wait(ui, "Applied 1 change in 1 request.")
        ui.wait(
            lambda d: not grid_cells(ui)[(user, stream)].checked,
            "the grid to show the server's new state",
        )
        ui.wait_text("pending-count", "0")
        env.state.write_text(
            json.dumps({"account": account, "cell": [user, stream], "cells": len(cells)})
        )
        ui.screenshot("package-first")
    else:
        before = json.loads(env.state.read_text())
        assert account == before["account"], f"active account {account!r}, was {before['account']!r}"
        user, stream = before["cell"]
        after = grid_cells(ui)
        assert (user, stream) in after, f"cell {user}-{stream} is gone"
        assert not after[(user, stream)].checked, (
            f"cell {user}-{stream} is subscribed again: the local server's data was not kept"
        )
        assert not any(cell.staged for cell in after.values()), "cells are staged on start"
        ui.wait(lambda d: ui.all("apply-entry"), "the apply of the first run in the history")
        ui.screenshot("package-again")
