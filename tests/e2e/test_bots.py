"""Weir end to end, Bots & webhooks (after `test_app.py`, on the demo organization).

A bot is created; its key is in the Secret Service (and, as `tests/tests/e2e.rs` checks
after the run, in no file of the app); Reveal shows it and Copy puts it on the clipboard;
a built URL works; Hello World reaches a stream and the owner with its emoji and bold
link; a hostile payload runs no script and leaves no event-handler attribute in the
preview; every Bitbucket fixture is sent, with the missing-header case and the owner's
notice; a dry run shows the same HTML as the real send; the preview shows math (KaTeX),
highlighted code and emoji as Zulip does, in both themes; a regenerated key lists the URL
built before.
"""

from __future__ import annotations

import json
import tkinter
import urllib.request

import pytest
import secretstorage
from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from a11y import axe_themes, probe, set_theme, settle, tab_to
from a11y import press as press_key
from conftest import E2EEnv
from test_app import Ui, content

# The demo account's keyring site (its server's port changes at every start).
DEMO_SITE = "weir-embedded-demo"
HELLO = {"featured_title": "Tea", "featured_url": "https://en.wikipedia.org/wiki/Tea"}
HOSTILE_STREAM = '<img src=x onerror="window.__weirPwned=4">'
# Hello World puts the title into its Markdown as is: this one closes the link and adds
# a table, inline and display math, highlighted code and an emoji.
RICH_TITLE = (
    "Tea](https://en.wikipedia.org/wiki/Tea)** :tada:\n\n"
    "| Tea | Origin |\n| --- | --- |\n| Sencha | Japan |\n| Darjeeling | India |\n\n"
    "Steeping time: $$t = \\frac{m}{k} \\sqrt{T}$$\n\n"
    "```math\n\\int_0^\\infty e^{-x^2} \\, dx = \\frac{\\sqrt{\\pi}}{2}\n```\n\n"
    # One-space indents: the editor check compares text with whitespace collapsed.
    "```python\ndef brew(tea: str, minutes: int = 3) -> str:\n"
    " # steep, then pour\n return f\"{tea} after {minutes} min\"\n```\n\n"
    "**[More"
)

flow: dict[str, object] = {}


@pytest.fixture
def ui(driver, e2e: E2EEnv) -> Ui:
    return Ui(driver, e2e)


def clipboard() -> str:
    """The X clipboard's text, read as another application would."""
    root = tkinter.Tk()
    root.withdraw()
    try:
        return root.clipboard_get()
    finally:
        root.destroy()


def keyring_items(e2e: E2EEnv) -> dict[str, bytes]:
    connection = secretstorage.dbus_init()
    try:
        found = {}
        for item in secretstorage.search_items(connection, {"service": e2e.keyring_service}):
            if item.is_locked():
                item.unlock()
            found[item.get_attributes().get("username", "")] = item.get_secret()
        return found
    finally:
        connection.close()


def set_body(ui: Ui, text: str) -> None:
    """Replaces the JSON editor's text by typing, as a person would."""
    editor = ui.one("webhook-body")
    # Focused from script: a click can land on the result panel's live region instead.
    ui.driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", editor)
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    editor.send_keys(text)
    ui.wait(
        lambda d: json.loads(content(editor) or "null") == json.loads(text),
        "the editor to hold the typed body",
    )


def set_input(ui: Ui, name: str, text: str) -> None:
    """Replaces an input's text by keys (so the page sees `input` events)."""
    field = ui.one(name)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    if text:
        field.send_keys(text)
    ui.wait(lambda d: field.get_property("value") == text, f"[data-testid={name}] to read {text!r}")


def press(ui: Ui, element) -> None:
    """Clicks a button after bringing it to the middle of the view (the workbench is taller
    than the window; WebKitWebDriver refuses clicks it cannot place)."""
    ui.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    try:
        element.click()
    except ElementNotInteractableException:
        ui.driver.execute_script("arguments[0].click()", element)


def result_seq(ui: Ui) -> int:
    results = ui.all("webhook-result")
    return int(results[0].get_attribute("data-seq")) if results else -1


