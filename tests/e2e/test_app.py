"""Weir end to end: the real app, driven through tauri-driver and WebKitWebDriver.

One story, in order: the app starts on its local server and shows the demo
organization; the local-server and bots pages work; a second account is imported from a
zuliprc file whose plaintext copy is then deleted; its API key is in the Secret Service and
in no file of the app; the imported organization shows; switching back to the demo works.
Screenshots of each main page go to `WEIR_E2E_ARTIFACTS`.
"""

from __future__ import annotations

import base64
import csv
import json
import re
import urllib.request
from pathlib import Path

import pytest
import secretstorage
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from a11y import axe_themes
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

    def pending_count(self) -> int:
        """The memberships pending bar's count; 0 while the bar is gone (nothing staged)."""
        shown = [e for e in self.all("pending-count") if e.is_displayed()]
        return int(shown[0].text.strip()) if shown else 0

    def wait_nothing_pending(self) -> None:
        """Nothing staged: the pending bar reads 0 (showing an apply's outcome) or is gone."""
        self.wait(lambda d: self.pending_count() == 0, "no change to be pending")

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

    def stream_headers(self) -> dict[str, WebElement]:
        """The grid's column headers by stream name (the columns scrolled into view)."""
        return {
            header.get_attribute("data-stream-name") or "": header
            for header in self.all("stream-header")
        }

    def stream_names(self) -> list[str]:
        return list(self.stream_headers())

    def account_rows(self) -> list[WebElement]:
        return self.all("account-row")


CELLS_SCRIPT = """
return [...document.querySelectorAll('[data-testid^="cell-"]')].map((e) => [
  e.dataset.testid,
  e.getAttribute('aria-checked'),
  e.getAttribute('aria-disabled'),
  e.getAttribute('data-staged'),
  e.getAttribute('title'),
]);
"""


class Cell:
    def __init__(self, row: list):
        _, user, stream = row[0].split("-")
        self.user, self.stream = int(user), int(stream)
        self.checked = row[1] == "true"
        self.disabled = row[2] == "true"
        self.staged = row[3] == "true"
        self.title = row[4] or ""


def grid_cells(ui: Ui) -> dict[tuple[int, int], Cell]:
    """Every rendered cell of the grid by (user id, stream id), read in one script."""
    return {
        (cell.user, cell.stream): cell
        for cell in map(Cell, ui.driver.execute_script(CELLS_SCRIPT))
    }


def click_cell(ui: Ui, user: int, stream: int) -> None:
    ui.one(f"cell-{user}-{stream}").click()


def apply_and_wait(ui: Ui, expected: str) -> str:
    """Applies the staged changes (confirming if asked) and waits for the outcome."""
    # Each apply is journalled under a new id, which the status carries.
    stale = [e.get_attribute("data-journal-id") for e in ui.all("apply-status")]
    ui.one("apply-changes").click()

    def finished(driver):
        for button in ui.all("confirm-apply"):
            if button.is_displayed():
                button.click()
        shown = ui.all("apply-status")
        if not shown or shown[0].get_attribute("data-journal-id") in stale:
            return False
        text = content(shown[0])
        return "Applied" in text and text

    status = ui.wait(finished, "the apply to finish")
    assert expected in status, f"apply status {status!r}, expected {expected!r}"
    return status


def api_get(e2e: E2EEnv, path: str) -> dict:
    """A GET on the second account's server with its key: the server's own view."""
    request = urllib.request.Request(f"{e2e.site}/api/v1/{path}")
    token = base64.b64encode(f"{e2e.email}:{e2e.key}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def export_csv(ui: Ui, name: str) -> tuple[Path, list[list[str]]]:
    """Exports the page's CSV to `<artifacts>/<name>` and reads it back (header checked)."""
    path = ui.e2e.artifacts / name
    ui.e2e.artifacts.mkdir(parents=True, exist_ok=True)
    field = ui.one("csv-path")
    field.clear()
    field.send_keys(str(path))
    ui.one("export-csv").click()
    ui.wait(lambda d: "Exported" in ui.text_of("csv-status"), "the export")
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:3] == ["user_id", "email", "full_name"], rows[0]
    return path, rows


