"""Accessibility of the real app (WCAG 2.2 AA), before the main story in `test_app.py`.

axe-core runs once per page, theme and state (an open dialog, an error banner, the grid
with staged and disabled cells) and fails on any serious or critical violation; the main
story and the bots story add their states (a member's grid, the workbench's previews) to
the same tally, printed at the end. A keyboard-only walk reaches and operates every page
and action, and the grid follows the ARIA grid pattern; text at 200% keeps everything
usable. The flow leaves the app as it found it: on the Memberships page, nothing staged,
theme following the system, default text size.
"""

from __future__ import annotations

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from a11y import (
    TALLY,
    axe_check,
    axe_themes,
    check_focus_shown,
    ctrl,
    focused_now,
    press,
    probe,
    set_theme,
    shift_tab,
    tab_cycle,
    tab_to,
)
from conftest import E2EEnv
from test_app import Ui, content, css, grid_cells

PAGES = ("memberships", "bots", "local-server", "accounts", "groups", "channels")
THEMES = ("light", "dark")
KEY_NAMES = {
    Keys.HOME: "Home",
    Keys.END: "End",
    Keys.ARROW_UP: "Up",
    Keys.ARROW_DOWN: "Down",
    Keys.ARROW_LEFT: "Left",
    Keys.ARROW_RIGHT: "Right",
    Keys.PAGE_UP: "PageUp",
    Keys.PAGE_DOWN: "PageDown",
}

# Enabled cells of the grid shown in full (clear of its sticky headers), by test id.
SHOWN_CELLS_JS = """
const grid = document.querySelector('[data-testid="membership-grid"]');
const g = grid.getBoundingClientRect();
const head = grid.querySelector('[role="row"][aria-rowindex="1"]').getBoundingClientRect();
const side = grid.querySelector('[role="columnheader"][aria-colindex="1"]').getBoundingClientRect();
return [...grid.querySelectorAll('[role="checkbox"]:not([aria-disabled])')]
  .filter((e) => {
    const r = e.getBoundingClientRect();
    return r.top > head.bottom && r.bottom < Math.min(g.bottom, innerHeight) &&
      r.left > side.right && r.right < Math.min(g.right, innerWidth);
  })
  .map((e) => e.dataset.testid);
"""


@pytest.fixture
def ui(driver: WebDriver, e2e: E2EEnv) -> Ui:
    return Ui(driver, e2e)


def page_of(ui: Ui) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, css("main")).get_attribute("data-page")


def loaded(ui: Ui, page: str) -> None:
    """Wait for the page's data, so axe and the walk see the real content."""
    if page == "memberships":
        ui.wait(lambda d: ui.all("stream-header"), "the grid's streams")
    elif page == "bots":
        ui.wait(lambda d: ui.all("bots-empty") or ui.bot_rows(), "the bots")
    elif page == "local-server":
        ui.wait(lambda d: ui.all("request-row"), "the request log")
    elif page == "groups":
        ui.wait(
            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid^="gcell-"]'),
            "the groups grid",
        )
    elif page == "channels":
        ui.wait(
            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid^="chcell-"]'),
            "the channels grid",
        )
    else:
        ui.wait(lambda d: ui.all("account-row"), "the accounts")
    ui.settle()


def show_deactivated(ui: Ui, shown: bool) -> None:
    box = ui.driver.find_element(
        By.XPATH, "//label[contains(normalize-space(), 'Show deactivated')]/input"
    )
    if box.is_selected() != shown:
        box.click()


def discard_all(ui: Ui) -> None:
    ui.driver.find_element(By.XPATH, "//button[normalize-space()='Discard all']").click()
    ui.wait_nothing_pending()


def pending(ui: Ui) -> int:
    return ui.pending_count()