def send_and_wait(ui: Ui, button: str) -> str:
    """Clicks Send or Dry run and waits for this result's status."""
    before = result_seq(ui)
    press(ui, ui.one(button))
    ui.wait(lambda d: result_seq(ui) > before, f"a new result after {button}")
    return content(ui.one("webhook-status"))


def preview_html(ui: Ui) -> list[str]:
    return ui.driver.execute_script(
        "return [...document.querySelectorAll("
        "'[data-testid=message-preview] .message-content')].map(e => e.innerHTML)"
    )


def bot_row(ui: Ui):
    return ui.one(f"bot-{flow['bot_id']}")


def row_notice(row) -> str:
    """The notice shown in a bot's row, beside the button that caused it ("" for none)."""
    notices = row.find_elements(By.CSS_SELECTOR, '[data-testid="bot-notice"]')
    return content(notices[0]) if notices else ""


@pytest.mark.incremental
class TestBotsAndWebhooks:
    def test_create_a_bot(self, ui: Ui):
        ui.go("bots")
        set_input(ui, "bot-full-name", "E2E Relay")
        set_input(ui, "bot-short-name", "e2erelay")
        press(ui, ui.one("create-bot"))
        row = ui.wait(
            lambda d: [r for r in ui.bot_rows() if "E2E Relay" in content(r)] or False,
            "the new bot's row",
        )[0]
        flow["bot_id"] = int(row.get_attribute("data-testid").removeprefix("bot-"))
        ui.assert_no_error()
        masked = content(row.find_element(By.CSS_SELECTOR, '[data-testid="bot-key"]'))
        assert "•" in masked, f"the key is not masked: {masked!r}"

    def test_its_key_is_in_the_keyring_and_reveal_shows_it(self, ui: Ui, e2e: E2EEnv):
        user = f"bot-{flow['bot_id']}@{DEMO_SITE}"
        items = keyring_items(e2e)
        assert user in items, f"no keyring item {user!r}: {sorted(items)}"
        key = items[user].decode()
        assert len(key) == 32
        flow["key"] = key
        row = bot_row(ui)
        assert key not in (row.get_property("textContent") or "")
        press(ui, row.find_element(By.CSS_SELECTOR, '[data-testid="reveal-key"]'))
        ui.wait(
            lambda d: content(bot_row(ui).find_element(By.CSS_SELECTOR, '[data-testid="bot-key"]'))
            == key,
            "Reveal to show the key",
        )

    def test_copy_puts_the_key_on_the_clipboard(self, ui: Ui):
        press(ui, bot_row(ui).find_element(By.CSS_SELECTOR, '[data-testid="copy-key"]'))
        ui.wait(lambda d: "copied" in row_notice(bot_row(ui)), "the copy notice in the bot's row")
        assert clipboard() == flow["key"]

    def test_a_built_url_works(self, ui: Ui):
        Select(ui.one("webhook-bot")).select_by_value(str(flow["bot_id"]))
        Select(ui.one("webhook-integration")).select_by_value("helloworld")
        set_input(ui, "webhook-stream", "general")
        set_input(ui, "webhook-topic", "")
        ui.wait(lambda d: "stream=general" in ui.text_of("webhook-url"), "the URL to follow")
        shown = ui.text_of("webhook-url")
        assert "api_key=********" in shown and flow["key"] not in shown, shown
        press(ui, ui.one("copy-webhook-url"))
        ui.wait(
            lambda d: "Webhook URL copied" in ui.text_of("copy-url-notice"),
            "the URL copy notice beside Copy URL",
        )
        url = clipboard()
        assert url.startswith("http://127.0.0.1:") and f"api_key={flow['key']}" in url, url
        request = urllib.request.Request(
            url,
            data=json.dumps(HELLO).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 200
            assert json.load(answer)["result"] == "success"

    def test_hello_world_to_a_stream_and_to_the_owner(self, ui: Ui):
        set_body(ui, json.dumps(HELLO))
        assert send_and_wait(ui, "send-webhook") == "200"
        ui.wait(lambda d: "#general" in ui.text_of("message-preview"), "the stream message")
        self.assert_hello(ui)
        set_input(ui, "webhook-stream", "")
        assert send_and_wait(ui, "send-webhook") == "200"
        ui.wait(
            lambda d: "Direct message to" in ui.text_of("message-preview"),
            "the direct message to the owner",
        )
        self.assert_hello(ui)
        ui.assert_no_error()
        ui.screenshot("workbench-hello")

    @staticmethod
    def assert_hello(ui: Ui) -> None:
        preview = ui.one("message-preview")
        emoji = preview.find_elements(By.CSS_SELECTOR, "span.emoji")
        assert emoji and content(emoji[0]) == "🙂", [content(e) for e in emoji]
        link = preview.find_element(By.CSS_SELECTOR, "strong > a")
        assert link.get_attribute("href") == HELLO["featured_url"]
        assert content(link) == "Tea"

    # Before the hostile payload: a bot's owner hears of failures at most once per five
    # minutes (Zulip's rule), and this test needs its missing-header notice.
    def test_send_every_bitbucket_fixture(self, ui: Ui):
        Select(ui.one("webhook-integration")).select_by_value("bitbucket2")
        set_input(ui, "webhook-stream", "general")
        fixtures = len(Select(ui.one("webhook-fixture")).options) - 1
        press(ui, ui.one("send-all-fixtures"))
        ui.wait(
            lambda d: len(ui.all("fixture-status")) == fixtures + 1,
            f"{fixtures} fixtures and the missing-header case",
        )
        statuses = [content(cell) for cell in ui.all("fixture-status")]
        assert statuses[:-1] == ["200"] * fixtures, statuses
        assert statuses[-1] == "400", statuses
        rows = ui.all("fixture-result")
        assert "without X-Event-Key" in content(rows[-1])
        press(ui, rows[-1].find_element(By.CSS_SELECTOR, "button"))
        ui.wait(
            lambda d: "X-Event-Key" in ui.text_of("message-preview")
            and "Notification" in ui.text_of("message-preview"),
            "the owner's notice about the missing header",
        )
        axe_themes(ui.driver, "bots workbench, fixture results and the owner's notice")
        ui.screenshot("workbench-fixtures")

    def test_a_hostile_payload_runs_no_script(self, ui: Ui):
        hostile = {
            "featured_title": '<script>window.__weirPwned=1</script><b onclick="x()">T</b>',
            "featured_url": "javascript:window.__weirPwned=3",
        }
        Select(ui.one("webhook-integration")).select_by_value("helloworld")
        set_input(ui, "webhook-stream", "general")
        set_input(ui, "webhook-topic", '<img src=x onerror="window.__weirPwned=2">')
        set_body(ui, json.dumps(hostile))
        assert send_and_wait(ui, "send-webhook") == "200"
        ui.wait(lambda d: "#general" in ui.text_of("message-preview"), "the hostile message")
        set_input(ui, "webhook-topic", "")
        set_input(ui, "webhook-stream", HOSTILE_STREAM)
        # Whatever the server makes of the name (a notice about a missing stream, with
        # the name escaped; a refusal; or nothing, within five minutes of the owner's
        # last notice), the preview must stay inert.
        send_and_wait(ui, "send-webhook")
        found = ui.driver.execute_script(
            """
            const root = document.querySelector('[data-testid=message-preview]');
            const all = [...root.querySelectorAll('*')];
            return {
              pwned: window.__weirPwned ?? null,
              scripts: root.querySelectorAll('script, img, iframe, object, svg').length,
              handlers: all.flatMap(e => [...e.attributes].map(a => a.name))
                .filter(n => n.startsWith('on')),
              links: all.filter(e => e.hasAttribute('href')).map(e => e.getAttribute('href')),
            };
            """
        )
        assert found["pwned"] is None, found
        assert found["scripts"] == 0 and found["handlers"] == [], found
        assert all(not h.lower().startswith("javascript:") for h in found["links"]), found
        ui.screenshot("workbench-hostile")

    def test_dry_run_and_real_send_give_the_same_html(self, ui: Ui):
        set_input(ui, "webhook-stream", "general")
        set_body(ui, json.dumps(HELLO))
        # By keyboard: the button disables itself while it runs, and focus comes back to
        # it afterwards instead of staying lost on the page.
        before = result_seq(ui)
        tab_to(ui.driver, "dry-run", "workbench by keyboard")
        press_key(ui.driver, Keys.ENTER)
        ui.wait(lambda d: result_seq(ui) > before, "a new result after Dry run by keyboard")
        assert content(ui.one("webhook-status")) == "200"
        ui.wait(
            lambda d: (probe(d, "active") or {}).get("testid") == "dry-run",
            "focus back on Dry run after it ran",
        )
        dry = preview_html(ui)
        axe_themes(ui.driver, "bots workbench, dry-run preview")
        assert send_and_wait(ui, "send-webhook") == "200"
        ui.wait(lambda d: "#general" in ui.text_of("message-preview"), "the sent message")
        sent = preview_html(ui)
        assert dry and dry == sent, f"dry run {dry!r} != sent {sent!r}"

    def test_the_preview_shows_math_code_and_emoji_as_zulip_does(self, ui: Ui):
        set_input(ui, "webhook-stream", "general")
        set_body(ui, json.dumps({"featured_title": RICH_TITLE, "featured_url": HELLO["featured_url"]}))
        assert send_and_wait(ui, "dry-run") == "200"
        ui.wait(
            lambda d: ui.one("message-preview").find_elements(By.CSS_SELECTOR, ".katex-display"),
            "the math in the preview",
        )
        found = ui.driver.execute_script(
            """
            const root = document.querySelector('[data-testid=message-preview]');
            const style = (selector) => getComputedStyle(root.querySelector(selector));
            return {
              formulas: root.querySelectorAll('.katex').length,
              display: root.querySelectorAll('.katex-display').length,
              errors: root.querySelectorAll('.tex-error').length,
              mathFont: style('.katex').fontFamily,
              keywords: [...root.querySelectorAll('.codehilite .k')].map(e => e.textContent),
              functions: [...root.querySelectorAll('.codehilite .nf')].map(e => e.textContent),
              comments: [...root.querySelectorAll('.codehilite .c1')].map(e => e.textContent),
              keywordColor: style('.codehilite .k').color,
              codeColor: style('.codehilite code').color,
              emoji: [...root.querySelectorAll('span.emoji')].map(e => e.textContent),
              cells: [...root.querySelectorAll('table td')].map(e => e.textContent),
            };
            """
        )
        assert found["formulas"] == 2 and found["display"] == 1, found
        assert found["errors"] == 0, found
        assert found["cells"] == ["Sencha", "Japan", "Darjeeling", "India"], found
        assert "KaTeX_Main" in found["mathFont"], found
        assert found["keywords"] == ["def", "return"], found
        assert found["functions"] == ["brew"], found
        assert found["comments"] == ["# steep, then pour"], found
        assert found["keywordColor"] != found["codeColor"], found
        assert "🎉" in found["emoji"], found
        axe_themes(ui.driver, "bots workbench, math, code and emoji preview")
        ui.driver.execute_script(
            "document.querySelector('[data-testid=message-preview]')"
            ".scrollIntoView({block: 'start'})"
        )
        try:
            for theme in ("light", "dark"):
                set_theme(ui.driver, theme)
                settle(ui.driver)
                ui.screenshot(f"workbench-preview-{theme}")
        finally:
            set_theme(ui.driver, None)

    def test_regenerating_the_key_lists_the_built_url(self, ui: Ui, e2e: E2EEnv):
        press(ui, bot_row(ui).find_element(By.CSS_SELECTOR, '[data-testid="regenerate-key"]'))
        dialog = ui.one("bot-action-dialog")
        [button] = [
            b for b in dialog.find_elements(By.TAG_NAME, "button") if content(b) == "Regenerate key"
        ]
        press(ui, button)
        ui.wait(lambda d: ui.all("rotation-url"), "the rotation list")
        urls = [content(e) for e in ui.all("rotation-url")]
        assert any("helloworld" in u and "stream=general" in u for u in urls), urls
        new_key = keyring_items(e2e)[f"bot-{flow['bot_id']}@{DEMO_SITE}"].decode()
        assert new_key != flow["key"], "the keyring still holds the old key"
        ui.assert_no_error()
        ui.screenshot("bots-rotation")
