"""The webhook workbench says what happens (issue 38), on the demo organization.

A misspelled channel is flagged as one types, with the channel it most likely meant;
the dry run and the real send say that nothing was posted and why (no such channel: the
owner is told instead, at most once per five minutes); the suggestion fixes the name.
The events table's Only and Exclude boxes are clicked as a person clicks them; raw
Markdown is rendered by the server with a table's alignment kept. At 1280 × 800 and
1024 × 700 no page of the app's own (accounts, local server, bots) scrolls sideways, and
the events table shows its header and both box columns. The workbench is photographed at
both sizes in both themes
(`docs/screenshots/workbench-<size>-<theme>.png`)."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from a11y import axe_themes, set_theme
from test_app import DEMO_LABEL, DEMO_REALM, Ui, content
from test_bots import HELLO, press, send_and_wait, set_body, set_input

SIZES = ((1280, 800), (1024, 700))
SIDEWAYS = """
const main = document.querySelector('[data-testid=main]');
const root = document.documentElement;
return [root.scrollWidth - root.clientWidth, main.scrollWidth - main.clientWidth];
"""
# What sticks out of the main area on the right (the widest first), for the report.
WIDEST = """
const edge = document.querySelector('[data-testid=main]').getBoundingClientRect().right;
return [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > edge + 1 && !e.closest('.table-wrap'))
  .slice(0, 5).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right - edge)}px`);
"""


# The events table's header cells and each row's boxes against the fieldset's edges.
EVENTS_TABLE = """
const box = document.querySelector('fieldset.events');
const edge = box.getBoundingClientRect();
const heads = [...box.querySelectorAll('thead th')].map((e) => e.getBoundingClientRect());
const boxes = [...box.querySelectorAll('tbody input')].map((e) => e.getBoundingClientRect());
const names = [...box.querySelectorAll('tbody th .mono:first-child')];
return {
  heads: heads.map((r) => [r.left >= edge.left - 1, r.right <= edge.right + 1, r.width]),
  boxes: boxes.every((r) => r.left >= edge.left - 1 && r.right <= edge.right + 1),
  // Lines per event name: wrapped word by word, the longest takes three at most.
  lines: Math.max(...names.map((e) => Math.round(e.getBoundingClientRect().height /
    (parseFloat(getComputedStyle(e).lineHeight) || 1.2 * parseFloat(getComputedStyle(e).fontSize))))),
};
"""


def events_table_in_view(ui: Ui, width: int) -> None:
    """The header's three cells and every box inside the fieldset; names wrap between
    words, in at most three lines."""
    table = ui.driver.execute_script(EVENTS_TABLE)
    print(f"events table at {width}: {table}")
    assert len(table["heads"]) == 3 and all(a and b and w > 0 for a, b, w in table["heads"]), table
    assert table["boxes"], f"a box sticks out of the events table at {width}: {table}"
    assert table["lines"] <= 3, f"event names wrap into {table['lines']} lines at {width}"


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


def stream_error(ui: Ui) -> str:
    """The stream field's error, as its `aria-describedby` names it ("" for none)."""
    return ui.driver.execute_script(
        "const input = document.querySelector('[data-testid=webhook-stream]');"
        "const ids = (input.getAttribute('aria-describedby') || '').split(' ');"
        "return ids.map((id) => document.getElementById(id)?.textContent || '').join(' ');"
    )


def demo_active(ui: Ui) -> None:
    ui.go("accounts")
    demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
    assert len(demo) == 1, [content(r) for r in ui.account_rows()]
    switch = ui.all("account-switch", within=demo[0])
    if switch:
        switch[0].click()
    ui.go("memberships")
    ui.wait_text("realm-name", DEMO_REALM)


@pytest.mark.incremental
class TestWorkbench:
    def test_a_misspelled_channel_is_flagged_before_sending(self, ui: Ui):
        demo_active(ui)
        ui.go("bots")
        Select(ui.one("webhook-integration")).select_by_value("helloworld")
        set_input(ui, "webhook-stream", "genral")
        ui.wait(lambda d: "No such channel" in stream_error(ui), "the stream field's flag")
        assert ui.one("webhook-stream").get_attribute("aria-invalid") == "true"
        assert "at most once per five minutes" in stream_error(ui), stream_error(ui)
        assert content(ui.one("webhook-stream-suggestion")) == "#general"
        ui.screenshot("workbench-misspelled-channel")

    def test_the_dry_run_and_the_send_say_why_nothing_was_posted(self, ui: Ui):
        set_body(ui, json.dumps(HELLO))
        assert send_and_wait(ui, "dry-run") == "200"
        reason = ui.text_of("no-message-reason")
        assert "no such channel" in reason and "genral" in reason, reason
        preview = ui.text_of("message-preview")
        assert "#genral >" not in preview, f"a message to #genral was previewed: {preview}"
        assert "does not exist" in preview, f"no preview of the owner's notice: {preview}"
        assert send_and_wait(ui, "send-webhook") == "200"
        reason = ui.text_of("no-message-reason")
        assert "no such channel" in reason, reason
        assert "told the bot’s owner" in reason or "suppressed" in reason, reason
        assert "no message" in ui.text_of("send-notice"), ui.text_of("send-notice")
        ui.assert_no_error()

    def test_the_suggestion_fixes_the_name(self, ui: Ui):
        press(ui, ui.one("webhook-stream-suggestion"))
        ui.wait(
            lambda d: ui.one("webhook-stream").get_property("value") == "general",
            "the suggestion to fill the field",
        )
        assert stream_error(ui).strip() == "", stream_error(ui)
        assert send_and_wait(ui, "send-webhook") == "200"
        ui.wait(lambda d: "#general" in ui.text_of("message-preview"), "the stream message")
        changes = [content(row) for row in ui.all("history-changes")]
        assert "stream “genral” → “general”" in changes[0], changes

    def test_the_event_boxes_are_clicked_in_view(self, ui: Ui):
        Select(ui.one("webhook-integration")).select_by_value("bitbucket2")
        for name in ("only-event-push", "exclude-event-pull_request_created"):
            box = ui.one(name)
            press(ui, box)
            ui.wait(lambda d, box=box: box.is_selected(), f"[data-testid={name}] to be checked")
            table = box.find_element(By.XPATH, "ancestor::fieldset")
            right = box.rect["x"] + box.rect["width"]
            edge = table.rect["x"] + table.rect["width"]
            assert right <= edge, f"{name} is clipped: {right} > {edge}"
        header = ui.one("event-header-push")
        assert content(header) == "repo:push", content(header)
        assert header.get_attribute("title") == "X-Event-Key: repo:push"
        ui.wait(lambda d: "exclude_events=" in ui.text_of("webhook-url"), "the filters in the URL")

    def test_raw_markdown_keeps_a_tables_alignment(self, ui: Ui):
        press(ui, ui.one("workbench-mode-markdown"))
        field = ui.one("markdown-input")
        for index, line in enumerate(["| Tea | Grams |", "| :-- | --: |", "| Sencha | 3 |"]):
            if index:
                field.send_keys(Keys.ENTER)
            field.send_keys(line)
        ui.wait(
            lambda d: ui.driver.execute_script(
                "return [...document.querySelectorAll("
                "'[data-testid=markdown-preview] td')].map(e => e.style.textAlign)"
            )
            == ["left", "right"],
            "the rendered table with its alignment",
        )
        axe_themes(ui.driver, "bots workbench, raw Markdown")
        press(ui, ui.one("workbench-mode-payload"))

    def test_no_page_scrolls_sideways_and_the_workbench_at_two_sizes(self, ui: Ui):
        before = ui.driver.get_window_size()
        try:
            for width, height in SIZES:
                ui.driver.set_window_size(width, height)
                ui.wait(
                    lambda d, w=width: d.execute_script("return window.outerWidth") <= w + 2,
                    f"the window to be {width} wide",
                )
                for page in ("accounts", "local-server", "bots"):
                    ui.go(page)
                    ui.settle()
                    overflow = ui.driver.execute_script(SIDEWAYS)
                    widest = ui.driver.execute_script(WIDEST)
                    print(f"{page} at {width}: overflow {overflow}, {widest}")
                    assert max(overflow) <= 0, f"{page} scrolls sideways at {width}: {widest}"
                Select(ui.one("webhook-integration")).select_by_value("bitbucket2")
                set_input(ui, "webhook-stream", "genral")
                ui.wait(lambda d: "No such channel" in stream_error(ui), "the flag")
                overflow = ui.driver.execute_script(SIDEWAYS)
                widest = ui.driver.execute_script(WIDEST)
                assert max(overflow) <= 0, f"the workbench scrolls sideways at {width}: {widest}"
                events_table_in_view(ui, width)
                ui.driver.execute_script(
                    "document.querySelector('[data-testid=webhook-stream]')"
                    ".scrollIntoView({block: 'start'})"
                )
                for theme in ("light", "dark"):
                    set_theme(ui.driver, theme)
                    ui.screenshot(f"workbench-{width}x{height}-{theme}")
                set_theme(ui.driver, None)
        finally:
            set_theme(ui.driver, None)
            ui.driver.set_window_size(before["width"], before["height"])
        ui.assert_no_error()
