"""Bot keys on a server answering as Zulip 12 (issue 40), after the other steps.

The second account's headless `weir-server` runs at feature level 500, as Zulip 12.x
reports (`tests/tests/process/e2e.rs`): there `GET /bots` lists a bot without its key and
`GET /bots/{id}/api_key` is the way to read one. The member reveals and copies the key of
a bot of theirs that no listing ever carried (so only the key endpoint could give it), and
builds a webhook URL with it that the server accepts. Ends on the demo account."""

from __future__ import annotations

import json
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import E2EEnv
from test_app import DEMO_LABEL, DEMO_REALM, Ui, content
from test_bots import clipboard, press, row_notice, set_input
from test_groups_second import server_get, switch_to

# Relay, the member's incoming-webhook bot in the standard seed (tests/src/seed.rs).
RELAY = 201


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


def relay_row(ui: Ui):
    return ui.one(f"bot-{RELAY}")


@pytest.mark.incremental
class TestBotKeysOnZulip12:
    def test_the_server_answers_as_zulip_12(self, e2e: E2EEnv):
        settings = server_get(e2e, "server_settings")
        assert settings["zulip_feature_level"] >= 474, settings
        listed = server_get(e2e, "bots")["bots"]
        assert listed and all("api_key" not in bot for bot in listed), listed

    def test_the_bots_are_listed_without_keys_in_the_listing(self, ui: Ui):
        switch_to(ui, ui.e2e.email)
        ui.go("bots")
        row = relay_row(ui)
        ui.assert_no_error()
        masked = content(row.find_element(By.CSS_SELECTOR, '[data-testid="bot-key"]'))
        assert "•" in masked, f"the key is not masked: {masked!r}"

    def test_reveal_reads_the_key_from_the_key_endpoint(self, ui: Ui):
        key = server_get(ui.e2e, f"bots/{RELAY}/api_key")["api_key"]
        press(ui, relay_row(ui).find_element(By.CSS_SELECTOR, '[data-testid="reveal-key"]'))
        ui.wait(
            lambda d: content(relay_row(ui).find_element(By.CSS_SELECTOR, '[data-testid="bot-key"]'))
            == key,
            "Reveal to show the key",
        )
        ui.assert_no_error()

    def test_copy_and_a_built_url_work(self, ui: Ui):
        key = server_get(ui.e2e, f"bots/{RELAY}/api_key")["api_key"]
        press(ui, relay_row(ui).find_element(By.CSS_SELECTOR, '[data-testid="copy-key"]'))
        ui.wait(lambda d: "copied" in row_notice(relay_row(ui)), "the copy notice in Relay's row")
        assert clipboard() == key
        Select(ui.one("webhook-bot")).select_by_value(str(RELAY))
        Select(ui.one("webhook-integration")).select_by_value("helloworld")
        set_input(ui, "webhook-stream", "Verona")
        ui.wait(lambda d: "stream=Verona" in ui.text_of("webhook-url"), "the URL to follow")
        assert key not in ui.text_of("webhook-url")
        press(ui, ui.one("copy-webhook-url"))
        ui.wait(
            lambda d: "Webhook URL copied" in ui.text_of("copy-url-notice"),
            "the URL copy notice beside Copy URL",
        )
        url = clipboard()
        assert url.startswith(ui.e2e.site) and f"api_key={key}" in url, url
        body = {"featured_title": "Tea", "featured_url": "https://en.wikipedia.org/wiki/Tea"}
        request = urllib.request.Request(
            url,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 200 and json.load(answer)["result"] == "success"

    def test_switch_back_to_the_demo(self, ui: Ui):
        ui.go("accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, [content(r) for r in ui.account_rows()]
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(lambda d: DEMO_REALM in ui.text_of("active-account"), "the demo to be active")
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.assert_no_error()
