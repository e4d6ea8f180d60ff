"""The Channels page (issue 37): channels × Zulip's channel permission settings.

As the demo's owner, on the app's local server (its key read from the server's database:
the demo keeps none in the keyring): one setting (who can remove subscribers)
set on three channels in one staged step, through the cell editor with the three channels
selected; the promised request count (3, one `PATCH /streams/{id}` per channel) equal to
the count sent; the result read back with the server's own `GET /streams`; undo staged
from the journal, applied, and the server back where it started. Then the member of the
headless server: every cell disabled with the reason (seeded channels are administered by
nobody), no editor opening, and the page axe-clean in both themes. Ends on the demo.
"""

from __future__ import annotations

import base64
import json
import re
import sqlite3
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from a11y import axe_themes
from conftest import E2EEnv
from test_app import DEMO_LABEL, DEMO_REALM, Ui, apply_and_wait, content, is_active

SETTING = "can_remove_subscribers_group"

# What the steps learn and later steps check.
flow: dict[str, object] = {}


def local_account(ui: Ui) -> tuple[str, str, str]:
    """The local server's URL, and the demo account's e-mail and key. The demo keeps no key
    in the keyring (its server holds it): it is read from the server's database, for the
    user the Accounts page shows on the demo's row."""
    ui.go("local-server")
    url = ui.text_of("local-server-url")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url), url
    database = Path(ui.text_of("local-server-data-dir")) / "weir.sqlite3"
    ui.go("accounts")
    demo = [content(row) for row in ui.account_rows() if DEMO_LABEL in content(row)]
    assert len(demo) == 1, demo
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        users = db.execute("SELECT email, api_key FROM users WHERE is_active = 1").fetchall()
    # The row shows the account's e-mail (the longest match: no shorter address inside it).
    mine = sorted(((e, k) for e, k in users if e in demo[0]), key=lambda u: -len(u[0]))
    assert mine, (demo, [email for email, _ in users])
    return url, mine[0][0], mine[0][1]


def local_streams(account: tuple[str, str, str]) -> dict[int, dict]:
    """`GET /streams` on the local server as the demo's owner, by stream id."""
    url, email, key = account
    request = urllib.request.Request(f"{url}/api/v1/streams")
    token = base64.b64encode(f"{email}:{key}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    return {s["stream_id"]: s for s in answer["streams"]}


def channel_rows(ui: Ui) -> list[int]:
    return [
        int((row.get_attribute("data-testid") or "").removeprefix("channel-row-"))
        for row in ui.driver.find_elements(By.CSS_SELECTOR, '[data-testid^="channel-row-"]')
    ]


def open_channels(ui: Ui) -> list[int]:
    ui.go("channels")
    return ui.wait(lambda d: channel_rows(ui), "the channels' rows")


def switch_to(ui: Ui, label: str) -> None:
    """Makes the account whose row shows `label` the active one, from the Accounts page."""
    ui.go("accounts")
    rows = [row for row in ui.account_rows() if label in content(row)]
    assert len(rows) == 1, [content(r) for r in ui.account_rows()]
    if not is_active(rows[0]):
        ui.all("account-switch", within=rows[0])[0].click()
    ui.wait(
        lambda d: any(is_active(r) and label in content(r) for r in ui.account_rows()),
        f"{label} to be the active account",
    )


@pytest.fixture
def ui(driver, e2e: E2EEnv) -> Ui:
    return Ui(driver, e2e)


@pytest.mark.incremental
class TestChannels:
    def test_an_owner_sets_one_setting_on_three_channels_in_one_step(self, ui: Ui):
        account = local_account(ui)
        flow["account"] = account
        before = local_streams(account)
        shown = open_channels(ui)
        public = sorted(s for s in shown if s in before and not before[s]["invite_only"])
        assert len(public) >= 3, public
        three = public[:3]
        flow["three"] = three
        flow["before"] = {s: before[s][SETTING] for s in three}
        for stream in three:
            ui.one(f"channel-select-{stream}").click()
        ui.one(f"chcell-{three[0]}-{SETTING}").click()
        editor = Select(ui.one("chcell-editor"))
        values = [o.get_attribute("value") for o in editor.options if o.is_enabled()]
        assert values and all(v.isdigit() for v in values), values
        # A group none of the three names now.
        target = next(int(v) for v in values if all(before[s][SETTING] != int(v) for s in three))
        flow["target"] = target
        editor.select_by_value(str(target))
        ui.wait_text("pending-count", "3")
        ui.wait_text("planned-requests", "3 requests")
        for stream in three:
            cell = ui.one(f"chcell-{stream}-{SETTING}")
            assert cell.get_attribute("data-staged") == "true", stream
        ui.screenshot("channels-staged")
        apply_and_wait(ui, "Applied 3 changes in 3 requests.")
        after = local_streams(account)
        assert {s: after[s][SETTING] for s in three} == {s: target for s in three}
        # Nothing else moved.
        for stream, value in before.items():
            if stream not in three:
                assert after[stream][SETTING] == value[SETTING], stream
        ui.wait(
            lambda d: all(
                ui.one(f"chcell-{s}-{SETTING}").get_attribute("data-staged") == "false"
                for s in three
            ),
            "the reloaded table",
        )
        ui.assert_no_error()

    def test_undo_sets_the_three_channels_back(self, ui: Ui):
        undo = ui.one("undo-last-apply")
        undo.send_keys(Keys.ENTER)
        ui.wait_text("pending-count", "3")
        apply_and_wait(ui, "Applied 3 changes in 3 requests.")
        after = local_streams(flow["account"])  # type: ignore[arg-type]
        three: list[int] = flow["three"]  # type: ignore[assignment]
        assert {s: after[s][SETTING] for s in three} == flow["before"]
        ui.assert_no_error()

    def test_a_member_sees_settings_they_may_not_change(self, ui: Ui):
        switch_to(ui, ui.e2e.email)
        shown = open_channels(ui)
        cells = ui.driver.find_elements(By.CSS_SELECTOR, '[data-testid^="chcell-"]')
        assert cells, "no cells"
        enabled = [
            c.get_attribute("data-testid")
            for c in cells
            if c.get_attribute("aria-disabled") != "true"
        ]
        assert not enabled, enabled
        cell = ui.one(f"chcell-{shown[0]}-{SETTING}")
        reason = cell.get_attribute("title") or ""
        assert reason, "a disabled cell says why"
        assert reason in (cell.get_attribute("aria-label") or "")
        cell.click()
        assert not ui.all("chcell-editor"), "a disabled cell opened its editor"
        axe_themes(ui.driver, "channels (a member's view), disabled cells")
        ui.screenshot("channels-member")
        ui.assert_no_error()

    def test_switch_back_to_the_demo(self, ui: Ui):
        switch_to(ui, DEMO_LABEL)
        ui.wait(
            lambda d: DEMO_REALM in ui.text_of("active-account"),
            "the sidebar to show the demo account",
        )
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.assert_no_error()