def import_csv(ui: Ui, path: Path, rows: list[list[str]], expected: str) -> None:
    """Writes the edited rows back and imports them; waits for the status to say `expected`."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    ui.one("import-csv").click()
    ui.wait(lambda d: expected in ui.text_of("csv-status"), "the import")


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
        headers = ui.stream_headers()
        assert headers["leadership"].get_attribute("data-private") == "true", (
            "#leadership is not shown as private"
        )
        assert headers["general"].get_attribute("data-private") == "false", (
            "#general is not shown as public"
        )
        assert DEMO_REALM in ui.text_of("active-account")
        assert (
            ui.driver.find_element(By.CSS_SELECTOR, css("main")).get_attribute("data-page")
            == "memberships"
        )
        ui.assert_no_error()
        ui.screenshot("memberships")

    def test_owner_unchecks_people_across_streams_and_applies_in_one_request(self, ui: Ui):
        ui.wait(lambda d: len(grid_cells(ui)) > 0, "the memberships grid")
        before = grid_cells(ui)
        streams = sorted(
            int(header.get_attribute("data-stream-id") or 0)
            for header in ui.stream_headers().values()
            if header.get_attribute("data-private") == "false"
        )
        # Two people subscribed to the same two public streams, changeable by the owner.
        chosen: tuple[list[int], list[int]] | None = None
        for i, first in enumerate(streams):
            for second in streams[i + 1 :]:
                people = sorted(
                    user
                    for (user, stream), cell in before.items()
                    if stream == first
                    and cell.checked
                    and not cell.disabled
                    and (user, second) in before
                    and before[(user, second)].checked
                )
                if len(people) >= 3:
                    chosen = (people[1:3], [first, second])
                    break
            if chosen:
                break
        assert chosen, "the demo has no two public streams sharing three subscribers"
        people, pair = chosen
        for user in people:
            for stream in pair:
                click_cell(ui, user, stream)
        ui.wait_text("pending-count", "4")
        # The planner's promise, shown before anything is sent, is what the apply sends.
        ui.wait_text("planned-requests", "1 request")
        apply_and_wait(ui, "Applied 4 changes in 1 request.")
        flipped = {(user, stream) for user in people for stream in pair}

        def reloaded(driver):
            after = grid_cells(ui)
            return all(key in after and not after[key].checked for key in flipped) and after

        after = ui.wait(reloaded, "the grid to show the server's new state")
        changed = {key for key, cell in before.items() if key in after and after[key].checked != cell.checked}
        assert changed == flipped, f"changed on the server: {sorted(changed)}, asked {sorted(flipped)}"
        assert not any(cell.staged for cell in after.values()), "cells are still staged"
        ui.wait_nothing_pending()
        flow["owner_flipped"] = sorted(flipped)
        ui.screenshot("memberships-applied")

    def test_undo_stages_the_reverse_and_applies_it(self, ui: Ui):
        flipped = [tuple(key) for key in flow["owner_flipped"]]  # type: ignore[union-attr]
        ui.one("undo-last-apply").click()
        ui.wait_text("pending-count", "4")
        cells = grid_cells(ui)
        for key in flipped:
            assert cells[key].staged and cells[key].checked, f"cell {key} is not staged back"
        apply_and_wait(ui, "Applied 4 changes in 1 request.")
        ui.wait(
            lambda d: all(grid_cells(ui)[key].checked for key in flipped),
            "the undone cells to be subscribed again",
        )
        ui.wait_nothing_pending()

    def test_csv_export_then_import_of_an_edit_stages_exactly_the_edit(self, ui: Ui):
        user, stream = flow["owner_flipped"][0]  # type: ignore[index]
        path, rows = export_csv(ui, "memberships.csv")
        header = rows[0]
        name = ui.driver.find_element(
            By.CSS_SELECTOR, f'[data-testid="stream-header"][data-stream-id="{stream}"]'
        ).get_attribute("data-stream-name")
        column = header.index(name)
        row = next(r for r in rows[1:] if r[0] == str(user))
        assert row[column] == "1", f"export says {row[column]!r} for {user} in {name}"
        row[column] = ""
        import_csv(ui, path, rows, "Staged 1 change")
        ui.wait_text("pending-count", "1")
        cell = grid_cells(ui)[(user, stream)]
        assert cell.staged and not cell.checked, "the edited cell is not staged as unchecked"
        assert sum(c.staged for c in grid_cells(ui).values()) == 1
        ui.driver.find_element(By.XPATH, "//button[normalize-space()='Discard all']").click()
        ui.wait_nothing_pending()

    def test_local_server_page(self, ui: Ui):
        ui.go("local-server")
        url = ui.text_of("local-server-url")
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)", url)
        assert match, f"local server URL {url!r} is not http://127.0.0.1:<port>"
        assert 0 < int(match.group(1)) < 65536
        assert "Running" in ui.text_of("local-server-status")
        # The Memberships page has talked to the local server: the log shows it.
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
        ui.wait(lambda d: len(ui.all("stream-header")) > 0, "the imported organization's streams")
        ui.assert_no_error()
        ui.screenshot("memberships-imported")
        ui.go("bots")
        ui.wait(
            lambda d: len(ui.bot_rows()) == e2e.bot_count,
            f"{e2e.bot_count} bots of {e2e.email}",
        )
        ui.assert_no_error()
        ui.screenshot("bots-imported")

    def test_a_member_sees_disabled_cells_with_reasons_and_no_hidden_private_stream(
        self, ui: Ui
    ):
        ui.go("memberships")
        ui.wait_text("realm-name", ui.e2e.realm)
        ui.wait(lambda d: len(grid_cells(ui)) > 0, "the member's grid")
        names = set(ui.stream_names())
        # Mark is in Secret Plans (private) but not in Hidden Lair (private).
        assert "Secret Plans" in names and "Hidden Lair" not in names, names
        cells = grid_cells(ui)
        nina_in_engineering = cells[(105, 11)]
        assert nina_in_engineering.checked and nina_in_engineering.disabled
        assert "Only organization administrators" in nina_in_engineering.title
        assert not cells[(104, 13)].disabled, "a member cannot leave a stream themselves"
        assert not cells[(202, 11)].disabled, "a bot's owner cannot remove their bot"
        click_cell(ui, 105, 11)
        ui.wait_nothing_pending()
        ui.screenshot("memberships-member")

    def test_a_member_applies_to_the_headless_server(self, ui: Ui):
        e2e = ui.e2e
        # Mark leaves Verona and Café (one DELETE); Nina and Mona join Empty Room (one POST).
        for user, stream in [(104, 13), (104, 15), (105, 14), (103, 14)]:
            click_cell(ui, user, stream)
        ui.wait_text("pending-count", "4")
        ui.wait_text("planned-requests", "2 requests")
        # A member's grid: staged cells next to disabled ones (others' memberships).
        axe_themes(ui.driver, "memberships (a member's view), staged and disabled cells")
        apply_and_wait(ui, "Applied 4 changes in 2 requests.")
        mine = {s["name"] for s in api_get(e2e, "users/me/subscriptions")["subscriptions"]}
        assert mine == {"Engineering", "Secret Plans"}, mine
        members = set(api_get(e2e, "streams/14/members")["subscribers"])
        assert members == {103, 105}, members
        ui.wait_nothing_pending()

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
