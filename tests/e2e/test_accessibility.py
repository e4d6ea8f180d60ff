"""Accessibility of the real app (WCAG 2.2 AA), before the main story in `test_app.py`.

axe-core runs once per page, theme and state (an open dialog, an error banner) and fails on
any serious or critical violation; a keyboard-only walk reaches and operates every page
and action; text at 200% keeps everything usable. The flow leaves the app as it found it:
on the Memberships page, theme following the system, default text size.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from a11y import (
    AxeTally,
    axe_check,
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
from test_app import Ui, css

PAGES = ("memberships", "bots", "local-server", "accounts")
THEMES = ("light", "dark")

tally = AxeTally()


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
    else:
        ui.wait(lambda d: ui.all("account-row"), "the accounts")
    ui.settle()


def axe_themes(ui: Ui, state: str) -> None:
    for theme in THEMES:
        set_theme(ui.driver, theme)
        ui.settle()
        axe_check(ui.driver, tally, f"{state}, {theme}")
    tally.assert_clean()


@pytest.mark.incremental
class TestAccessibility:
    def test_axe_on_every_page_in_both_themes(self, ui: Ui):
        for page in PAGES:
            ui.go(page)
            loaded(ui, page)
            for theme in THEMES:
                set_theme(ui.driver, theme)
                ui.settle()
                axe_check(ui.driver, tally, f"{page}, {theme}")
        tally.assert_clean()
        set_theme(ui.driver, "dark")
        ui.screenshot("a11y-accounts-dark")

    def test_axe_with_an_open_dialog(self, ui: Ui):
        ui.go("local-server")
        loaded(ui, "local-server")
        ui.one("reset-demo-data").click()
        ui.one("reset-demo-dialog")
        axe_themes(ui, "local-server, reset dialog open")
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
        axe_themes(ui, "accounts, error banner")
        set_theme(ui.driver, None)
        print(tally.summary())

    def test_every_page_and_action_by_keyboard(self, ui: Ui):
        driver = ui.driver
        ui.go("memberships")
        loaded(ui, "memberships")
        driver.execute_script("document.activeElement?.blur()")
        for index, page in enumerate(PAGES):
            where = f"keyboard walk, {page}"
            stops = tab_cycle(driver, where)
            reached = {stop["key"] for stop in stops}
            # The grid is virtualized: a row scrolled away and back is a new element with
            # the same label, so an element also counts as reached by its description.
            reached_what = {stop["what"] for stop in stops}
            missed = [
                el["what"]
                for el in probe(driver, "operable")
                if el["key"] not in reached and el["what"] not in reached_what
            ]
            assert not missed, f"{where}: not reachable with Tab: {missed}"
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
        # The shortcuts (Ctrl+1..4) open each page and put focus on its heading.
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
