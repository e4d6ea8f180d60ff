"""Weir end to end: the real app, driven through tauri-driver and WebKitWebDriver.

One story, in order: the app starts on its embedded demo server and shows the demo
organization; the local-server and bots pages work; a second account is imported from a
zuliprc file whose plaintext copy is then deleted; its API key is in the Secret Service and
in no file of the app; the imported organization shows; switching back to the demo works.
Screenshots of each main page go to `WEIR_E2E_ARTIFACTS`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import secretstorage
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from conftest import E2EEnv

DEMO_REALM = "Lumen Labs"
DEMO_LABEL = "Lumen Labs (demo)"
# The Tauri identifier: the app keeps its files in `<XDG home>/dev.weir.desktop`.
APP_IDENTIFIER = "dev.weir.desktop"

# What the steps learn and later steps check.
flow: dict[str, object] = {}


def css(testid: str) -> str:
    return f'[data-testid="{testid}"]'


def content(element: WebElement) -> str:
    """The element's text content, whitespace collapsed. WebKitWebDriver's rendered-text
    algorithm drops some visible text (e.g. ellipsized spans in the account switcher)."""
    return " ".join((element.get_property("textContent") or "").split())


class Ui:
    """Small helpers over the session: explicit, bounded waits only."""

    def __init__(self, driver: WebDriver, e2e: E2EEnv):
        self.driver = driver
        self.e2e = e2e

    def wait(self, condition, what: str):
        return WebDriverWait(
            self.driver,
            self.e2e.timeout,
            poll_frequency=0.1,
            ignored_exceptions=(StaleElementReferenceException,),
        ).until(condition, message=f"timed out ({self.e2e.timeout:.0f} s) waiting for {what}")

    def all(self, name: str, within: WebElement | None = None) -> list[WebElement]:
        root = within if within is not None else self.driver
        return root.find_elements(By.CSS_SELECTOR, css(name))

    def one(self, name: str) -> WebElement:
        """The displayed element with this test id (waits for it)."""

        def displayed(driver):
            for element in self.all(name):
                if element.is_displayed():
                    return element
            return False

        return self.wait(displayed, f"[data-testid={name}] to be displayed")

    def bot_rows(self) -> list[WebElement]:
        """The bots table's rows (`data-testid="bot-<user_id>"`)."""
        return self.driver.find_elements(By.CSS_SELECTOR, 'tr[data-testid^="bot-"]')

    def text_of(self, name: str) -> str:
        return content(self.one(name))

    def wait_text(self, name: str, expected: str) -> str:
        def matches(driver):
            elements = self.all(name)
            return bool(elements) and elements[0].text.strip() == expected

        try:
            self.wait(matches, f"[data-testid={name}] to read {expected!r}")
        except Exception:
            found = [e.text for e in self.all(name)]
            raise AssertionError(f"[data-testid={name}] reads {found!r}, expected {expected!r}")
        return expected

    def go(self, page: str) -> None:
        self.one(f"nav-{page}").click()
        self.wait(
            lambda d: d.find_element(By.CSS_SELECTOR, css("main")).get_attribute("data-page")
            == page,
            f"the {page} page to be shown",
        )
        link = self.one(f"nav-{page}")
        assert link.get_attribute("aria-current") == "page", f"nav-{page} is not marked current"

    def assert_no_error(self) -> None:
        shown = [content(e) for e in self.all("error") if e.is_displayed()]
        assert not shown, f"the app shows an error: {shown}"

    def settle(self) -> None:
        """Fonts loaded and two animation frames drawn, so a screenshot shows the new DOM."""
        self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "document.fonts.ready.then(() =>"
            "  requestAnimationFrame(() => requestAnimationFrame(() => done(true))));"
        )

    def screenshot(self, name: str) -> Path:
        self.settle()
        self.e2e.artifacts.mkdir(parents=True, exist_ok=True)
        path = self.e2e.artifacts / f"{name}.png"
        png = self.driver.get_screenshot_as_png()
        assert png.startswith(b"\x89PNG"), f"screenshot {name} is not a PNG"
        path.write_bytes(png)
        print(f"screenshot: {path}")
        return path

    def stream_names(self) -> list[str]:
        return [
            row.find_element(By.CSS_SELECTOR, "th").text.strip().lstrip("#")
            for row in self.all("stream-row")
        ]

    def account_rows(self) -> list[WebElement]:
        return self.all("account-row")


def is_active(row: WebElement) -> bool:
    return "active" in (row.get_attribute("class") or "").split()


