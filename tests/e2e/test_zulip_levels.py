"""The grid and the Channels page on servers at Zulip 11's level (421) and at 362 (issue 40).

`tests/tests/process/e2e.rs` starts two more headless `weir-server`s with the standard
organization, at `--feature-level 421` (Zulip 11.0) and `--feature-level 362` (the
Zulip 10 development level weir-server reported before), and writes a zuliprc of their
administrator (Adam) for each (`WEIR_E2E_LEVEL_SERVERS`). For each level, in the same app
session: the administrator is imported (the plaintext zuliprc deleted); on the
Memberships grid Mark leaves Verona and Café and Nina and Mona join Empty Room (4 changes
in 2 requests), checked with that server's own API; the Channels page shows exactly the
channel settings the server lists in `register`'s `server_supported_permission_settings`
(Zulip 11's ten at 421, Zulip 10's five at 362), none read-only (the server's
`PATCH /streams/{id}` changes each of them at its level), and one setting changed on
Empty Room reaches the server (`GET /streams`). Each level ends on the demo account.
"""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import E2EEnv
from test_app import DEMO_LABEL, DEMO_REALM, Ui, apply_and_wait, click_cell, content, grid_cells, is_active

VERONA, EMPTY_ROOM, CAFE = 13, 14, 15
MONA, MARK, NINA = 103, 104, 105

# Zulip 10's five channel settings that name groups (all there at 362), and the five
# Zulip 11 added by 421 (396, 402, 407).
ZULIP_10_SETTINGS = {
    "can_add_subscribers_group",
    "can_administer_channel_group",
    "can_remove_subscribers_group",
    "can_send_message_group",
    "can_subscribe_group",
}
ZULIP_11_SETTINGS = {
    "can_move_messages_out_of_channel_group",
    "can_move_messages_within_channel_group",
    "can_resolve_topics_group",
    "can_delete_any_message_group",
    "can_delete_own_message_group",
}


