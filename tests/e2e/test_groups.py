"""User groups on the memberships grid, on the embedded demo (issue 22): a group row
subscribed to three channels is one request; syncing a channel with a group stages exactly
the difference and applies it in at most two requests, and undo restores the channel.
Runs after `test_app.py`, on the demo account."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_app import DEMO_REALM, Ui, apply_and_wait, grid_cells

# A demo team of four (Dmitri, Gustavo, Oscar, Priya), none of them the signed-in owner.
GROUP = "on-call"

flow: dict[str, object] = {}


def group_cells(ui: Ui, group_id: int) -> dict[int, str]:
    """The group row's cells by stream id: `aria-checked` (true, false or mixed)."""
    prefix = f"group-cell-{group_id}-"
    return {
        int((e.get_attribute("data-testid") or "")[len(prefix) :]): e.get_attribute("aria-checked")
        or ""
        for e in ui.driver.find_elements(By.CSS_SELECTOR, f'[data-testid^="{prefix}"]')
    }


def subscriber_count(ui: Ui, stream_id: int) -> int:
    """The server's count, from the channel's sync button in the grid's group rows."""
    button = ui.driver.find_element(By.CSS_SELECTOR, f'[data-testid="sync-channel-{stream_id}"]')
    return int(button.get_attribute("data-subscribers") or -1)


def press(ui: Ui, testid: str, key: str = Keys.SPACE) -> None:
    """Focuses the element (scrolled into the grid's view) and presses `key`: the grid's
    group rows are driven from the keyboard, as their cells are made to be (WebKitWebDriver
    calls the small cells not interactable for a pointer click)."""
    element = ui.one(testid)
    ui.driver.execute_script(
        "arguments[0].scrollIntoView({block: 'nearest', inline: 'center'});"
        "arguments[0].focus();",
        element,
    )
    ui.wait(
        lambda d: d.execute_script("return document.activeElement === arguments[0];", element),
        f"{testid} to take focus",
    )
    ActionChains(ui.driver).send_keys(key).perform()


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


@pytest.mark.incremental
class TestGroups:
    def test_filter_by_group_shows_the_group_row(self, ui: Ui):
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.wait(lambda d: len(grid_cells(ui)) > 0, "the memberships grid")
        select = Select(ui.one("filter-group"))
        select.select_by_visible_text(GROUP)
        group_id = int(select.first_selected_option.get_attribute("value") or 0)
        ui.one(f"group-row-{group_id}")
        members = sorted({user for (user, _) in grid_cells(ui)})
        assert len(members) == 4, f"the grid shows {members} for {GROUP}, expected its 4 members"
        flow["group"] = group_id
        flow["members"] = members
        ui.screenshot("memberships-by-group")

    def test_a_group_row_subscribed_to_three_channels_is_one_request(self, ui: Ui):
        group_id = int(flow["group"])  # type: ignore[arg-type]
        states = group_cells(ui, group_id)
        # Channels none of the team is in first, then those some are in.
        chosen = sorted(states, key=lambda s: (states[s] != "false", s))[:3]
        assert len(chosen) == 3 and all(states[s] != "true" for s in chosen), states
        for stream in chosen:
            press(ui, f"group-cell-{group_id}-{stream}")
        for stream in chosen:
            assert ui.one(f"group-cell-{group_id}-{stream}").get_attribute("aria-checked") == "true"
        ui.wait_text("planned-requests", "1 request")
        apply_and_wait(ui, "in 1 request.")
        ui.wait(
            lambda d: all(group_cells(ui, group_id).get(s) == "true" for s in chosen)
            and ui.pending_count() == 0,
            "the three channels to show the whole team subscribed",
        )
        flow["subscribed"] = chosen

    def test_sync_stages_exactly_the_difference_and_applies_in_two_requests(self, ui: Ui):
        group_id = int(flow["group"])  # type: ignore[arg-type]
        members = flow["members"]  # type: ignore[assignment]
        done = set(flow["subscribed"])  # type: ignore[arg-type]
        cells = grid_cells(ui)
        states = group_cells(ui, group_id)
        # A channel with subscribers outside the team, not one of the three just synced.
        candidates = [s for s in states if s not in done]
        stream = None
        for s in sorted(candidates, key=lambda s: (states[s] != "mixed", s)):
            # The grid renders the columns in view: count the team's subscriptions there,
            # or know them from the group cell.
            if all((user, s) in cells for user in members):
                inside = sum(1 for user in members if cells[(user, s)].checked)
            elif states[s] == "false":
                inside = 0
            else:
                continue
            if subscriber_count(ui, s) > inside:
                stream, before, inside_before = s, subscriber_count(ui, s), inside
                break
        assert stream is not None, "no channel with subscribers outside the team"
        expected = (len(members) - inside_before) + (before - inside_before)

        press(ui, f"sync-channel-{stream}", Keys.ENTER)
        Select(ui.one("sync-group")).select_by_value(str(group_id))
        keep = ui.one("sync-keep-others")
        if keep.is_selected():
            keep.click()
        ui.one("sync-stage").click()
        ui.wait_text("pending-count", str(expected))
        planned = ui.text_of("planned-requests")
        assert planned in ("1 request", "2 requests"), planned
        ui.screenshot("memberships-sync-staged")
        apply_and_wait(ui, f"Applied {expected} change")
        assert planned in ui.text_of("apply-status"), "the apply sent another number of requests"
        ui.wait(
            lambda d: subscriber_count(ui, stream) == len(members)
            and group_cells(ui, group_id).get(stream) == "true",
            "the channel's subscribers to be the team",
        )
        flow["synced"] = (stream, before, expected)

    def test_undo_restores_the_channel(self, ui: Ui):
        stream, before, expected = flow["synced"]  # type: ignore[misc]
        ui.one("undo-last-apply").click()
        ui.wait_text("pending-count", str(expected))
        apply_and_wait(ui, f"Applied {expected} change")
        ui.wait(lambda d: subscriber_count(ui, stream) == before, "the channel restored")
        Select(ui.one("filter-group")).select_by_value("")
        ui.wait(lambda d: not ui.all(f"group-row-{flow['group']}"), "the group row to go")
        ui.assert_no_error()