@pytest.fixture
def ui(driver: WebDriver, e2e: E2EEnv) -> Ui:
    return Ui(driver, e2e)


@pytest.mark.incremental
class TestWeir:
    def test_starts_on_the_demo_organization(self, ui: Ui):
        ui.wait_text("realm-name", DEMO_REALM)
        ui.wait(
            lambda d: {"general", "leadership"} <= set(ui.stream_names()),
            "the streams #general and #leadership",
        )
        rows = {
            row.find_element(By.CSS_SELECTOR, "th").text.strip().lstrip("#"): row
            for row in ui.all("stream-row")
        }
        assert "Private" in content(rows["leadership"]), "#leadership is not shown as private"
        assert "Public" in content(rows["general"]), "#general is not shown as public"
        assert DEMO_REALM in ui.text_of("active-account")
        assert (
            ui.driver.find_element(By.CSS_SELECTOR, css("main")).get_attribute("data-page")
            == "memberships"
        )
        ui.assert_no_error()
        ui.screenshot("memberships")

    def test_local_server_page(self, ui: Ui):
        ui.go("local-server")
        url = ui.text_of("local-server-url")
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)", url)
        assert match, f"local server URL {url!r} is not http://127.0.0.1:<port>"
        assert 0 < int(match.group(1)) < 65536
        assert "Running" in ui.text_of("local-server-status")
        # The Memberships page has talked to the embedded server: the log shows it.
        ui.wait(lambda d: len(ui.all("request-row")) > 0, "request log entries")
        data_dir = ui.text_of("local-server-data-dir")
        assert data_dir.startswith(str(ui.e2e.data_home)), (
            f"the demo server keeps its data in {data_dir!r}, outside the app's data home "
            f"{ui.e2e.data_home}"
        )
        ui.assert_no_error()
        flow["local_url"] = url
        ui.screenshot("local-server")

    def test_bots_page(self, ui: Ui):
        ui.go("bots")
        ui.wait(
            lambda d: ui.all("bots-empty") or ui.bot_rows(),
            "the bots list (or its empty state)",
        )
        ui.assert_no_error()
        ui.screenshot("bots")

    def test_a_missing_zuliprc_is_refused(self, ui: Ui):
        ui.go("accounts")
        ui.wait(lambda d: len(ui.account_rows()) == 1, "exactly one account (the demo)")
        missing = ui.e2e.zuliprc.with_name("no-such-zuliprc")
        field = ui.one("zuliprc-path")
        field.clear()
        field.send_keys(str(missing))
        ui.one("zuliprc-import").click()
        alert = ui.one("error")
        assert content(alert), "the error alert is empty"
        assert len(ui.account_rows()) == 1, "an account was added from a missing file"
        assert not ui.all("zuliprc-delete-offer"), "offered to delete a file that was not read"
        flow["missing_file_error"] = content(alert)
        ui.screenshot("accounts-import-error")

    def test_import_a_second_account_from_a_zuliprc(self, ui: Ui):
        e2e = ui.e2e
        assert e2e.zuliprc.is_file(), f"the test's zuliprc {e2e.zuliprc} is missing"
        ui.go("accounts")
        ui.wait(lambda d: len(ui.account_rows()) == 1, "exactly one account (the demo)")
        demo = ui.account_rows()[0]
        assert DEMO_LABEL in content(demo) and is_active(demo), f"demo row: {content(demo)!r}"
        local_url = str(flow.get("local_url", ""))
        assert local_url in content(demo), f"the demo row does not show {local_url}"

        field = ui.one("zuliprc-path")
        field.clear()
        ui.wait(lambda d: field.get_attribute("value") == "", "the path field to be cleared")
        field.send_keys(str(e2e.zuliprc))
        ui.wait(
            lambda d: field.get_attribute("value") == str(e2e.zuliprc),
            "the path to be typed",
        )
        stale = ui.all("error")  # the previous step's alert, cleared by a new import
        ui.one("zuliprc-import").click()

        def two_accounts(driver):
            fresh = [e for e in ui.all("error") if e not in stale]
            if fresh:
                raise AssertionError(f"import failed: {[content(e) for e in fresh]}")
            return len(ui.account_rows()) == 2

        ui.wait(two_accounts, "a second account")
        rows = ui.account_rows()
        imported = [row for row in rows if e2e.email in content(row)]
        assert len(imported) == 1, f"no row for {e2e.email}: {[content(r) for r in rows]}"
        new = imported[0]
        ui.wait(lambda d: is_active(new), "the imported account to be active")
        assert e2e.site in content(new), f"the new row does not name {e2e.site}: {content(new)!r}"
        assert "Demo" not in content(new)
        demo = [row for row in rows if row is not new][0]
        assert not is_active(demo), "the demo account is still marked active"
        # Accounts are labelled with their organization's name.
        assert e2e.realm in content(new), f"the new row is not labelled {e2e.realm}: {content(new)!r}"
        ui.wait(
            lambda d: e2e.realm in ui.text_of("active-account"),
            f"the sidebar to show {e2e.realm} as active",
        )
        offer = ui.one("zuliprc-delete-offer")
        assert str(e2e.zuliprc) in content(offer), f"delete offer: {content(offer)!r}"
        assert "delete" in content(offer).lower()
        ui.assert_no_error()
        flow["imported_id"] = new.get_attribute("data-account-id")
        ui.screenshot("accounts")

    def test_delete_the_plaintext_zuliprc(self, ui: Ui):
        ui.one("zuliprc-delete").click()
        ui.wait(lambda d: not ui.all("zuliprc-delete-offer"), "the delete offer to close")
        ui.wait(
            lambda d: "Deleted" in content(ui.all("accounts-notice")[0]),
            "the notice that the file was deleted",
        )
        ui.assert_no_error()
        assert not ui.e2e.zuliprc.exists(), f"{ui.e2e.zuliprc} still exists after Delete"

    def test_the_key_is_in_the_secret_service(self, e2e: E2EEnv):
        connection = secretstorage.dbus_init()
        try:
            items = list(secretstorage.search_items(connection, {"service": e2e.keyring_service}))
            found = []
            for item in items:
                if item.is_locked():
                    item.unlock()
                found.append((item.get_attributes(), item.get_secret()))
        finally:
            connection.close()
        user = f"{e2e.email}@{e2e.site}"
        mine = [secret for attributes, secret in found if attributes.get("username") == user]
        assert mine, (
            f"no Secret Service item with service={e2e.keyring_service!r} and username={user!r}; "
            f"items with that service: {[attributes for attributes, _ in found]}"
        )
        assert mine == [e2e.key.encode()], "the keyring item does not hold the zuliprc's key"

    def test_the_key_is_in_no_file_of_the_app(self, e2e: E2EEnv):
        database = e2e.data_home / APP_IDENTIFIER / "accounts.sqlite3"
        assert database.is_file(), f"the app's account database {database} does not exist"
        needles = [e2e.key.encode(), e2e.key.encode("utf-16-le")]
        scanned, leaks, email_seen = 0, [], False
        for home in (e2e.data_home, e2e.config_home, e2e.cache_home):
            for path in sorted(home.rglob("*")):
                if path.is_symlink() or not path.is_file():
                    continue
                data = path.read_bytes()
                scanned += 1
                email_seen |= e2e.email.encode() in data
                if any(needle in data for needle in needles):
                    leaks.append(str(path))
        assert not leaks, f"the API key is stored in plaintext in: {leaks}"
        # The scan saw the app's real files: the account itself is recorded there.
        assert email_seen, f"the imported account's email is in none of the {scanned} files"
        print(f"scanned {scanned} files under the app's XDG homes: no API key")

    def test_the_imported_organization_shows(self, ui: Ui):
        e2e = ui.e2e
        ui.go("memberships")
        ui.wait_text("realm-name", e2e.realm)
        ui.wait(lambda d: len(ui.all("stream-row")) > 0, "the imported organization's streams")
        ui.assert_no_error()
        ui.screenshot("memberships-imported")
        ui.go("bots")
        ui.wait(
            lambda d: len(ui.bot_rows()) == e2e.bot_count,
            f"{e2e.bot_count} bots of {e2e.email}",
        )
        ui.assert_no_error()
        ui.screenshot("bots-imported")

    def test_switch_back_to_the_demo(self, ui: Ui):
        ui.go("accounts")
        ui.wait(lambda d: len(ui.account_rows()) == 2, "both accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, f"no demo row: {[content(r) for r in ui.account_rows()]}"
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(
            lambda d: any(
                is_active(row) and DEMO_LABEL in content(row) for row in ui.account_rows()
            ),
            "the demo account to be active again",
        )
        ui.wait(
            lambda d: DEMO_REALM in ui.text_of("active-account"),
            "the sidebar to show the demo account",
        )
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.wait(
            lambda d: {"general", "leadership"} <= set(ui.stream_names()),
            "the demo streams again",
        )
        ui.assert_no_error()
        ui.screenshot("memberships-after-switch")
