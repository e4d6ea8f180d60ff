"""The memberships grid follows the channels' group settings (issue 37), on the second
account's headless `weir-server`, after `test_groups_second.py`.

The administrator (through the server's API) puts Adam in Launch and Docs and names the
platform team, which the member Mark is in, as Launch's `can_remove_subscribers_group`.
Mark's grid then lets him uncheck Adam in Launch but not in Docs, with the reason on the
disabled cell; the apply removes Adam from Launch, read back with the server's API. The
settings and subscriptions are put back and the demo account is made active again."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import E2EEnv
from test_app import DEMO_LABEL, DEMO_REALM, Ui, apply_and_wait, click_cell, content, grid_cells
from test_groups_second import subscribers, switch_to

PLATFORM = 301
ADMINISTRATORS = 3
LAUNCH, DOCS = 31, 32
ADAM = 102


def admin_call(e2e: E2EEnv, method: str, path: str, form: dict[str, str]) -> dict:
    """A call on the second server with the administrator's key; fails on an error."""
    data = urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(f"{e2e.site}/api/v1/{path}", data=data, method=method)
    token = base64.b64encode(f"{e2e.admin_email}:{e2e.admin_key}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read()!r}")


def set_remove_group(e2e: E2EEnv, stream_id: int, group_id: int) -> None:
    admin_call(
        e2e,
        "PATCH",
        f"streams/{stream_id}",
        {"can_remove_subscribers_group": json.dumps({"new": group_id})},
    )


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


@pytest.mark.incremental
class TestTheGridFollowsChannelSettings:
    def test_a_remove_group_lets_its_member_uncheck_others_in_that_channel_only(self, ui: Ui):
        e2e = ui.e2e
        admin_call(
            e2e,
            "POST",
            "users/me/subscriptions",
            {
                "subscriptions": json.dumps([{"name": "Launch"}, {"name": "Docs"}]),
                "principals": json.dumps([ADAM]),
            },
        )
        set_remove_group(e2e, LAUNCH, PLATFORM)
        switch_to(ui, e2e.email)
        ui.go("memberships")
        ui.wait_text("realm-name", e2e.realm)
        ui.wait(
            lambda d: (ADAM, LAUNCH) in grid_cells(ui) and (ADAM, DOCS) in grid_cells(ui),
            "Adam's cells in Launch and Docs",
        )
        cells = grid_cells(ui)
        in_launch, in_docs = cells[(ADAM, LAUNCH)], cells[(ADAM, DOCS)]
        assert in_launch.checked and not in_launch.disabled, in_launch.title
        assert in_docs.checked and in_docs.disabled
        assert "Only organization administrators" in in_docs.title, in_docs.title
        click_cell(ui, ADAM, DOCS)
        ui.wait_nothing_pending()
        click_cell(ui, ADAM, LAUNCH)
        ui.wait(lambda d: ui.pending_count() == 1, "one change to be pending")
        ui.screenshot("memberships-remove-group")
        apply_and_wait(ui, "Applied 1 change in 1 request.")
        assert ADAM not in subscribers(e2e, LAUNCH)
        assert ADAM in subscribers(e2e, DOCS)
        ui.assert_no_error()

    def test_put_back_and_switch_to_the_demo(self, ui: Ui):
        e2e = ui.e2e
        set_remove_group(e2e, LAUNCH, ADMINISTRATORS)
        admin_call(
            e2e,
            "DELETE",
            "users/me/subscriptions",
            {"subscriptions": json.dumps(["Docs"]), "principals": json.dumps([ADAM])},
        )
        assert ADAM not in subscribers(e2e, DOCS)
        ui.go("accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, [content(r) for r in ui.account_rows()]
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(
            lambda d: DEMO_REALM in ui.text_of("active-account"),
            "the sidebar to show the demo account",
        )
        ui.assert_no_error()
