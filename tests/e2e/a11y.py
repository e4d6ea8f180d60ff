"""Accessibility helpers for the end-to-end suite: axe-core and a keyboard-only walk.

axe-core (the npm devDependency in `ui/`) is injected through WebDriver into the app's own
WebKit window, so it judges exactly what a user gets: the real engine, fonts and themes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

AXE_JS = Path(__file__).resolve().parents[2] / "ui" / "node_modules" / "axe-core" / "axe.min.js"
# Impacts that fail the suite; the others are counted and printed.
BLOCKING = ("serious", "critical")
# How many Tab presses one page's walk may take before it counts as a keyboard trap.
MAX_TABS = 150

# Run in the page: what is focused, and whether a keyboard user can see it.
_PROBE_JS = """
const w = window;
if (!w.__weirA11y) {
  let next = 0;
  const key = (el) => (el.dataset.a11yKey ??= String(++next));
  const shown = (el) => {
    if (el.closest('[inert], [hidden], dialog:not([open])')) return false;
    const style = getComputedStyle(el);
    return el.getClientRects().length > 0 && style.visibility !== 'hidden';
  };
  const describe = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim();
    return `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} ` +
      JSON.stringify(text.replace(/\\s+/g, ' ').slice(0, 40));
  };
  const indicator = (el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 &&
      !/rgba\\(.*, 0\\)$|transparent/.test(style.outlineColor);
    return outline || (style.boxShadow && style.boxShadow !== 'none');
  };
  const inViewport = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 &&
      r.left < innerWidth && r.top < innerHeight;
  };
  // Where a focused element sits in an ARIA grid (1-based aria indices), and whether it
  // is clear of the grid's sticky header row and header column (so the ring is seen).
  const gridCell = (el) => {
    const grid = el.closest('[role="grid"]');
    if (!grid) return null;
    const row = Number(el.closest('[role="row"]')?.getAttribute('aria-rowindex'));
    const cell = el.closest('[role="gridcell"], [role="rowheader"], [role="columnheader"]');
    const col = Number(cell?.getAttribute('aria-colindex'));
    const g = grid.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const headRow = grid.querySelector('[role="row"][aria-rowindex="1"]');
    const headCol = grid.querySelector('[role="columnheader"][aria-colindex="1"]');
    const top = g.top + (row > 1 && headRow ? headRow.getBoundingClientRect().height : 0);
    const left = g.left + (col > 1 && headCol ? headCol.getBoundingClientRect().width : 0);
    return {
      row, col,
      rows: Number(grid.getAttribute('aria-rowcount')),
      cols: Number(grid.getAttribute('aria-colcount')),
      role: el.getAttribute('role') || el.tagName.toLowerCase(),
      cellRole: cell?.getAttribute('role') ?? null,
      clear: r.top >= top - 1 && r.left >= left - 1 &&
        r.bottom <= g.bottom + 1 && r.right <= g.right + 1,
      staged: el.dataset.staged === 'true',
      checked: el.getAttribute('aria-checked'),
    };
  };
  w.__weirA11y = {
    active() {
      const el = document.activeElement;
      if (!el || el === document.body || el === document.documentElement) return null;
      return {
        key: key(el),
        what: describe(el),
        testid: el.dataset.testid || null,
        focusVisible: el.matches(':focus-visible'),
        // A code editor draws its ring on the editor box around the editable text.
        indicator: indicator(el) || indicator(el.closest('.cm-editor') ?? el),
        inViewport: inViewport(el),
        inDialog: el.closest('dialog[open]') !== null,
        // A code editor keeps Tab for indenting; Escape then Tab leaves it (CodeMirror's
        // documented way out), which is what a keyboard user does.
        codeEditor: el.matches('.cm-content'),
        grid: gridCell(el),
      };
    },
    operable() {
      const modal = document.querySelector('dialog[open]');
      const scope = modal ?? document;
      const selector = 'a[href], button, input, select, textarea, summary, [tabindex]';
      return [...scope.querySelectorAll(selector)]
        // A grid (ARIA grid pattern) keeps all of its cells but one at tabindex -1: that
        // one (roving tabindex) is required like any other control.
        .filter((el) => !el.disabled && el.tabIndex >= 0 && shown(el))
        .map((el) => ({ key: key(el), what: describe(el) }));
    },
  };
}
return w.__weirA11y[arguments[0]]();
"""


@dataclass
class AxeTally:
    """Minor and moderate findings over all runs (serious and critical ones fail at once)."""

    runs: int = 0
    minor: Counter = field(default_factory=Counter)
    # Serious and critical findings not yet reported (see `assert_clean`).
    blocking: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        """Fail with every serious or critical violation found since the last call."""
        found, self.blocking = self.blocking, []
        assert not found, "axe-core: serious/critical violations:\n" + "\n".join(found)

    def summary(self) -> str:
        counts = Counter()
        for (impact, _rule), nodes in self.minor.items():
            counts[impact] += nodes
        rules = ", ".join(f"{rule} ({impact}) x{n}" for (impact, rule), n in self.minor.items())
        return (
            f"axe: {self.runs} runs, 0 serious/critical, {counts['moderate']} moderate and "
            f"{counts['minor']} minor node(s){': ' + rules if rules else ''}"
        )


# One tally for the whole run (this suite, the main story and the bots story); its summary
# is printed at the end of the run (conftest.py).
TALLY = AxeTally()


def axe_check(driver: WebDriver, tally: AxeTally, state: str) -> None:
    """Run axe-core once on the whole document; serious or critical violations are kept in
    the tally, so one failing step lists all of its states' problems at once."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE_JS.read_text(encoding="utf-8"))
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        window.axe
          .run(document, { resultTypes: ['violations'] })
          .then((r) => done(r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
          }))))
          .catch((e) => done({ error: String(e) }));
        """
    )
    assert not isinstance(result, dict), f"axe-core failed to run ({state}): {result}"
    tally.runs += 1
    blocking = [v for v in result if v["impact"] in BLOCKING]
    for violation in result:
        if violation["impact"] not in BLOCKING:
            tally.minor[(violation["impact"], violation["id"])] += len(violation["nodes"])
    tally.blocking.extend(
        f"- {state}: {v['id']} ({v['impact']}): {v['help']}: {len(v['nodes'])} node(s)\n    "
        + "\n    ".join(v["nodes"][:8])
        for v in blocking
    )
    others = len(result) - len(blocking)
    print(f"axe ({state}): {len(blocking)} serious/critical, {others} other rule(s)")


def set_theme(driver: WebDriver, theme: str | None) -> None:
    """Pin the light or dark theme (`<html data-theme>`, honoured by app.css), or unpin."""
    driver.execute_script(
        "const root = document.documentElement;"
        "if (arguments[0]) root.dataset.theme = arguments[0]; else delete root.dataset.theme;",
        theme,
    )


def settle(driver: WebDriver) -> None:
    """Fonts loaded and two animation frames drawn: the DOM axe sees is the one shown."""
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "document.fonts.ready.then(() =>"
        "  requestAnimationFrame(() => requestAnimationFrame(() => done(true))));"
    )


def axe_themes(driver: WebDriver, state: str) -> None:
    """axe in the light and the dark theme, then the theme follows the system again;
    fails on any serious or critical violation."""
    try:
        for theme in ("light", "dark"):
            set_theme(driver, theme)
            settle(driver)
            axe_check(driver, TALLY, f"{state}, {theme}")
    finally:
        set_theme(driver, None)
    TALLY.assert_clean()


def probe(driver: WebDriver, what: str):
    return driver.execute_script(_PROBE_JS, what)


def focused_now(driver: WebDriver):
    """The focused element; if it is not on screen or ringed yet, again after two frames
    (WebKit scrolls a newly focused element into view after the key event, and a code
    editor marks itself focused on its next update)."""
    focused = probe(driver, "active")
    shown = focused is not None and focused["inViewport"] and focused["indicator"]
    if focused is not None and not (shown and clear(focused)):
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
        )
        focused = probe(driver, "active")
    return focused


def press(driver: WebDriver, *keys: str) -> None:
    ActionChains(driver).send_keys(*keys).perform()


def shift_tab(driver: WebDriver) -> None:
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()


def ctrl(driver: WebDriver, key: str) -> None:
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()


def check_focus_shown(focused: dict, where: str) -> None:
    assert focused["focusVisible"], f"{where}: {focused['what']} has focus but not :focus-visible"
    assert focused["indicator"], f"{where}: {focused['what']} has focus but no visible indicator"
    assert focused["inViewport"], f"{where}: {focused['what']} has focus but is off screen"
    assert clear(focused), (
        f"{where}: {focused['what']} has focus but is under the grid's sticky headers or "
        f"scrolled out of the grid: {focused['grid']}"
    )


def clear(focused: dict) -> bool:
    """Not hidden under a grid's sticky headers nor scrolled out of the grid's box."""
    return focused["grid"] is None or focused["grid"]["clear"]


def tab_cycle(driver: WebDriver, where: str) -> list[dict]:
    """Tab from the current focus until focus comes back to where it started: every stop is
    checked for a visible focus indicator, and the cycle must close (no keyboard trap)."""
    press(driver, Keys.TAB)
    first = focused_now(driver)
    assert first is not None, f"{where}: Tab focused nothing"
    stops, lost = [first], 0
    for _ in range(MAX_TABS):
        check_focus_shown(stops[-1], where)
        if stops[-1]["codeEditor"]:
            press(driver, Keys.ESCAPE)
        press(driver, Keys.TAB)
        focused = focused_now(driver)
        if focused is None:
            # Leaving the last element may pass through the document itself once.
            lost += 1
            assert lost <= 2, f"{where}: focus left the page after {stops[-1]['what']}"
            continue
        lost = 0
        if focused["key"] == first["key"]:
            return stops
        stops.append(focused)
    raise AssertionError(
        f"{where}: Tab did not come back to {first['what']} within {MAX_TABS} presses "
        f"(keyboard trap?); last stops: {[s['what'] for s in stops[-5:]]}"
    )


def tab_to(driver: WebDriver, testid: str, where: str) -> dict:
    """Press Tab until the element with this test id has focus."""
    focused = probe(driver, "active")
    for _ in range(MAX_TABS):
        if focused is not None and focused["codeEditor"]:
            press(driver, Keys.ESCAPE)
        press(driver, Keys.TAB)
        focused = focused_now(driver)
        if focused is not None and focused["testid"] == testid:
            check_focus_shown(focused, where)
            return focused
    raise AssertionError(f"{where}: Tab never reached [data-testid={testid}]")
