"""The groups page on the embedded demo (issue 22): people × groups, staged cells with the
planned request count, apply (one request per group), then undo restores the server's
state exactly, checked on the page after a reload; a CSV export whose edit, imported,
stages exactly that edit; a group created from selected people; members through a
subgroup shown "via <subgroup>", and a subgroup removed from the group's panel, applied
and undone (issue 38). Runs after `test_groups.py`, on the demo account."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_app import Ui, content, export_csv, import_csv

# Two demo teams, neither a system group (the owner may change both).
GROUPS = ("on-call", "backend")
NEW_GROUP = "e2e-reviewers"

flow: dict[str, object] = {}


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


def focus_and_press(ui: Ui, element, key: str = Keys.SPACE) -> None:
    """Focuses the element (scrolled into the grid's view) and presses `key`: cells are
    driven from the keyboard (WebKitWebDriver calls small cells not pointer-interactable)."""
    ui.driver.execute_script(
        "arguments[0].scrollIntoView({block: 'nearest', inline: 'nearest'});"
        "arguments[0].focus();",
        element,
    )
    ui.wait(
        lambda d: d.execute_script("return document.activeElement === arguments[0];", element),
        "the element to take focus",
    )
    ActionChains(ui.driver).send_keys(key).perform()


def column(ui: Ui, name: str):
    return ui.wait(
        lambda d: next(
            iter(d.find_elements(By.CSS_SELECTOR, f'.colbtn[data-group-name="{name}"]')), False
        ),
        f"the {name} column",
    )


def direct_members(ui: Ui, name: str) -> set[int]:
    """The group's direct members as the page lists them (its column's detail panel)."""
    button = column(ui, name)
    group_id = int(button.get_attribute("data-group-id") or 0)
    if button.get_attribute("aria-expanded") != "true":
        focus_and_press(ui, button, Keys.ENTER)
    panel = ui.one(f"group-members-of-{group_id}")
    return {
        int(li.get_attribute("data-user-id") or 0)
        for li in panel.find_elements(By.CSS_SELECTOR, "li[data-user-id]")
    }


def cells(ui: Ui, group_id: int) -> dict[int, object]:
    """The group's rendered, enabled cells by user id."""
    prefix = "gcell-"
    out = {}
    for e in ui.driver.find_elements(By.CSS_SELECTOR, f'[data-testid^="{prefix}"]'):
        user, group = (e.get_attribute("data-testid") or "")[len(prefix) :].split("-")
        if int(group) == group_id and e.get_attribute("aria-disabled") is None:
            out[int(user)] = e
    return out


def apply_and_wait(ui: Ui, expected: str) -> str:
    ui.one("gapply-changes").click()
    ui.wait(
        lambda d: any(expected in (e.text or "") for e in ui.all("gapply-status")),
        f"the apply status to say {expected!r}",
    )
    ui.wait_text("gpending-count", "0")
    return ui.text_of("gapply-status")


