"""The URL builder against a server whose catalog differs in content from the local one
(issue 36), after `test_catalog.py`, from the demo account.

The second account's weir-server is reached through a test double (`catalog_double.py`), a
proxy on a free loopback port that adds integrations of its own to `register`'s
`realm_incoming_webhook_bots` (Quarry CI, with event types and URL options weir-server
has never heard of, and Tollgate, without event filtering) and, when `shared/` is
beside the repository, Zulip's 91 integrations. The member is imported once more, through the double; the
URL builder offers the added integrations, and their event filters and options reach the
URL. Zulip's catalog makes the README's screenshot of the URL builder on a real-sized
catalog. The account is then removed (the key leaves the keyring), and the flow ends on
the demo account, as it began."""

from __future__ import annotations

import base64
import json
import os
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from catalog_double import CatalogDouble, zulip_catalog
from test_app import DEMO_LABEL, DEMO_REALM, Ui, content, is_active
from test_bots import set_input
from test_catalog import RELAY, tick

# Integrations no weir-server has: one with events and both kinds of URL option, in the
# shape Zulip's `integrations.json` uses (the double renames `validator` by level).
QUARRY = {
    "name": "quarry",
    "display_name": "Quarry CI",
    "all_event_types": ["pipeline_started", "pipeline_failed", "deploy_finished"],
    "config_options": [],
    "url_options": [
        {"key": "pipeline", "label": "Only this pipeline", "validator": "check_string"},
        {"key": "notify_on_retry", "label": "Notify on retries", "validator": "check_bool"},
    ],
}
TOLLGATE = {
    "name": "tollgate",
    "display_name": "Tollgate",
    "all_event_types": None,
    "config_options": [],
    "url_options": [],
}

flow: dict[str, object] = {}

# Brings an element to the top of its scrolling ancestor, with its label above it.
SCROLL_TO_TOP = """
const element = arguments[0];
element.scrollIntoView({block: 'start'});
let box = element.parentElement;
while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
if (box) box.scrollTop -= 40; else window.scrollBy(0, -40);
"""


@pytest.fixture(scope="module")
def double(e2e):
    """The proxy in front of the second server, for this file's steps."""
    with CatalogDouble(e2e.site, [QUARRY, TOLLGATE, *zulip_catalog()]) as proxy:
        yield proxy


@pytest.fixture
def ui(driver, e2e) -> Ui:
    return Ui(driver, e2e)


def register_through(double: CatalogDouble, email: str, key: str) -> dict:
    """`POST /register` for the catalog through the double, with the member's key."""
    kinds = json.dumps(["realm_incoming_webhook_bots"])
    data = urllib.parse.urlencode({"fetch_event_types": kinds, "event_types": kinds}).encode()
    request = urllib.request.Request(f"{double.url}/api/v1/register", data=data, method="POST")
    token = base64.b64encode(f"{email}:{key}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def double_row(ui: Ui, double: CatalogDouble):
    rows = [row for row in ui.account_rows() if double.url in content(row)]
    assert len(rows) == 1, [content(r) for r in ui.account_rows()]
    return rows[0]


def webhook_url(ui: Ui) -> str:
    return urllib.parse.unquote(ui.text_of("webhook-url"))


def choose(ui: Ui, typed: str, name: str) -> None:
    """Chooses an integration by typing in the filter box and pressing Enter."""
    search = ui.one("webhook-integration-search")
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.DELETE)
    search.send_keys(typed)
    search.send_keys(Keys.ENTER)
    select = lambda: Select(ui.one("webhook-integration"))  # noqa: E731
    ui.wait(
        lambda d: select().first_selected_option.get_attribute("value") == name,
        f"{name} to be chosen from the filter box",
    )


