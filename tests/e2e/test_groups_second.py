"""User groups on the second account: the headless `weir-server` imported into the app
(issue 22), after `test_app.py` imported its member and the demo steps ran.

First the member's view of groups they cannot manage: on the Groups page the cells of
teams managed by others (and of system groups) are disabled with the reason, those of the
team they manage are not; on the grid a group row's cell is disabled where it would only
remove other people. Then an administrator of the same server, imported from a zuliprc of
their own: a team only owners manage is disabled for them, as the server refuses it; a
group row subscribed to three channels is one request, and syncing a channel with a group
stages exactly the difference and applies it in at most two requests. Every result is
read back with the server's own API. Ends on the demo account.

The teams (seeded by `tests/tests/process/e2e.rs`): platform (301: Olivia, Mark, Nina),
support (302: Adam, Mona, Nina), reviewers (303: Mark, who manages it); Launch, Docs and
Releases (31-33) are public channels nobody is in."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import E2EEnv
from test_app import DEMO_LABEL, DEMO_REALM, Ui, apply_and_wait, content, is_active
from test_groups import group_cells, press
from test_groups_page import cells as group_page_cells
from test_groups_page import focus_and_press

PLATFORM, SUPPORT, REVIEWERS = 301, 302, 303
NEW_CHANNELS = (31, 32, 33)
VERONA = 13
ADAM, MONA, MARK, NINA = 102, 103, 104, 105
PLATFORM_MEMBERS = {101, MARK, NINA}

CANNOT_ADD = "Only the group's managers and those who manage all groups can add members."
CANNOT_REMOVE = "Only the group's managers and those who manage all groups can remove members."


def server_get(e2e: E2EEnv, path: str, admin: bool = False) -> dict:
    """A GET on the second server with the member's (or the administrator's) key."""
    email, key = (e2e.admin_email, e2e.admin_key) if admin else (e2e.email, e2e.key)
    request = urllib.request.Request(f"{e2e.site}/api/v1/{path}")
    token = base64.b64encode(f"{email}:{key}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def admin_post(e2e: E2EEnv, path: str, form: dict[str, str]) -> tuple[int, dict]:
    """A POST on the second server with the administrator's key: (status, answer)."""
    data = urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(f"{e2e.site}/api/v1/{path}", data=data, method="POST")
    token = base64.b64encode(f"{e2e.admin_email}:{e2e.admin_key}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def subscribers(e2e: E2EEnv, stream_id: int) -> set[int]:
    return set(server_get(e2e, f"streams/{stream_id}/members", admin=True)["subscribers"])


def group_members(e2e: E2EEnv, group_id: int) -> set[int]:
    return set(server_get(e2e, f"user_groups/{group_id}/members")["members"])


def switch_to(ui: Ui, email: str) -> None:
    """Makes the account with this e-mail the active one, from the Accounts page."""
    ui.go("accounts")
    rows = [row for row in ui.account_rows() if email in content(row)]
    assert len(rows) == 1, [content(r) for r in ui.account_rows()]
    if not is_active(rows[0]):
        ui.all("account-switch", within=rows[0])[0].click()
    ui.wait(
        lambda d: any(is_active(r) and email in content(r) for r in ui.account_rows()),
        f"{email} to be the active account",
    )


def show_group_row(ui: Ui, group_id: int) -> None:
    ui.go("memberships")
    ui.wait_text("realm-name", ui.e2e.realm)
    Select(ui.one("filter-group")).select_by_value(str(group_id))
    ui.one(f"group-row-{group_id}")


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


@pytest.mark.incremental
class TestGroupsOnTheSecondAccount:
    def test_a_member_cannot_change_teams_managed_by_others_on_the_groups_page(self, ui: Ui):
        switch_to(ui, ui.e2e.email)
        ui.go("groups")
        ui.wait(lambda d: ui.all(f"gcell-{MARK}-{REVIEWERS}"), "the member's groups page")
        nina_in_platform = ui.one(f"gcell-{NINA}-{PLATFORM}")
        assert nina_in_platform.get_attribute("aria-checked") == "true"
        assert nina_in_platform.get_attribute("aria-disabled") == "true"
        assert nina_in_platform.get_attribute("title") == CANNOT_REMOVE
        adam_in_platform = ui.one(f"gcell-{ADAM}-{PLATFORM}")
        assert adam_in_platform.get_attribute("aria-disabled") == "true"
        assert adam_in_platform.get_attribute("title") == CANNOT_ADD
        assert CANNOT_ADD in (adam_in_platform.get_attribute("aria-label") or "")
        # System groups follow roles, for everyone.
        members = ui.driver.find_element(
            By.CSS_SELECTOR, '.colbtn[data-group-name="role:members"]'
        ).get_attribute("data-group-id")
        system = ui.one(f"gcell-{MARK}-{members}")
        assert "System groups follow roles" in (system.get_attribute("title") or "")
        # The team Mark manages is his to change.
        assert set(group_page_cells(ui, REVIEWERS)) >= {ADAM, MONA, MARK, NINA}
        focus_and_press(ui, nina_in_platform)
        ui.wait_text("gpending-count", "0")
        ui.screenshot("groups-member")
        assert group_members(ui.e2e, PLATFORM) == PLATFORM_MEMBERS
        ui.assert_no_error()

    def test_a_member_sees_a_group_row_disabled_where_it_would_remove_others(self, ui: Ui):
        show_group_row(ui, SUPPORT)
        # All of support is in Verona: the row's cell would remove Adam, Mona and Nina.
        verona = ui.one(f"group-cell-{SUPPORT}-{VERONA}")
        assert verona.get_attribute("aria-checked") == "true"
        assert verona.get_attribute("aria-disabled") == "true"
        assert "Only organization administrators" in (verona.get_attribute("title") or "")
        press(ui, f"group-cell-{SUPPORT}-{VERONA}")
        # Nothing is staged: the pending bar stays away and the cell keeps its state.
        ui.wait_nothing_pending()
        assert ui.one(f"group-cell-{SUPPORT}-{VERONA}").get_attribute("aria-checked") == "true"
        # Adding the rest of support to a public channel is a member's to do.
        states = group_cells(ui, SUPPORT)
        enabled = [
            s
            for s, state in states.items()
            if state != "true"
            and ui.one(f"group-cell-{SUPPORT}-{s}").get_attribute("aria-disabled") is None
        ]
        assert NEW_CHANNELS[0] in enabled, states
        assert subscribers(ui.e2e, VERONA) >= {ADAM, MONA, NINA}
        ui.assert_no_error()

    def test_import_an_administrator_of_the_same_server(self, ui: Ui):
        e2e = ui.e2e
        ui.go("accounts")
        before = len(ui.account_rows())
        field = ui.one("zuliprc-path")
        field.clear()
        field.send_keys(str(e2e.admin_zuliprc))
        ui.wait(
            lambda d: field.get_attribute("value") == str(e2e.admin_zuliprc),
            "the path to be typed",
        )
        ui.one("zuliprc-import").click()
        ui.wait(lambda d: len(ui.account_rows()) == before + 1, "the administrator's account")
        ui.wait(
            lambda d: any(
                is_active(r) and e2e.admin_email in content(r) for r in ui.account_rows()
            ),
            "the administrator to be the active account",
        )
        # The plaintext key goes too.
        ui.one("zuliprc-delete").click()
        ui.wait(lambda d: not e2e.admin_zuliprc.exists(), "the admin zuliprc to be deleted")
        ui.assert_no_error()

    def test_an_administrator_cannot_change_a_team_only_owners_manage(self, ui: Ui):
        # Zulip 10's `can_manage_all_groups` is owners: the page and the server agree.
        ui.go("groups")
        ui.wait(lambda d: ui.all(f"gcell-{ADAM}-{PLATFORM}"), "the administrator's groups page")
        cell = ui.one(f"gcell-{ADAM}-{PLATFORM}")
        assert cell.get_attribute("aria-disabled") == "true"
        assert cell.get_attribute("title") == CANNOT_ADD
        status, answer = admin_post(
            ui.e2e, f"user_groups/{PLATFORM}/members", {"add": json.dumps([ADAM])}
        )
        assert (status, answer.get("msg")) == (400, "Insufficient permission"), answer
        assert group_members(ui.e2e, PLATFORM) == PLATFORM_MEMBERS

    def test_a_group_row_subscribed_to_three_channels_is_one_request(self, ui: Ui):
        show_group_row(ui, PLATFORM)
        states = group_cells(ui, PLATFORM)
        assert all(states[s] == "false" for s in NEW_CHANNELS), states
        for stream in NEW_CHANNELS:
            press(ui, f"group-cell-{PLATFORM}-{stream}")
        ui.wait_text("pending-count", str(3 * len(PLATFORM_MEMBERS)))
        ui.wait_text("planned-requests", "1 request")
        apply_and_wait(ui, f"Applied {3 * len(PLATFORM_MEMBERS)} changes in 1 request.")
        for stream in NEW_CHANNELS:
            assert subscribers(ui.e2e, stream) == PLATFORM_MEMBERS, stream
        ui.wait(
            lambda d: all(group_cells(ui, PLATFORM).get(s) == "true" for s in NEW_CHANNELS),
            "the three channels to show the whole team",
        )
        ui.assert_no_error()

    def test_sync_stages_exactly_the_difference_and_applies_in_two_requests(self, ui: Ui):
        before = subscribers(ui.e2e, VERONA)
        expected = len(PLATFORM_MEMBERS - before) + len(before - PLATFORM_MEMBERS)
        # Mark joins; Adam, Mona and Gus leave.
        assert expected == 4, before
        press(ui, f"sync-channel-{VERONA}", Keys.ENTER)
        Select(ui.one("sync-group")).select_by_value(str(PLATFORM))
        keep = ui.one("sync-keep-others")
        if keep.is_selected():
            keep.click()
        ui.one("sync-stage").click()
        ui.wait_text("pending-count", str(expected))
        ui.wait_text("planned-requests", "2 requests")
        apply_and_wait(ui, f"Applied {expected} changes in 2 requests.")
        assert subscribers(ui.e2e, VERONA) == PLATFORM_MEMBERS
        ui.wait(
            lambda d: group_cells(ui, PLATFORM).get(VERONA) == "true",
            "Verona to show the whole team",
        )
        Select(ui.one("filter-group")).select_by_value("")
        ui.assert_no_error()

    def test_switch_back_to_the_demo(self, ui: Ui):
        ui.go("accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, [content(r) for r in ui.account_rows()]
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(
            lambda d: DEMO_REALM in ui.text_of("active-account"),
            "the sidebar to show the demo account",
        )
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.assert_no_error()