@pytest.mark.incremental
class TestGroupsPage:
    def test_the_page_shows_groups_with_members_and_subgroups(self, ui: Ui):
        ui.go("groups")
        ui.wait(
            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid^="gcell-"]'), "the grid"
        )
        ids = {name: int(column(ui, name).get_attribute("data-group-id") or 0) for name in GROUPS}
        flow["ids"] = ids
        flow["before"] = {name: direct_members(ui, name) for name in GROUPS}
        assert len(flow["before"]["on-call"]) == 4, flow["before"]  # type: ignore[index]
        # Engineering lists its subgroups.
        engineering = column(ui, "engineering")
        focus_and_press(ui, engineering, Keys.ENTER)
        panel = ui.one(f"group-members-of-{engineering.get_attribute('data-group-id')}")
        assert len(panel.find_elements(By.CSS_SELECTOR, "li[data-subgroup-id]")) == 2
        ui.assert_no_error()

    def test_add_and_remove_people_in_two_groups_is_two_requests(self, ui: Ui):
        ids: dict[str, int] = flow["ids"]  # type: ignore[assignment]
        before: dict[str, set[int]] = flow["before"]  # type: ignore[assignment]
        on_call = cells(ui, ids["on-call"])
        added = next(u for u, e in on_call.items() if e.get_attribute("aria-checked") == "false")
        removed = next(u for u, e in on_call.items() if e.get_attribute("aria-checked") == "true")
        backend = cells(ui, ids["backend"])
        added2 = next(u for u, e in backend.items() if e.get_attribute("aria-checked") == "false")
        focus_and_press(ui, on_call[added])
        focus_and_press(ui, on_call[removed])
        focus_and_press(ui, backend[added2])
        ui.wait_text("gpending-count", "3")
        ui.wait_text("gplanned-requests", "2 requests")
        status = apply_and_wait(ui, "Applied 3 changes in 2 requests.")
        assert "not applied" not in status, status
        direct_members(ui, "on-call")
        ui.screenshot("groups")
        assert direct_members(ui, "on-call") == (before["on-call"] | {added}) - {removed}
        assert direct_members(ui, "backend") == before["backend"] | {added2}
        ui.assert_no_error()

    def test_undo_restores_the_servers_state_exactly(self, ui: Ui):
        before: dict[str, set[int]] = flow["before"]  # type: ignore[assignment]
        ui.one("gundo").click()
        ui.wait_text("gpending-count", "3")
        ui.wait_text("gplanned-requests", "2 requests")
        apply_and_wait(ui, "Applied 3 changes in 2 requests.")
        # The page after a reload reads the server afresh.
        ui.driver.refresh()
        ui.wait(
            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid^="gcell-"]'),
            "the grid after the reload",
        )
        for name in GROUPS:
            assert direct_members(ui, name) == before[name], name
        ui.assert_no_error()

    def test_csv_export_then_import_of_an_edit_stages_exactly_the_edit(self, ui: Ui):
        ids: dict[str, int] = flow["ids"]  # type: ignore[assignment]
        before: dict[str, set[int]] = flow["before"]  # type: ignore[assignment]
        path, rows = export_csv(ui, "groups.csv")
        header = rows[0]
        on_call, backend = header.index("on-call"), header.index("backend")
        exported = {int(r[0]): r for r in rows[1:]}
        # The export says what the server says.
        assert {u for u, r in exported.items() if r[on_call] == "1"} == before["on-call"]
        assert {u for u, r in exported.items() if r[backend] == "1"} == before["backend"]
        # One member leaves on-call, one person joins backend.
        enabled = cells(ui, ids["backend"])
        leaving = min(before["on-call"])
        joining = min(u for u in exported if u not in before["backend"] and u in enabled)
        exported[leaving][on_call] = ""
        exported[joining][backend] = "1"
        import_csv(ui, path, rows, "Staged 2 changes")
        ui.wait_text("gpending-count", "2")
        ui.wait_text("gplanned-requests", "2 requests")
        staged = {
            e.get_attribute("data-testid"): e.get_attribute("aria-checked")
            for e in ui.driver.find_elements(By.CSS_SELECTOR, '[data-staged="true"]')
        }
        assert staged == {
            f"gcell-{leaving}-{ids['on-call']}": "false",
            f"gcell-{joining}-{ids['backend']}": "true",
        }, staged
        # Reviewed, not sent: discarding leaves the server as it was.
        ui.driver.find_element(By.XPATH, "//button[normalize-space()='Discard all']").click()
        ui.wait_text("gpending-count", "0")
        for name in GROUPS:
            assert direct_members(ui, name) == before[name], name
        ui.assert_no_error()

    def test_create_a_group_from_selected_people(self, ui: Ui):
        boxes = ui.driver.find_elements(
            By.CSS_SELECTOR, '[role="rowheader"] input[type="checkbox"]'
        )[:2]
        for box in boxes:
            focus_and_press(ui, box)
        ui.one("group-name").send_keys(NEW_GROUP)
        ui.one("group-description").send_keys("Made by the e2e test")
        ui.wait(lambda d: "with 2 people" in ui.one("create-group").text, "two people picked")
        ui.one("create-group").click()
        ui.wait(lambda d: ui.all("group-created"), "the group to be created")
        assert len(direct_members(ui, NEW_GROUP)) == 2
        ui.assert_no_error()

    def test_members_through_a_subgroup_show_via_and_a_subgroup_edit_applies(self, ui: Ui):
        engineering = column(ui, "engineering")
        group_id = int(engineering.get_attribute("data-group-id") or 0)
        backend = int(column(ui, "backend").get_attribute("data-group-id") or 0)
        frontend = int(column(ui, "frontend").get_attribute("data-group-id") or 0)
        # Backend's members are in engineering through backend: dimmed, not editable there.
        via = [
            e
            for e in ui.driver.find_elements(By.CSS_SELECTOR, "[data-via]")
            if (e.get_attribute("data-testid") or "").endswith(f"-{group_id}")
        ]
        assert via, "no member of engineering is shown through a subgroup"
        by_backend = [e for e in via if e.get_attribute("data-via") == str(backend)]
        assert by_backend and content(by_backend[0]) == "via backend", [content(e) for e in via]
        assert by_backend[0].get_attribute("aria-disabled") == "true"
        focus_and_press(ui, by_backend[0])
        ui.wait_text("gpending-count", "0")
        through_frontend = {
            (e.get_attribute("data-testid") or "")
            for e in via
            if e.get_attribute("data-via") == str(frontend)
        }
        assert through_frontend, "nobody is in engineering through frontend"

        # Frontend leaves engineering's subgroups: staged, its members no longer via.
        if engineering.get_attribute("aria-expanded") != "true":
            focus_and_press(ui, engineering, Keys.ENTER)
        focus_and_press(ui, ui.one(f"subgroup-remove-{frontend}"), Keys.ENTER)
        ui.wait_text("gpending-count", "1")
        ui.wait_text("gplanned-requests", "1 request")
        staged_via = {
            e.get_attribute("data-testid")
            for e in ui.driver.find_elements(By.CSS_SELECTOR, f'[data-via="{frontend}"]')
        }
        assert not (staged_via & through_frontend), staged_via & through_frontend
        ui.screenshot("groups-subgroup-staged")
        apply_and_wait(ui, "Applied 1 change in 1 request.")
        panel = ui.one(f"group-members-of-{group_id}")
        listed = {
            int(li.get_attribute("data-subgroup-id") or 0)
            for li in panel.find_elements(By.CSS_SELECTOR, "li[data-subgroup-id]")
        }
        assert listed == {backend}, listed

        # Undo stages frontend back; applied, engineering has both subgroups again.
        ui.one("gundo").click()
        ui.wait_text("gpending-count", "1")
        apply_and_wait(ui, "Applied 1 change in 1 request.")
        ui.wait(
            lambda d: {
                int(li.get_attribute("data-subgroup-id") or 0)
                for li in ui.one(f"group-members-of-{group_id}").find_elements(
                    By.CSS_SELECTOR, "li[data-subgroup-id]"
                )
            }
            == {backend, frontend},
            "both subgroups back",
        )
        ui.wait(
            lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-via="{frontend}"]'),
            "members via frontend again",
        )
        ui.assert_no_error()