@pytest.mark.incremental
class TestACatalogThatDiffers:
    def test_the_double_adds_integrations_to_the_servers_catalog(self, ui: Ui, double):
        e2e = ui.e2e
        upstream = register_through(double, e2e.email, e2e.key)
        names = [bot["name"] for bot in upstream["realm_incoming_webhook_bots"]]
        assert len(names) == len(set(names)), names
        assert {"github", "quarry", "tollgate"} <= set(names), names
        quarry = next(b for b in upstream["realm_incoming_webhook_bots"] if b["name"] == "quarry")
        # The second server answers as Zulip 12: the options say `input_type`.
        assert upstream["zulip_feature_level"] >= 485, upstream["zulip_feature_level"]
        assert [o.get("input_type") for o in quarry["url_options"]] == [
            "check_string",
            "check_bool",
        ], quarry
        if zulip_catalog():
            assert len(names) >= 91, len(names)
        flow["catalog_size"] = len(names)

    def test_import_the_member_through_the_double(self, ui: Ui, double):
        e2e = ui.e2e
        zuliprc = e2e.zuliprc.with_name("catalog-zuliprc")
        zuliprc.write_text(f"[api]\nemail={e2e.email}\nkey={e2e.key}\nsite={double.url}\n")
        os.chmod(zuliprc, 0o600)
        ui.go("accounts")
        before = len(ui.account_rows())
        field = ui.one("zuliprc-path")
        field.clear()
        field.send_keys(str(zuliprc))
        ui.wait(lambda d: field.get_attribute("value") == str(zuliprc), "the path to be typed")
        ui.one("zuliprc-import").click()
        ui.wait(lambda d: len(ui.account_rows()) == before + 1, "the account through the double")
        ui.wait(lambda d: is_active(double_row(ui, double)), "it to be the active account")
        ui.one("zuliprc-delete").click()
        ui.wait(lambda d: not zuliprc.exists(), "the plaintext zuliprc to be deleted")
        ui.assert_no_error()

    def test_the_url_builder_offers_what_the_double_added(self, ui: Ui, double):
        ui.go("bots")
        Select(ui.one("webhook-bot")).select_by_value(str(RELAY))
        size = flow["catalog_size"]
        ui.wait(
            lambda d: f"Filter {size} integrations"
            in (ui.one("webhook-integration-search").get_attribute("placeholder") or ""),
            f"the filter box to count the {size} integrations of the double's catalog",
        )
        # The first step's `register`, and at least one of the app's.
        assert double.registers >= 2, "the app did not read the catalog through the double"
        choose(ui, "quarry", "quarry")
        chosen = Select(ui.one("webhook-integration")).first_selected_option
        assert "Quarry CI" in content(chosen), content(chosen)
        # Weir's registry lacks it: the builder says so instead of offering samples.
        assert "Quarry CI" in ui.text_of("webhook-integration-no-samples")
        events = {
            e.get_attribute("data-testid")
            for e in ui.driver.find_elements(By.CSS_SELECTOR, '[data-testid^="only-event-"]')
        }
        assert events == {f"only-event-{e}" for e in QUARRY["all_event_types"]}, events
        set_input(ui, "webhook-stream", "Verona")
        tick(ui, "only-event-pipeline_failed")
        tick(ui, "exclude-event-deploy_finished")
        assert ui.one("webhook-option-notify_on_retry").get_attribute("type") == "checkbox"
        tick(ui, "webhook-option-notify_on_retry")
        assert ui.one("webhook-option-pipeline").get_attribute("type") == "text"
        set_input(ui, "webhook-option-pipeline", "nightly")
        ui.wait(
            lambda d: 'only_events=["pipeline_failed"]' in webhook_url(ui)
            and 'exclude_events=["deploy_finished"]' in webhook_url(ui)
            and "notify_on_retry=true" in webhook_url(ui)
            and "pipeline=nightly" in webhook_url(ui),
            "Quarry's filters and options to reach the URL",
        )
        url = webhook_url(ui)
        assert url.startswith(f"{double.url}/api/v1/external/quarry?"), url
        assert "stream=Verona" in url, url
        ui.assert_no_error()

    def test_an_added_integration_without_events_has_no_filters(self, ui: Ui):
        choose(ui, "tollg", "tollgate")
        ui.wait(
            lambda d: not ui.driver.find_elements(By.CSS_SELECTOR, '[data-testid^="only-event-"]'),
            "Tollgate to have no event filters",
        )
        assert not ui.driver.find_elements(By.CSS_SELECTOR, '[data-testid^="webhook-option-"]')
        ui.wait(
            lambda d: "/api/v1/external/tollgate?" in webhook_url(ui)
            and "only_events" not in webhook_url(ui)
            and "pipeline=" not in webhook_url(ui),
            "a URL for Tollgate without Quarry's parameters",
        )
        ui.assert_no_error()

    def test_the_url_builder_on_zulips_catalog(self, ui: Ui):
        if not zulip_catalog():
            # Not a skip: a skipped step would stop the incremental flow after it.
            print("*** no shared/ beside the repository: Zulip's catalog not served ***")
            return
        # One Weir lacks, with Zulip's event list and a URL option.
        choose(ui, "azure", "azuredevops")
        assert "AzureDevOps" in ui.text_of("webhook-integration-no-samples")
        tick(ui, "only-event-git.push")
        tick(ui, "only-event-git.pullrequest.merged")
        set_input(ui, "webhook-option-branches", "main")
        ui.wait(
            lambda d: 'only_events=["git.push","git.pullrequest.merged"]' in webhook_url(ui)
            and "branches=main" in webhook_url(ui),
            "Azure DevOps' filters and branches to reach the URL",
        )
        # The filter box emptied shows the catalog's size; the bot's field at the top.
        search = ui.one("webhook-integration-search")
        search.send_keys(Keys.ESCAPE)
        ui.wait(lambda d: search.get_property("value") == "", "the filter box to be cleared")
        assert Select(ui.one("webhook-integration")).first_selected_option.get_attribute(
            "value"
        ) == "azuredevops"
        ui.driver.execute_script(SCROLL_TO_TOP, ui.one("webhook-bot"))
        ui.assert_no_error()
        ui.screenshot("url-builder-catalog")

    def test_remove_the_account_and_switch_back_to_the_demo(self, ui: Ui, double):
        ui.go("accounts")
        demo = [row for row in ui.account_rows() if DEMO_LABEL in content(row)]
        assert len(demo) == 1, [content(r) for r in ui.account_rows()]
        ui.all("account-switch", within=demo[0])[0].click()
        ui.wait(lambda d: DEMO_REALM in ui.text_of("active-account"), "the demo to be active")
        before = len(ui.account_rows())
        ui.all("account-remove", within=double_row(ui, double))[0].click()
        dialog = ui.one("remove-account-dialog")
        dialog.find_element(By.CSS_SELECTOR, ".btn-danger").click()
        ui.wait(lambda d: len(ui.account_rows()) == before - 1, "the account to be removed")
        assert not [r for r in ui.account_rows() if double.url in content(r)]
        ui.go("memberships")
        ui.wait_text("realm-name", DEMO_REALM)
        ui.assert_no_error()
