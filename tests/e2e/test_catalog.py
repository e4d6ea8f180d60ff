"""The integration catalog (issue 36), after `test_bots.py` on the demo organization.

On the demo's local server the workbench sends every GitHub sample offline, each with its
`X-GitHub-Event` header, plus the missing-header case, and previews a push. Then, on the
second account, whose headless weir-server answers as Zulip 12 (feature level 500: its
catalog's URL options are `url_options` with `input_type`, where the demo's server at its
default, 421, sends them with `validator`), the URL builder finds GitHub by typing in its
filter box, and the event filters and URL options chosen reach the URL. Ends on the demo
account."""

from __future__ import annotations

import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from a11y import axe_themes
from test_app import DEMO_LABEL, DEMO_REALM, Ui, content
from test_bots import press, set_input
from test_groups_second import switch_to

# Relay, the member's incoming-webhook bot in the standard seed (tests/src/seed.rs).
RELAY = 201


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


def tick(ui: Ui, name: str) -> None:
    """Clicks a checkbox as a person does (the events table keeps both of its columns in
    view, issue 38) and waits for it to be checked."""
    box = ui.one(name)
    press(ui, box)
    ui.wait(lambda d: box.is_selected(), f"[data-testid={name}] to be checked")


@pytest.mark.incremental
class TestIntegrationCatalog:
    def test_every_github_sample_is_sent_offline_and_previewed(self, ui: Ui):
        ui.go("bots")
        Select(ui.one("webhook-integration")).select_by_value("github")
        set_input(ui, "webhook-stream", "general")
        fixtures = len(Select(ui.one("webhook-fixture")).options) - 1
        assert fixtures >= 5, f"only {fixtures} GitHub samples"
        press(ui, ui.one("send-all-fixtures"))
        ui.wait(
            lambda d: len(ui.all("fixture-status")) == fixtures + 1,
            f"{fixtures} samples and the missing-header case",
        )
        statuses = [content(cell) for cell in ui.all("fixture-status")]
        assert statuses[:-1] == ["200"] * fixtures, statuses
        assert statuses[-1] == "400", statuses
        rows = ui.all("fixture-result")
        assert "X-GitHub-Event" in content(rows[-1]), content(rows[-1])
        labels = [content(row.find_element(By.CSS_SELECTOR, "th")) for row in rows]
        push = [row for row, label in zip(rows, labels) if label.split()[0] == "push"]
        assert push, labels
        press(ui, push[0].find_element(By.CSS_SELECTOR, "button"))
        ui.wait(lambda d: "pushed" in ui.text_of("message-preview"), "the push's preview")
        ui.assert_no_error()
        axe_themes(ui.driver, "bots workbench, GitHub samples")
        ui.screenshot("workbench-github")

    def test_the_url_builder_reads_a_zulip_12_catalog(self, ui: Ui):
        switch_to(ui, ui.e2e.email)
        ui.go("bots")
        Select(ui.one("webhook-bot")).select_by_value(str(RELAY))
        search = ui.one("webhook-integration-search")
        search.send_keys("GitHub")
        search.send_keys(Keys.ENTER)
        ui.wait(
            lambda d: Select(ui.one("webhook-integration")).first_selected_option.get_attribute(
                "value"
            )
            == "github",
            "GitHub to be chosen from the filter box",
        )
        chosen = Select(ui.one("webhook-integration")).first_selected_option
        assert "GitHub" in content(chosen), content(chosen)
        set_input(ui, "webhook-stream", "Verona")
        tick(ui, "only-event-push_commits")
        tick(ui, "exclude-event-issues")
        boolean = ui.one("webhook-option-ignore_private_repositories")
        assert boolean.get_attribute("type") == "checkbox"
        tick(ui, "webhook-option-ignore_private_repositories")
        assert ui.one("webhook-option-branches").get_attribute("type") == "text"
        set_input(ui, "webhook-option-branches", "main")

        def url() -> str:
            return urllib.parse.unquote(ui.text_of("webhook-url"))

        ui.wait(
            lambda d: '"push_commits"' in url()
            and "only_events=" in url()
            and "exclude_events=" in url()
            and "ignore_private_repositories=true" in url()
            and "branches=main" in url(),
            "the filters and options to reach the URL",
        )
        assert "/api/v1/external/github?" in url(), url()
        ui.assert_no_error()
        ui.screenshot("url-builder-zulip-12")

    def test_switch_back_to_the_demo(self, ui: Ui):
        ui.go("accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, [content(r) for r in ui.account_rows()]
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(lambda d: DEMO_REALM in ui.text_of("active-account"), "the demo to be active")
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.assert_no_error()