@dataclass(frozen=True)
class LevelServer:
    level: int
    site: str
    zuliprc: Path
    email: str
    key: str

    def call(self, method: str, path: str, form: dict[str, str] | None = None) -> dict:
        """The administrator's request to this server; its JSON answer."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(f"{self.site}/api/v1/{path}", data=data, method=method)
        token = base64.b64encode(f"{self.email}:{self.key}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def members(self, stream_id: int) -> set[int]:
        return set(self.call("GET", f"streams/{stream_id}/members")["subscribers"])

    def stream(self, stream_id: int) -> dict:
        streams = self.call("GET", "streams")["streams"]
        return next(s for s in streams if s["stream_id"] == stream_id)

    def supported_channel_settings(self) -> set[str]:
        """The channel settings `register` lists in `server_supported_permission_settings`."""
        answer = self.call(
            "POST",
            "register",
            {"fetch_event_types": json.dumps(["realm"]), "event_types": json.dumps(["realm"])},
        )
        return set(answer["server_supported_permission_settings"]["stream"])


def level_server(level: int) -> LevelServer:
    raw = os.environ.get("WEIR_E2E_LEVEL_SERVERS", "")
    if not raw:
        pytest.fail("WEIR_E2E_LEVEL_SERVERS is not set (tests/tests/process/e2e.rs sets it)")
    entry = json.loads(raw)[str(level)]
    return LevelServer(level, entry["site"], Path(entry["zuliprc"]), entry["email"], entry["key"])


def shows_site(row, site: str) -> bool:
    """Whether an account row names this site (and not a longer port that starts alike)."""
    return re.search(re.escape(site) + r"(?!\d)", content(row)) is not None


def channel_settings_shown(ui: Ui, stream_id: int) -> list[str]:
    prefix = f"chcell-{stream_id}-"
    return [
        (cell.get_attribute("data-testid") or "").removeprefix(prefix)
        for cell in ui.driver.find_elements(By.CSS_SELECTOR, f'[data-testid^="{prefix}"]')
    ]


class LevelSteps:
    """The steps at one level; subclasses name it and the setting they change."""

    LEVEL = 0
    SETTING = ""
    EXPECTED: set[str] = set()

    @pytest.fixture
    def ui(self, driver, e2e: E2EEnv) -> Ui:
        return Ui(driver, e2e)

    @pytest.fixture
    def server(self) -> LevelServer:
        return level_server(self.LEVEL)

    def test_the_server_answers_at_its_level(self, server: LevelServer):
        settings = server.call("GET", "server_settings")
        assert settings["zulip_feature_level"] == self.LEVEL, settings
        assert server.supported_channel_settings() == self.EXPECTED

    def test_import_its_administrator(self, ui: Ui, server: LevelServer):
        ui.go("accounts")
        before = len(ui.account_rows())
        field = ui.one("zuliprc-path")
        field.clear()
        field.send_keys(str(server.zuliprc))
        ui.wait(
            lambda d: field.get_attribute("value") == str(server.zuliprc),
            "the path to be typed",
        )
        ui.one("zuliprc-import").click()
        ui.wait(lambda d: len(ui.account_rows()) == before + 1, f"the account at {server.level}")
        ui.wait(
            lambda d: any(is_active(r) and shows_site(r, server.site) for r in ui.account_rows()),
            f"the administrator at level {server.level} to be the active account",
        )
        ui.one("zuliprc-delete").click()
        ui.wait(lambda d: not server.zuliprc.exists(), "the zuliprc to be deleted")
        ui.assert_no_error()

    def test_the_grid_applies_to_the_server(self, ui: Ui, server: LevelServer):
        ui.go("memberships")
        ui.wait_text("realm-name", ui.e2e.realm)
        ui.wait(lambda d: (MARK, VERONA) in grid_cells(ui), "the administrator's grid")
        cells = grid_cells(ui)
        assert cells[(MARK, VERONA)].checked and cells[(MARK, CAFE)].checked
        assert not cells[(NINA, EMPTY_ROOM)].checked and not cells[(MONA, EMPTY_ROOM)].checked
        changes = [(MARK, VERONA), (MARK, CAFE), (NINA, EMPTY_ROOM), (MONA, EMPTY_ROOM)]
        assert not any(cells[key].disabled for key in changes), [cells[k].title for k in changes]
        for user, stream in changes:
            click_cell(ui, user, stream)
        ui.wait_text("pending-count", "4")
        ui.wait_text("planned-requests", "2 requests")
        apply_and_wait(ui, "Applied 4 changes in 2 requests.")
        assert server.members(EMPTY_ROOM) == {MONA, NINA}
        assert server.members(CAFE) == set()
        assert MARK not in server.members(VERONA)
        ui.wait(
            lambda d: not grid_cells(ui)[(MARK, VERONA)].checked,
            "the grid to show the server's new state",
        )
        ui.wait_nothing_pending()
        ui.assert_no_error()

    def test_the_channels_page_shows_the_servers_settings(self, ui: Ui, server: LevelServer):
        ui.go("channels")
        ui.wait(lambda d: ui.all(f"chcell-{EMPTY_ROOM}-{self.SETTING}"), "Empty Room's cells")
        row = ui.one(f"channel-row-{EMPTY_ROOM}")
        assert "Empty Room" in content(row), content(row)
        shown = channel_settings_shown(ui, EMPTY_ROOM)
        assert len(shown) == len(set(shown)) and set(shown) == self.EXPECTED, shown
        # None read-only: each column's heading is its name, not a reason.
        headings = ui.driver.find_elements(By.CSS_SELECTOR, '[data-testid="channels-grid"] .colhead')
        assert [h.get_attribute("title") for h in headings] == shown
        # The administrator may change every setting of a public channel.
        for name in shown:
            cell = ui.one(f"chcell-{EMPTY_ROOM}-{name}")
            assert cell.get_attribute("aria-disabled") != "true", (name, cell.get_attribute("title"))
        ui.screenshot(f"channels-level-{server.level}")
        ui.assert_no_error()

    def test_a_setting_change_reaches_the_server(self, ui: Ui, server: LevelServer):
        before = server.stream(EMPTY_ROOM)[self.SETTING]
        ui.one(f"chcell-{EMPTY_ROOM}-{self.SETTING}").click()
        editor = Select(ui.one("chcell-editor"))
        values = [o.get_attribute("value") for o in editor.options if o.is_enabled()]
        assert values and all(v.isdigit() for v in values), values
        target = next(int(v) for v in values if int(v) != before)
        editor.select_by_value(str(target))
        ui.wait_text("pending-count", "1")
        ui.wait_text("planned-requests", "1 request")
        apply_and_wait(ui, "Applied 1 change in 1 request.")
        after = server.stream(EMPTY_ROOM)
        assert after[self.SETTING] == target, (before, after[self.SETTING])
        ui.wait(
            lambda d: ui.one(f"chcell-{EMPTY_ROOM}-{self.SETTING}").get_attribute("data-staged")
            == "false",
            "the reloaded table",
        )
        ui.assert_no_error()

    def test_switch_back_to_the_demo(self, ui: Ui):
        ui.go("accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, [content(r) for r in ui.account_rows()]
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(lambda d: DEMO_REALM in ui.text_of("active-account"), "the demo to be active")
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.assert_no_error()


@pytest.mark.incremental
class TestZulip11At421(LevelSteps):
    LEVEL = 421
    # A setting Zulip 11 added (402).
    SETTING = "can_resolve_topics_group"
    EXPECTED = ZULIP_10_SETTINGS | ZULIP_11_SETTINGS


@pytest.mark.incremental
class TestZulip10At362(LevelSteps):
    LEVEL = 362
    SETTING = "can_remove_subscribers_group"
    EXPECTED = ZULIP_10_SETTINGS
