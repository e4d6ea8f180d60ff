"""The memberships workspace at the window sizes people use (issue 38), on the embedded demo:
the grid fills the window (at least 12 person rows in view at 1024 × 700, 16 at 1280 × 800,
the page scrolled to the top), and the pending bar is in view while a change is staged; the
column menu's reset; Apply asks first, naming the channels, before it empties one or removes
more than 20 people from one. At 1024 × 700 no page of the workspace (Memberships, Groups,
Channels, Bots) scrolls sideways, and at 1024 × 700 and × 640 the memberships title line
cuts none of its text. A group picked in the toolbar is a frozen row of the grid, shown
at both sizes in both themes.
Runs after the other demo steps; leaves the window at the size it found and nothing staged.
"""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By

from a11y import set_theme
from test_accessibility import loaded
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

# How far the window and the main area scroll sideways (page-level: the grids' own scroll
# areas may scroll).
SIDEWAYS = """
const main = document.querySelector('[data-testid=main]');
const root = document.documentElement;
return [root.scrollWidth - root.clientWidth, main.scrollWidth - main.clientWidth];
"""

# What sticks out of the main area on the right (the widest first), for the message.
WIDEST = """
const edge = document.querySelector('[data-testid=main]').getBoundingClientRect().right;
return [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > edge + 1 && !e.closest('[role=grid], .table-wrap'))
  .slice(0, 5)
  .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right - edge)}px`);
"""

# Text the memberships title line cuts: a part squeezed below its text's width, one
# sticking out of the line, or a part of the realm's details shown only in part (they
# are shown whole or, with no room left, wrapped out of sight whole).
TITLE_CUT = """
const line = document.querySelector('[data-testid=realm-name]').closest('header');
const box = line.getBoundingClientRect();
const cut = [];
const parts = line.querySelectorAll('h1, h1 > span, :scope > span, [data-testid^="role-count-"]');
for (const el of parts) {
  const r = el.getBoundingClientRect();
  if (el.scrollWidth > el.clientWidth + 1 || r.right > box.right + 1 || r.left < box.left - 1
      || r.right > innerWidth)
    cut.push(el.textContent.trim());
}
const meta = line.querySelector('p');
const m = meta.getBoundingClientRect();
for (const part of meta.children) {
  const r = part.getBoundingClientRect();
  const shown = r.top < m.bottom - 1;
  if (shown && (r.right > m.right + 1 || r.bottom > m.bottom + 1)) cut.push(part.textContent.trim());
}
return cut;
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


    def test_apply_asks_first_naming_the_channels_it_would_empty_or_thin(self, ui: Ui):
        ui.driver.execute_script(TO_THE_TOP)
        headers = ui.stream_headers()
        public = {
            name: header
            for name, header in headers.items()
            if header.get_attribute("data-private") == "false"
        }
        # The largest public channel loses more than 20 people; the smallest is emptied.
        largest = max(public, key=lambda n: subscribers_of(public[n]))
        smallest = min(public, key=lambda n: subscribers_of(public[n]))
        assert subscribers_of(public[largest]) > 20, f"#{largest} has 20 subscribers or fewer"
        for name in (largest, smallest):
            choose(ui, int(public[name].get_attribute("data-stream-id") or 0), "Remove everyone shown")
        ui.wait(lambda d: ui.pending_count() > 20, "the removals to be staged")
        staged = ui.pending_count()
        emptied = {
            name
            for name, header in ui.stream_headers().items()
            if name in (largest, smallest) and "→ 0 subscribers" in (header.get_attribute("title") or "")
        }
        assert smallest in emptied, f"removing everyone shown left #{smallest} subscribers"

        ui.one("apply-changes").click()
        ui.one("confirm-apply")
        dialog = ui.wait(
            lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, "dialog[open]")), False),
            "the confirmation",
        )
        risks = [content(li) for li in dialog.find_elements(By.CSS_SELECTOR, "li")]
        for name in emptied:
            assert f"#{name} would have no subscribers left." in risks, risks
        if largest not in emptied:
            assert any(r.endswith(f"would be removed from #{largest}.") for r in risks), risks

        # Cancel sends nothing: the changes stay staged, then are discarded.
        dialog.find_element(By.XPATH, ".//button[normalize-space()='Cancel']").click()
        ui.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the dialog to close")
        assert ui.pending_count() == staged
        discard_all(ui)

@pytest.mark.incremental
class TestLayoutAt1024:
    def test_no_page_scrolls_sideways_at_1024(self, ui: Ui):
        size = ui.driver.get_window_size()
        try:
            resize(ui, 1024, 700)
            for page in ("memberships", "groups", "channels", "bots"):
                ui.go(page)
                loaded(ui, page)
                overflow = ui.driver.execute_script(SIDEWAYS)
                assert max(overflow) <= 0, (
                    f"{page} scrolls sideways at 1024 × 700 by {overflow}: "
                    f"{ui.driver.execute_script(WIDEST)}"
                )
        finally:
            ui.driver.set_window_size(size["width"], size["height"])
            ui.go("memberships")

    @pytest.mark.parametrize(
        ("width", "height"), ((1024, 700), (1024, 640), (1200, 780), (1280, 800))
    )
    def test_the_title_line_cuts_nothing(self, ui: Ui, width: int, height: int):
        size = ui.driver.get_window_size()
        try:
            resize(ui, width, height)
            ui.go("memberships")
            loaded(ui, "memberships")
            cut = ui.driver.execute_script(TITLE_CUT)
            assert not cut, f"the title line cuts {cut} at {width} × {height}"
            kicker = ui.driver.execute_script(
                "return document.querySelector('[data-testid=realm-name]')"
                ".closest('header').querySelector(':scope > span').textContent"
            )
            assert kicker.strip().lower() == "memberships", kicker
        finally:
            ui.driver.set_window_size(size["width"], size["height"])


def subscribers_of(header) -> int:
    """A channel's subscriber count on the server, from its column header's title
    ("#general: 30 subscribers", or "30 → 0 subscribers" with changes staged)."""
    found = re.search(r": (\d+)", header.get_attribute("title") or "")
    assert found, f"no subscriber count in {header.get_attribute('title')!r}"
    return int(found.group(1))


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


def every_group(ui: Ui, shown: bool) -> None:
    """Turns "Every group as a row" on or off; on, waits for the group rows."""
    box = ui.driver.find_element(
        By.XPATH, "//label[contains(normalize-space(), 'Every group as a row')]/input"
    )
    if box.is_selected() != shown:
        box.click()
    ui.wait(
        lambda d: bool(d.find_elements(By.CSS_SELECTOR, '[data-testid^="group-row-"]')) == shown,
        "the group rows",
    )


# The group rows' tops, and the bottom of the channels' header row, in the window.
BAND = """
const grid = document.querySelector('[data-testid="membership-grid"]');
const head = grid.querySelector('[role="row"][aria-rowindex="1"]').getBoundingClientRect();
return [head.bottom, ...[...grid.querySelectorAll('[data-testid^="group-row-"]')]
  .map((row) => row.getBoundingClientRect().top)];
