"""Fixtures for the end-to-end suite (run by `tests/tests/e2e.rs`, which sets everything up).

The Rust test builds the app, starts `tauri-driver` with hermetic XDG directories and a
separate `weir-server` (the "real organization"), writes a zuliprc, and passes all of it
here through `WEIR_E2E_*` environment variables.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.common.proxy import Proxy, ProxyType
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.file_detector import UselessFileDetector
from selenium.webdriver.remote.remote_connection import RemoteConnection

from a11y import TALLY


@dataclass(frozen=True)
class E2EEnv:
    webdriver_url: str
    app: Path
    # The XDG data, config and cache homes the app runs with (fresh for this run).
    data_home: Path
    config_home: Path
    cache_home: Path
    artifacts: Path
    zuliprc: Path
    site: str
    email: str
    key: str
    full_name: str
    realm: str
    bot_count: int
    # Where the app keeps API keys: `weir-dev` for debug builds, `weir` for release ones.
    keyring_service: str
    timeout: float
    # An administrator of the second server (the groups steps import it as a third account).
    admin_zuliprc: Path
    admin_email: str
    admin_key: str


def _required(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        pytest.exit(
            f"{name} is not set: this suite is run by `cargo test -p weir-tests --test process -- e2e::` "
            "(via scripts/test.sh), which prepares the app, tauri-driver and a server",
            returncode=2,
        )
    return value


@pytest.fixture(scope="session")
def e2e() -> E2EEnv:
    return E2EEnv(
        webdriver_url=_required("WEIR_E2E_WEBDRIVER_URL"),
        app=Path(_required("WEIR_E2E_APP")),
        data_home=Path(_required("WEIR_E2E_DATA_HOME")),
        config_home=Path(_required("WEIR_E2E_CONFIG_HOME")),
        cache_home=Path(_required("WEIR_E2E_CACHE_HOME")),
        artifacts=Path(_required("WEIR_E2E_ARTIFACTS")),
        zuliprc=Path(_required("WEIR_E2E_ZULIPRC")),
        site=_required("WEIR_E2E_SITE"),
        email=_required("WEIR_E2E_EMAIL"),
        key=_required("WEIR_E2E_KEY"),
        full_name=_required("WEIR_E2E_FULL_NAME"),
        realm=_required("WEIR_E2E_REALM"),
        bot_count=int(_required("WEIR_E2E_BOT_COUNT")),
        keyring_service=_required("WEIR_E2E_KEYRING_SERVICE"),
        timeout=float(os.environ.get("WEIR_E2E_TIMEOUT", "30")),
        admin_zuliprc=Path(_required("WEIR_E2E_ADMIN_ZULIPRC")),
        admin_email=_required("WEIR_E2E_ADMIN_EMAIL"),
        admin_key=_required("WEIR_E2E_ADMIN_KEY"),
    )


@pytest.fixture(scope="session")
def driver(e2e: E2EEnv):
    """One app session for the whole flow. Deleting the session quits the app."""
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(e2e.app)})
    config = ClientConfig(
        remote_server_addr=e2e.webdriver_url,
        # Loopback only: never go through a proxy from the environment.
        proxy=Proxy({"proxyType": ProxyType.DIRECT}),
        timeout=120,
    )
    session = webdriver.Remote(
        command_executor=RemoteConnection(client_config=config), options=options
    )
    # Typed paths are text for the app, not files to upload (the default detector would
    # try to upload any existing file's path through the Selenium-only `se/file` command).
    session.file_detector = UselessFileDetector()
    session.set_script_timeout(e2e.timeout)
    try:
        yield session
    finally:
        session.quit()


# Incremental steps: the flow is one story, so once a step fails the later steps are
# reported as failed-because-of-it instead of producing confusing errors of their own.
_failed_step: dict[str, str] = {}


def pytest_runtest_makereport(item, call):
    if "incremental" in item.keywords and call.excinfo is not None:
        _failed_step.setdefault(str(item.parent.nodeid), item.name)


def pytest_runtest_setup(item):
    if "incremental" in item.keywords:
        failed = _failed_step.get(str(item.parent.nodeid))
        if failed is not None:
            pytest.fail(f"an earlier step failed: {failed}", pytrace=False)


def pytest_terminal_summary(terminalreporter):
    """The axe-core figures of the whole run (every file adds its states to one tally)."""
    if TALLY.runs:
        terminalreporter.write_line(TALLY.summary())


def pytest_configure(config):
    config.addinivalue_line("markers", "incremental: steps of one flow, stop at the first failure")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """On a failing step, save what the app showed: a screenshot and the DOM."""
    try:
        return (yield)
    except BaseException:
        session = item.funcargs.get("driver")
        env = item.funcargs.get("e2e")
        if session is not None and env is not None:
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", item.name)
            env.artifacts.mkdir(parents=True, exist_ok=True)
            try:
                png = env.artifacts / f"failure-{name}.png"
                png.write_bytes(session.get_screenshot_as_png())
                html = env.artifacts / f"failure-{name}.html"
                html.write_text(session.page_source, encoding="utf-8")
                print(f"failure artifacts: {png} {html}")
            except Exception as error:  # the session itself may be what broke
                print(f"could not save failure artifacts: {error!r}")
        raise
