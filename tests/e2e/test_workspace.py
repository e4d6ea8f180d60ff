"""The memberships workspace at the window sizes people use (issue 38), on the embedded demo:
the grid fills the window (at least 12 person rows in view at 1024 × 700, 16 at 1280 × 800,
the page scrolled to the top), and the pending bar is in view while a change is staged.
Runs after the other demo steps; leaves the window at the size it found and nothing staged.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from a11y import set_theme
from test_app import Ui, click_cell, content, grid_cells

# (width, height, person rows that must be in view with the page at the top)
SIZES = ((1024, 700, 12), (1280, 800, 16))

# Person rows whose whole header lies in the grid's visible body: below the sticky
# channel headers, above the grid's bottom edge and the window's.
VISIBLE_ROWS = """
const grid = document.querySelector('[data-testid="membership-grid"]');
if (!grid) return null;
const box = grid.getBoundingClientRect();
const head = grid.querySelector('[role="row"][aria-rowindex="1"]').getBoundingClientRect();
const top = Math.max(head.bottom, box.top + grid.clientTop, 0);
const bottom = Math.min(box.top + grid.clientTop + grid.clientHeight, innerHeight);
return [...grid.querySelectorAll('[role="rowheader"]')].filter((h) => {
  const r = h.getBoundingClientRect();
  return r.height > 0 && r.top >= top - 0.5 && r.bottom <= bottom + 0.5 && r.right <= innerWidth;
}).length;
"""

TO_THE_TOP = """
document.querySelector('[data-testid="main"]').scrollTop = 0;
const grid = document.querySelector('[data-testid="membership-grid"]');
grid.scrollTop = 0;
grid.scrollLeft = 0;
"""

flow: dict[str, object] = {}


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


def viewport(ui: Ui) -> tuple[int, int]:
    width, height = ui.driver.execute_script("return [innerWidth, innerHeight];")
    return int(width), int(height)


def resize(ui: Ui, width: int, height: int) -> None:
    """Sizes the window so that its web view is `width` × `height` (a window manager's
    frame, if any, is added to the window's size)."""
    ui.driver.set_window_size(width, height)
    ui.wait(lambda d: viewport(ui) != (0, 0), "the window to be resized")
    inner = viewport(ui)
    if inner != (width, height):
        ui.driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    ui.wait(lambda d: viewport(ui) == (width, height), f"a {width} × {height} view")
    ui.settle()


def rows_in_view(ui: Ui) -> int:
    """Person rows in view once the page and the grid are scrolled to the top and the
    grid's accessible layer has caught up with the scroll (it settles 120 ms after it)."""
    ui.driver.execute_script(TO_THE_TOP)
    counts: list[int] = []

    def steady(driver) -> bool:
        counts.append(int(driver.execute_script(VISIBLE_ROWS) or 0))
        return len(counts) >= 3 and counts[-1] == counts[-2] == counts[-3] and counts[-1] > 0

    ui.wait(steady, "the grid's rows to settle")
    return counts[-1]


def in_window(ui: Ui, testid: str) -> bool:
    return bool(
        ui.driver.execute_script(
            "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"]`);"
            "if (!e) return false;"
            "const r = e.getBoundingClientRect();"
            "return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 &&"
            "  r.bottom <= innerHeight && r.right <= innerWidth;",
            testid,
        )
    )


def discard_all(ui: Ui) -> None:
    ui.driver.find_element(By.XPATH, "//button[normalize-space()='Discard all']").click()
    ui.wait_nothing_pending()


@pytest.mark.incremental
class TestWorkspace:
    def test_the_demo_grid_is_shown_with_nothing_staged(self, ui: Ui):
        flow["size"] = ui.driver.get_window_size()
        ui.go("memberships")
        ui.wait(lambda d: grid_cells(ui), "the memberships grid")
        ui.wait_nothing_pending()
        total = int(ui.one("membership-grid").get_attribute("aria-rowcount") or 0) - 1
        assert total >= max(rows for _, _, rows in SIZES), f"only {total} people are shown"

    @pytest.mark.parametrize(("width", "height", "least"), SIZES)
    def test_the_grid_fills_the_window(self, ui: Ui, width: int, height: int, least: int):
        try:
            resize(ui, width, height)
            shown = rows_in_view(ui)
            assert shown >= least, f"{shown} person rows in view at {width} × {height}"
            assert ui.pending_count() == 0, "changes are pending before any is staged"

            # Staging a change brings the pending bar, in the window, at once.
            cells = grid_cells(ui)
            user, stream = next(
                key for key, cell in sorted(cells.items()) if not cell.disabled
            )
            click_cell(ui, user, stream)
            ui.wait_text("pending-count", "1")
            ui.wait(lambda d: in_window(ui, "pending-bar"), "the pending bar in the window")
            assert ui.one("pending-bar").is_displayed()
            discard_all(ui)
            assert not grid_cells(ui)[(user, stream)].staged
        finally:
            size = flow["size"]
            ui.driver.set_window_size(size["width"], size["height"])  # type: ignore[index]

    def test_the_column_menu_resets_a_channel_to_the_servers_state(self, ui: Ui):
        ui.driver.execute_script(TO_THE_TOP)
        headers = ui.stream_headers()
        public = [
            name for name, header in headers.items() if header.get_attribute("data-private") == "false"
        ]
        target, other = public[0], public[1]
        stream = int(headers[target].get_attribute("data-stream-id") or 0)
        other_id = int(headers[other].get_attribute("data-stream-id") or 0)
        before = grid_cells(ui)
        column = {user: cell for (user, s), cell in before.items() if s == stream}
        assert any(not c.checked and not c.disabled for c in column.values()), (
            f"#{target} has no cell to subscribe among the rows shown"
        )

        # Everyone shown in the column, through its menu; and one cell elsewhere.
        choose(ui, stream, "Subscribe everyone shown")
        ui.wait(lambda d: ui.pending_count() > 0, "the column's cells to be staged")
        staged = ui.pending_count()
        cells = grid_cells(ui)
        # (The grid builds the rows in view: compare those rendered both times.)
        for user in column:
            now = cells.get((user, stream))
            assert now is None or now.checked or now.disabled, f"{user} in #{target} is not subscribed"
        user = next(
            u for (u, s), c in sorted(cells.items()) if s == other_id and not c.disabled
        )
        click_cell(ui, user, other_id)
        ui.wait(lambda d: ui.pending_count() == staged + 1, "the cell in another column")

        # Reset: the column is the server's again; the other column keeps its change.
        choose(ui, stream, "Reset to the server's state")
        ui.wait(lambda d: ui.pending_count() == 1, "the column's changes to be unstaged")
        after = grid_cells(ui)
        for (u, s), cell in before.items():
            if s == stream and (u, s) in after:
                assert after[(u, s)].checked == cell.checked and not after[(u, s)].staged, (
                    f"{u} in #{target} is not back to the server's state"
                )
        assert after[(user, other_id)].staged, "the reset took the other column's change too"
        discard_all(ui)


def choose(ui: Ui, stream: int, action: str) -> None:
    """Opens the channel's column menu (its painted name) and picks `action`."""
    trigger = ui.one(f"column-menu-{stream}")
    trigger.click()
    item = ui.wait(
        lambda d: next(
            (
                e
                for e in d.find_elements(By.CSS_SELECTOR, '[role="menu"] [role="menuitem"]')
                if e.is_displayed() and content(e).startswith(action)
            ),
            False,
        ),
        f"the menu item {action!r}",
    )
    assert item.is_enabled(), f"{action!r} is disabled"
    item.click()
    ui.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, '[role="menu"]'), "the menu to close")


@pytest.mark.incremental
class TestWorkspaceScreenshots:
    """The memberships grid and the Groups page at both sizes, in both themes: kept in
    docs/screenshots/ (`e2e.rs` copies them there with WEIR_UPDATE_SCREENSHOTS=1)."""

    def test_screenshots_at_both_sizes_in_both_themes(self, ui: Ui):
        size = ui.driver.get_window_size()
        try:
            for width, height, _ in SIZES:
                resize(ui, width, height)
                for page in ("memberships", "groups"):
                    ui.go(page)
                    if page == "memberships":
                        ui.wait(lambda d: grid_cells(ui), "the memberships grid")
                        rows_in_view(ui)
                    else:
                        ui.wait(
                            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid^="gcell-"]'),
                            "the groups grid",
                        )
                    for theme in ("light", "dark"):
                        set_theme(ui.driver, theme)
                        ui.screenshot(f"workspace-{page}-{width}x{height}-{theme}")
                    set_theme(ui.driver, None)
        finally:
            set_theme(ui.driver, None)
            ui.driver.set_window_size(size["width"], size["height"])
            ui.go("memberships")