"""


def group_rows_stay_frozen(ui: Ui) -> None:
    """The group rows are rows of the one grid, right under the channels' headers, and stay
    there while the people scroll beneath them."""
    assert len(ui.driver.find_elements(By.CSS_SELECTOR, '[role="grid"]')) == 1, (
        "the group rows are a second grid"
    )
    ui.driver.execute_script(TO_THE_TOP)
    ui.settle()
    head, *before = ui.driver.execute_script(BAND)
    assert before and before[0] > head, f"the group rows at {before}, the headers end at {head}"
    ui.driver.execute_script(
        "document.querySelector('[data-testid=\"membership-grid\"]').scrollTop = 300"
    )
    ui.settle()
    _, *after = ui.driver.execute_script(BAND)
    assert after == before, f"the group rows moved from {before} to {after} with the people"
    ui.driver.execute_script(TO_THE_TOP)


@pytest.mark.incremental
class TestWorkspaceScreenshots:
    """The memberships grid (every group as a frozen row above the people) and the Groups
    page at both sizes, in both themes: kept in docs/screenshots/ (`e2e.rs` copies them
    there with WEIR_UPDATE_SCREENSHOTS=1)."""

    def test_screenshots_at_both_sizes_in_both_themes(self, ui: Ui):
        size = ui.driver.get_window_size()
        try:
            for width, height, _ in SIZES:
                resize(ui, width, height)
                for page in ("memberships", "groups"):
                    ui.go(page)
                    if page == "memberships":
                        ui.wait(lambda d: grid_cells(ui), "the memberships grid")
                        every_group(ui, True)
                        group_rows_stay_frozen(ui)
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
                    if page == "memberships":
                        every_group(ui, False)
        finally:
            set_theme(ui.driver, None)
            ui.driver.set_window_size(size["width"], size["height"])
            ui.go("memberships")
