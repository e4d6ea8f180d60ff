"""Zulip's official Python client against Weir's embedded server.

Run through `cargo test -p weir-tests --test process -- python_client`, which starts a server
seeded with the standard organization (tests/src/seed.rs) and sets:

    WEIR_SITE          http://127.0.0.1:PORT
    WEIR_OWNER_EMAIL   WEIR_OWNER_KEY    the organization owner (user 101)
    WEIR_MEMBER_EMAIL  WEIR_MEMBER_KEY   a member (user 104, "Mark Member")

Each test builds clients from zuliprc files, as Zulip tools do, and leaves the
subscriptions as it found them so that the tests do not depend on their order.
"""

import os
from typing import Callable

import pytest
import zulip

pytestmark = pytest.mark.skipif(
    not os.environ.get("WEIR_SITE"),
    reason="run through `cargo test -p weir-tests --test process -- python_client`",
)

# Fixed ids of the standard seed (tests/src/seed.rs).
OWNER_ID = 101
MEMBER_ID = 104  # Mark: Engineering, Verona, Café, Secret Plans
MEMBER2_ID = 105  # Nina: Engineering, Design, Verona, Hidden Lair
MEMBER2_EMAIL = "nina@globex.test"
ENGINEERING_SUBSCRIBERS = {101, 102, 104, 105, 201, 202}
ALL_USER_IDS = {101, 102, 103, 104, 105, 106, 107, 201, 202, 203}


@pytest.fixture
def owner(make_client: Callable[[str], zulip.Client]) -> zulip.Client:
    return make_client("OWNER")


@pytest.fixture
def member(make_client: Callable[[str], zulip.Client]) -> zulip.Client:
    return make_client("MEMBER")


def ok(result: dict) -> dict:
    assert result.get("result") == "success", result
    assert result.get("msg") == "", result
    return result


def subscribers(client: zulip.Client, stream: str) -> set:
    return set(ok(client.get_subscribers(stream=stream))["subscribers"])


def test_client_learns_the_feature_level_from_server_settings(member: zulip.Client) -> None:
    # The level the server was started with (the harness runs it at 421 and at 362).
    assert member.feature_level == int(os.environ["WEIR_FEATURE_LEVEL"])
    assert member.zulip_version
    settings = ok(member.get_server_settings())
    assert settings["realm_name"] == "Globex"


def test_remove_subscriptions_for_yourself(member: zulip.Client) -> None:
    result = ok(member.remove_subscriptions(["Engineering"]))
    assert result["removed"] == ["Engineering"]
    assert result["not_removed"] == []
    assert MEMBER_ID not in subscribers(member, "Engineering")

    again = ok(member.remove_subscriptions(["engineering"]))
    assert again["removed"] == []
    assert again["not_removed"] == ["Engineering"]

    back = ok(member.add_subscriptions([{"name": "Engineering"}]))
    assert back["subscribed"] == {str(MEMBER_ID): ["Engineering"]}
    assert subscribers(member, "Engineering") == ENGINEERING_SUBSCRIBERS


def test_remove_subscriptions_with_principals_by_id(owner: zulip.Client) -> None:
    result = ok(owner.remove_subscriptions(["Engineering", "Verona"], principals=[MEMBER2_ID]))
    assert sorted(result["removed"]) == ["Engineering", "Verona"]
    assert result["not_removed"] == []
    assert MEMBER2_ID not in subscribers(owner, "Engineering")
    assert MEMBER2_ID not in subscribers(owner, "Verona")

    back = ok(
        owner.add_subscriptions(
            [{"name": "Engineering"}, {"name": "Verona"}], principals=[MEMBER2_ID]
        )
    )
    assert sorted(back["subscribed"][str(MEMBER2_ID)]) == ["Engineering", "Verona"]
    assert subscribers(owner, "Engineering") == ENGINEERING_SUBSCRIBERS


def test_remove_subscriptions_with_principals_by_email(owner: zulip.Client) -> None:
    result = ok(owner.remove_subscriptions(["Design"], principals=[MEMBER2_EMAIL.upper()]))
    assert result["removed"] == ["Design"]
    assert MEMBER2_ID not in subscribers(owner, "Design")

    back = ok(owner.add_subscriptions([{"name": "Design"}], principals=[MEMBER2_EMAIL]))
    assert back["subscribed"] == {str(MEMBER2_ID): ["Design"]}
    assert back["already_subscribed"] == {}


def test_remove_subscriptions_reports_a_missing_stream(member: zulip.Client) -> None:
    result = member.remove_subscriptions(["Engineering", "No Such Stream"])
    assert result["result"] == "error", result
    assert result["code"] == "STREAM_DOES_NOT_EXIST", result
    assert result["stream"] == "No Such Stream", result
    assert MEMBER_ID in subscribers(member, "Engineering")


def test_a_member_cannot_remove_someone_else(member: zulip.Client) -> None:
    result = member.remove_subscriptions(["Engineering"], principals=[MEMBER2_ID])
    assert result["result"] == "error", result
    assert result["msg"] == "Insufficient permission", result
    assert MEMBER2_ID in subscribers(member, "Engineering")


def test_add_subscriptions_creates_a_stream(member: zulip.Client, owner: zulip.Client) -> None:
    result = ok(member.add_subscriptions([{"name": "Python Client Lab", "description": "pytest"}]))
    assert result["subscribed"] == {str(MEMBER_ID): ["Python Client Lab"]}
    assert subscribers(member, "Python Client Lab") == {MEMBER_ID}
    ok(member.remove_subscriptions(["Python Client Lab"]))
    assert subscribers(owner, "Python Client Lab") == set()


def test_get_streams(member: zulip.Client) -> None:
    streams = ok(member.get_streams())["streams"]
    names = [s["name"] for s in streams]
    # Other tests leave the public streams they created behind.
    visible = set(names) - {"Python Client Lab", "python-test"}
    assert visible == {"Café", "Design", "Empty Room", "Engineering", "Secret Plans", "Verona"}
    assert "Hidden Lair" not in names
    engineering = next(s for s in streams if s["name"] == "Engineering")
    assert engineering["stream_id"] == 11
    assert engineering["invite_only"] is False


def test_get_members(member: zulip.Client) -> None:
    members = ok(member.get_members())["members"]
    by_id = {m["user_id"]: m for m in members}
    assert set(by_id) == ALL_USER_IDS
    assert by_id[OWNER_ID]["role"] == 100
    assert by_id[OWNER_ID]["is_owner"] is True
    assert by_id[106]["is_guest"] is True
    assert by_id[107]["is_active"] is False
    assert by_id[201]["bot_type"] == 2
    assert by_id[201]["bot_owner_id"] == MEMBER_ID


def test_get_subscribers(member: zulip.Client) -> None:
    assert subscribers(member, "Secret Plans") == {101, 104, 202}
    result = member.get_subscribers(stream="Hidden Lair")
    assert result["result"] == "error", result