@pytest.mark.incremental
class TestAccessibility:
    def test_axe_on_every_page_in_both_themes(self, ui: Ui):
        for page in PAGES:
            ui.go(page)
            loaded(ui, page)
            for theme in THEMES:
                set_theme(ui.driver, theme)
                ui.settle()
                axe_check(ui.driver, TALLY, f"{page}, {theme}")
                if page == "memberships" and theme == "dark":
                    # The grid is painted on a canvas in the theme's colours: look at it.
                    ui.screenshot("a11y-memberships-dark")
        TALLY.assert_clean()
        set_theme(ui.driver, "dark")
        ui.screenshot("a11y-accounts-dark")

    def test_axe_with_group_rows_in_the_grid(self, ui: Ui):
        """The group rows' cells and sync buttons lie over the canvas: named controls too."""
        ui.go("memberships")
        loaded(ui, "memberships")
        box = ui.driver.find_element(
            By.XPATH, "//label[contains(normalize-space(), 'Every group as a row')]/input"
        )
        assert not box.is_selected()
        box.click()
        try:
            ui.wait(
                lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid^="group-row-"]'),
                "the group rows",
            )
            axe_themes(ui.driver, "memberships, every group as a row")
        finally:
            box.click()

    def test_axe_with_an_open_dialog(self, ui: Ui):
        ui.go("local-server")
        loaded(ui, "local-server")
        ui.one("reset-demo-data").click()
        ui.one("reset-demo-dialog")
        axe_themes(ui.driver, "local-server, reset dialog open")
        press(ui.driver, Keys.ESCAPE)
        ui.wait(lambda d: not ui.all("reset-demo-dialog")[0].is_displayed(), "the dialog to close")

    def test_axe_with_an_error_banner(self, ui: Ui):
        ui.go("accounts")
        loaded(ui, "accounts")
        field = ui.one("zuliprc-path")
        field.clear()
        field.send_keys(str(ui.e2e.zuliprc.with_name("no-such-zuliprc")))
        ui.one("zuliprc-import").click()
        ui.one("error")
        axe_themes(ui.driver, "accounts, error banner")

    def test_axe_on_the_grid_with_staged_and_disabled_cells(self, ui: Ui):
        ui.go("memberships")
        loaded(ui, "memberships")
        # Deactivated people's cells are disabled (nobody may change them), with a reason.
        show_deactivated(ui, True)
        disabled = ui.wait(
            lambda d: [key for key, cell in grid_cells(ui).items() if cell.disabled],
            "disabled cells (deactivated people)",
        )
        user, stream = disabled[0]
        ui.driver.execute_script(
            "arguments[0].scrollIntoView({block: 'center'})", ui.one(f"cell-{user}-{stream}")
        )
        ui.settle()
        # Staged cells next to them, in view: the grid and the pending list both show them.
        shown = ui.driver.execute_script(SHOWN_CELLS_JS)
        assert len(shown) >= 3, f"too few changeable cells in view: {shown}"
        for testid in shown[:3]:
            ui.one(testid).click()
        ui.wait_text("pending-count", "3")
        cells = grid_cells(ui)
        assert sum(cell.staged for cell in cells.values()) == 3
        assert cells[(user, stream)].disabled and "Deactivated" in cells[(user, stream)].title
        ui.screenshot("a11y-grid-staged-disabled")
        axe_themes(ui.driver, "memberships, staged and disabled cells")
        discard_all(ui)
        show_deactivated(ui, False)
        ui.wait(lambda d: not any(c.disabled for c in grid_cells(ui).values()), "no disabled cell")

    def test_every_page_and_action_by_keyboard(self, ui: Ui):
        driver = ui.driver
        ui.go("memberships")
        loaded(ui, "memberships")
        driver.execute_script("document.activeElement?.blur()")
        for index, page in enumerate(PAGES):
            where = f"keyboard walk, {page}"
            stops = tab_cycle(driver, where)
            reached = {stop["key"] for stop in stops}
            missed = [el["what"] for el in probe(driver, "operable") if el["key"] not in reached]
            assert not missed, f"{where}: not reachable with Tab: {missed}"
            # A grid is one Tab stop (roving tabindex); its cells are walked with arrows.
            in_grid = [stop["what"] for stop in stops if stop["grid"] is not None]
            if page in ("memberships", "groups", "channels"):
                assert len(in_grid) == 1, f"{where}: the grid takes {len(in_grid)} Tab stops: {in_grid}"
            else:
                assert not in_grid, f"{where}: grid stops on a page without a grid: {in_grid}"
            # Shift+Tab goes back the way Tab came.
            shift_tab(driver)
            back = probe(driver, "active")
            assert back is not None and back["key"] == stops[-1]["key"], (
                f"{where}: Shift+Tab from {stops[0]['what']} went to "
                f"{back and back['what']}, not {stops[-1]['what']}"
            )
            print(f"{where}: {len(stops)} tab stops, all with a visible focus indicator")
            following = PAGES[(index + 1) % len(PAGES)]
            tab_to(driver, f"nav-{following}", where)
            press(driver, Keys.ENTER)
            ui.wait(lambda d: page_of(ui) == following, f"Enter to open {following}")
            loaded(ui, following)
        # The shortcuts (Ctrl+1..5) open each page and put focus on its heading.
        for digit, page in enumerate(PAGES, start=1):
            ctrl(driver, str(digit))
            ui.wait(lambda d: page_of(ui) == page, f"Ctrl+{digit} to open {page}")
            ui.wait(
                lambda d: driver.execute_script(
                    "return document.activeElement?.tagName === 'H1'"
                    " && document.querySelector('main').contains(document.activeElement)"
                ),
                f"focus on the {page} heading after Ctrl+{digit}",
            )

    def test_the_grid_follows_the_aria_grid_pattern(self, ui: Ui):
        driver = ui.driver
        ctrl(driver, str(PAGES.index("memberships") + 1))
        ui.wait(lambda d: page_of(ui) == "memberships", "the memberships page")
        loaded(ui, "memberships")
        where = "grid by keyboard"

        def at() -> dict:
            focused = focused_now(driver)
            assert focused is not None, f"{where}: focus fell to the page"
            return focused

        def key(*keys: str, to: tuple[int, int], control: bool = False) -> dict:
            """Press keys; focus must land on aria row/column `to`, shown and clear."""
            chain = ActionChains(driver)
            if control:
                chain.key_down(Keys.CONTROL)
            chain.send_keys(*keys)
            if control:
                chain.key_up(Keys.CONTROL)
            chain.perform()
            name = ("Ctrl+" if control else "") + "+".join(KEY_NAMES.get(k, k) for k in keys)
            ui.wait(
                lambda d: (g := at()["grid"]) is not None and (g["row"], g["col"]) == to,
                f"{name} to focus row {to[0]}, column {to[1]}",
            )
            focused = at()
            check_focus_shown(focused, f"{where}, {name}")
            return focused

        def into_grid() -> dict:
            for _ in range(60):
                press(driver, Keys.TAB)
                focused = focused_now(driver)
                if focused is not None and focused["grid"] is not None:
                    check_focus_shown(focused, where)
                    return focused
            raise AssertionError(f"{where}: Tab never reached the grid")

        def discard_by_keyboard() -> None:
            """Tab from the grid to Discard all and press it: the button disables itself,
            and focus goes back to the grid's Tab stop instead of falling to the page."""
            stop = at()
            for _ in range(10):
                press(driver, Keys.TAB)
                if at()["what"] == 'button "Discard all"':
                    break
            else:
                raise AssertionError(f"{where}: Tab from the grid never reached Discard all")
            press(driver, Keys.ENTER)
            ui.wait_nothing_pending()
            ui.wait(
                lambda d: (f := focused_now(driver)) is not None and f["key"] == stop["key"],
                "focus back on the grid's Tab stop after Discard all",
            )
            check_focus_shown(at(), f"{where}, after Discard all")

        # One Tab stop: Tab enters the grid, the next Tab leaves it, Shift+Tab comes back.
        entered = into_grid()
        press(driver, Keys.TAB)
        assert at()["grid"] is None, f"{where}: a second Tab stayed in the grid: {at()['what']}"
        shift_tab(driver)
        assert at()["key"] == entered["key"], f"{where}: Shift+Tab went to {at()['what']}"
        rows, cols = entered["grid"]["rows"], entered["grid"]["cols"]
        assert rows > 20 and cols > 3, entered["grid"]

        corner = key(Keys.HOME, to=(1, 1), control=True)
        assert corner["grid"]["cellRole"] == "columnheader", corner
        header = key(Keys.ARROW_RIGHT, to=(1, 2))
        assert header["grid"]["cellRole"] == "columnheader" and "Toggle everyone" in header["what"]
        first = key(Keys.ARROW_DOWN, to=(2, 2))
        assert first["grid"]["role"] == "checkbox", first
        key(Keys.ARROW_RIGHT, to=(2, 3))
        key(Keys.ARROW_LEFT, to=(2, 2))
        person = key(Keys.HOME, to=(2, 1))
        assert person["grid"]["cellRole"] == "rowheader" and "Toggle every" in person["what"]
        ui.screenshot("a11y-grid-row-header-focused")
        key(Keys.ARROW_LEFT, to=(2, 1))
        key(Keys.END, to=(2, cols))
        key(Keys.ARROW_RIGHT, to=(2, cols))
        key(Keys.END, to=(rows, cols), control=True)
        key(Keys.ARROW_DOWN, to=(rows, cols))
        key(Keys.HOME, to=(1, 1), control=True)
        key(Keys.ARROW_DOWN, Keys.ARROW_RIGHT, to=(2, 2))
        # Page Down/Up jump by a screenful of rows (and stop at the ends).
        press(driver, Keys.PAGE_DOWN)
        ui.wait(lambda d: at()["grid"]["row"] > 3, "Page Down to jump several rows")
        page = at()["grid"]["row"] - 2
        check_focus_shown(at(), f"{where}, Page Down")
        key(Keys.PAGE_DOWN, to=(min(2 + 2 * page, rows), 2))
        key(Keys.PAGE_UP, to=(min(2 + 2 * page, rows) - page, 2))
        key(Keys.HOME, to=(1, 1), control=True)
        key(Keys.ARROW_DOWN, Keys.ARROW_RIGHT, to=(2, 2))

        # Space stages the focused cell and unstages it again.
        before = at()["grid"]["checked"]
        press(driver, Keys.SPACE)
        ui.wait(lambda d: at()["grid"]["staged"], "Space to stage the cell")
        assert at()["grid"]["checked"] != before and pending(ui) == 1
        press(driver, Keys.SPACE)
        ui.wait(lambda d: not at()["grid"]["staged"], "Space to unstage the cell")
        ui.wait_nothing_pending()

        # Enter on a person's header fills the row; on a channel's header, the column.
        key(Keys.HOME, to=(2, 1))
        press(driver, Keys.ENTER)
        ui.wait(lambda d: pending(ui) > 0, "Enter on the row header to stage the row")
        staged_row = driver.execute_script(
            "return document.activeElement.closest('[role=row]')"
            ".querySelectorAll('[data-staged]').length"
        )
        assert staged_row == pending(ui), f"{staged_row} staged in the row, {pending(ui)} pending"
        discard_by_keyboard()
        key(Keys.ARROW_UP, Keys.ARROW_RIGHT, to=(1, 2))
        press(driver, Keys.SPACE)
        ui.wait(lambda d: pending(ui) > 0, "Space on the channel header to stage the column")
        column = int(
            driver.execute_script(
                "return document.activeElement.closest('[data-testid=stream-header]')"
                ".dataset.streamId"
            )
        )
        staged = [k for k, cell in grid_cells(ui).items() if cell.staged]
        assert staged and {stream for _, stream in staged} == {column}, staged
        discard_by_keyboard()

        # Scrolled away (the mouse wheel), the focused cell stays: focus is never lost,
        # and the next arrow brings it back into view.
        focused = key(Keys.ARROW_DOWN, Keys.ARROW_DOWN, to=(3, 2))
        grid = ui.one("membership-grid")
        scrolled = "return arguments[0].scrollTop"
        try:
            ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(grid), 0, 5000).perform()
        except WebDriverException:
            pass
        ui.settle()
        if driver.execute_script(scrolled, grid) < 500:
            # WebKitWebDriver may not implement wheel actions: scroll as the wheel would.
            print(f"{where}: no wheel action in this driver; the grid is scrolled by script")
            driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight", grid)
        ui.wait(lambda d: driver.execute_script(scrolled, grid) >= 500, "the grid to scroll")
        ui.settle()
        still = probe(driver, "active")
        assert still is not None and still["key"] == focused["key"], (
            f"{where}: scrolling the grid moved focus from {focused['what']} to "
            f"{still and still['what']}"
        )
        key(Keys.ARROW_DOWN, to=(4, 2))
        # Tab leaves the grid; Shift+Tab comes back to the same cell.
        here = at()
        press(driver, Keys.TAB)
        assert at()["grid"] is None, f"{where}: Tab stayed in the grid: {at()['what']}"
        shift_tab(driver)
        assert at()["key"] == here["key"], f"{where}: Shift+Tab went to {at()['what']}"
        print(f"{where}: {rows} rows x {cols} columns, page = {page} rows, one Tab stop")

    def test_the_dialog_traps_and_returns_focus(self, ui: Ui):
        driver = ui.driver
        ctrl(driver, str(PAGES.index("local-server") + 1))
        ui.wait(lambda d: page_of(ui) == "local-server", "the local server page")
        loaded(ui, "local-server")
        opener = tab_to(driver, "reset-demo-data", "dialog")
        press(driver, Keys.ENTER)
        ui.one("reset-demo-dialog")
        focused = focused_now(driver)
        assert focused and focused["inDialog"], f"the open dialog does not hold focus: {focused}"
        assert "Cancel" in focused["what"], f"the dialog starts on {focused['what']}, not Cancel"
        check_focus_shown(focused, "dialog")
        # Round and round inside the dialog, both ways: focus never leaves it.
        inside = {el["key"]: el["what"] for el in probe(driver, "operable")}
        seen: dict[str, str] = {}
        order: list[str] = []
        for step in range(2 * len(inside) + 1):
            backwards = step % 5 == 0
            if backwards:
                shift_tab(driver)
            else:
                press(driver, Keys.TAB)
            focused = focused_now(driver)
            assert focused and focused["inDialog"], f"Tab left the open dialog: {focused}"
            check_focus_shown(focused, "dialog")
            seen[focused["key"]] = focused["what"]
            order.append(("Shift+Tab " if backwards else "Tab ") + focused["what"])
        assert seen.keys() == inside.keys(), (
            f"Tab in the dialog went to {sorted(seen.values())}, "
            f"not to {sorted(inside.values())}: {order}"
        )
        press(driver, Keys.ESCAPE)
        ui.wait(lambda d: not ui.all("reset-demo-dialog")[0].is_displayed(), "Escape to close it")
        back = probe(driver, "active")
        assert back and back["key"] == opener["key"], (
            f"closing the dialog put focus on {back and back['what']}, not on its opener"
        )

    def test_text_at_200_percent(self, ui: Ui):
        driver = ui.driver
        driver.execute_script("document.documentElement.style.fontSize = '200%'")
        try:
            for page in PAGES:
                ui.go(page)
                loaded(ui, page)
                ui.screenshot(f"a11y-{page}-text-200")
                problems = driver.execute_script(
                    """
                    const out = [];
                    const root = document.documentElement;
                    if (root.scrollWidth > innerWidth + 1)
                      out.push(`the window scrolls sideways (${root.scrollWidth}px)`);
                    const base = parseFloat(getComputedStyle(document.body).fontSize);
                    if (base < 27) out.push(`body text is ${base}px, not doubled`);
                    for (const el of document.querySelectorAll('a[href], button, h1')) {
                      if (!el.getClientRects().length || el.closest('dialog:not([open])'))
                        continue;
                      const r = el.getBoundingClientRect();
                      if (el.matches('.skip')) continue;
                      if (el.scrollWidth > el.clientWidth + 1 &&
                          getComputedStyle(el).overflowX !== 'visible')
                        out.push(`clipped: ${el.outerHTML.slice(0, 80)}`);
                      // Tables scroll sideways in their own region; Tab scrolls it along.
                      if (r.right > innerWidth + 1 && !el.closest('.table-wrap'))
                        out.push(`off screen: ${el.outerHTML.slice(0, 80)}`);
                    }
                    // Text spilling out of its box (outside the regions meant to scroll).
                    for (const el of document.querySelectorAll('main *, aside *')) {
                      if (el.clientWidth === 0 || el.closest('.table-wrap, dialog')) continue;
                      const style = getComputedStyle(el);
                      if (style.overflowX === 'visible' && style.textOverflow !== 'ellipsis' &&
                          el.scrollWidth > el.clientWidth + 1)
                        out.push(`overflows: ${el.outerHTML.slice(0, 80)}`);
                    }
                    return out;
                    """
                )
                assert not problems, f"{page} at 200% text: {problems}"
        finally:
            driver.execute_script("document.documentElement.style.fontSize = ''")
        ui.go("memberships")
        loaded(ui, "memberships")
