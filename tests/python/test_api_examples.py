"""The official Python client's documented examples, against Weir.

Zulip's API documentation shows, for each endpoint, how to call it with the `zulip`
package; these tests make the same calls for the endpoints Weir implements and check
each answer against Zulip's OpenAPI document (`openapi_check.py`), as Zulip's own
`tools/test-api` does. Run through `cargo test -p weir-tests --test process -- python_client`.
"""

import os
from typing import Callable

import pytest
import zulip

from openapi_check import validate_against_openapi_schema

pytestmark = pytest.mark.skipif(
    not os.environ.get("WEIR_SITE"),
    reason="run through `cargo test -p weir-tests --test process -- python_client`",
)

# The standard seed (tests/src/seed.rs).
MEMBER_ID = 104
MEMBER2_ID = 105
MEMBER2_EMAIL = "nina@globex.test"


@pytest.fixture
def client(make_client: Callable[[str], zulip.Client]) -> zulip.Client:
    """An organization owner, as the examples' `client` (Iago) is an administrator."""
    return make_client("OWNER")


@pytest.fixture
def nonadmin_client(make_client: Callable[[str], zulip.Client]) -> zulip.Client:
    return make_client("MEMBER")


def success(result: dict, path: str, method: str) -> dict:
    assert result["result"] == "success", result
    validate_against_openapi_schema(result, path, method, "200")
    return result


def test_get_members(client: zulip.Client) -> None:
    result = success(client.get_members(), "/users", "get")
    assert any(m["user_id"] == MEMBER_ID for m in result["members"])

    result = success(client.get_members({"client_gravatar": False}), "/users", "get")
    assert result["members"][0]["avatar_url"] is not None

    result = success(client.get_members({"include_custom_profile_fields": True}), "/users", "get")
    for member in result["members"]:
        if member["is_bot"]:
            assert member.get("profile_data", None) is None
        else:
            assert member.get("profile_data", None) is not None
        assert member["avatar_url"] is None


def test_get_profile(client: zulip.Client) -> None:
    result = success(client.get_profile(), "/users/me", "get")
    assert result["email"] == os.environ["WEIR_OWNER_EMAIL"]
    assert "bot_type" not in result


def test_get_single_user(client: zulip.Client) -> None:
    result = success(client.get_user_by_id(MEMBER2_ID), "/users/{user_id}", "get")
    assert result["user"]["email"] == MEMBER2_EMAIL
    result = success(
        client.get_user_by_id(MEMBER2_ID, include_custom_profile_fields=True),
        "/users/{user_id}",
        "get",
    )
    assert result["user"]["profile_data"] == {}


def test_get_user_by_email(client: zulip.Client) -> None:
    result = client.call_endpoint(url=f"/users/{MEMBER2_EMAIL}", method="GET")
    success(result, "/users/{email}", "get")
    assert result["user"]["user_id"] == MEMBER2_ID


def test_get_streams(client: zulip.Client) -> None:
    result = success(client.get_streams(), "/streams", "get")
    assert any(s["name"] == "Engineering" for s in result["streams"])
    result = success(client.get_streams(include_public=False), "/streams", "get")
    subscribed = {s["name"] for s in result["streams"]}
    assert subscribed >= {"Engineering", "Secret Plans", "Verona"}
    assert "Design" not in subscribed


def test_get_subscriptions(client: zulip.Client) -> None:
    result = success(client.get_subscriptions(), "/users/me/subscriptions", "get")
    streams = [s for s in result["subscriptions"] if s["name"] == "Engineering"]
    assert streams[0]["description"] == "The Engineering stream"
    assert streams[0]["color"].startswith("#")


def test_add_subscriptions(client: zulip.Client) -> None:
    result = client.add_subscriptions(
        streams=[{"name": "python-test", "description": "Channel for testing Python"}],
    )
    success(result, "/users/me/subscriptions", "post")
    result = client.add_subscriptions(streams=[{"name": "python-test"}], principals=[MEMBER_ID])
    success(result, "/users/me/subscriptions", "post")
    assert str(MEMBER_ID) in result["subscribed"]

    result = success(client.get_streams(), "/streams", "get")
    streams = [s for s in result["streams"] if s["name"] == "python-test"]
    assert streams[0]["description"] == "Channel for testing Python"
    client.remove_subscriptions(["python-test"], principals=[MEMBER_ID])
    client.remove_subscriptions(["python-test"])


def test_authorization_errors_fatal(client: zulip.Client, nonadmin_client: zulip.Client) -> None:
    client.add_subscriptions(streams=[{"name": "private-channel"}], invite_only=True)
    try:
        result = nonadmin_client.add_subscriptions(
            streams=[{"name": "private-channel"}],
            authorization_errors_fatal=False,
        )
        success(result, "/users/me/subscriptions", "post")
        assert result["unauthorized"] == ["private-channel"]

        result = nonadmin_client.add_subscriptions(
            streams=[{"name": "private-channel"}],
            authorization_errors_fatal=True,
        )
        assert result["result"] == "error", result
        assert result["code"] == "BAD_REQUEST", result
        validate_against_openapi_schema(result, "/users/me/subscriptions", "post", "400")
    finally:
        client.remove_subscriptions(["private-channel"])


def test_send_message_and_get_messages(client: zulip.Client) -> None:
    request = {
        "type": "stream",
        "to": "Verona",
        "topic": "Castle",
        "content": "I come not, friends, to steal away your hearts.",
    }
    result = success(client.send_message(request), "/messages", "post")
    stream_message_id = result["id"]

    request = {
        "type": "private",
        "to": [MEMBER2_ID],
        "content": "With mirth and laughter let old wrinkles come.",
    }
    result = success(client.send_message(request), "/messages", "post")
    direct_message_id = result["id"]

    request = {
        "anchor": "newest",
        "num_before": 100,
        "num_after": 0,
        "narrow": [
            {"operator": "sender", "operand": os.environ["WEIR_OWNER_EMAIL"]},
            {"operator": "channel", "operand": "Verona"},
        ],
    }
    result = success(client.get_messages(request), "/messages", "get")
    assert len(result["messages"]) <= request["num_before"]
    assert [m["id"] for m in result["messages"]] == [stream_message_id]
    assert result["messages"][0]["subject"] == "Castle"

    result = success(
        client.get_messages({"message_ids": [stream_message_id, direct_message_id]}),
        "/messages",
        "get",
    )
    assert [m["id"] for m in result["messages"]] == [stream_message_id, direct_message_id]

    result = client.send_message({"type": "stream", "to": "nonexistent", "topic": "t", "content": "x"})
    assert result["code"] == "STREAM_DOES_NOT_EXIST", result
    validate_against_openapi_schema(result, "/messages", "post", "400")


def test_register_queue(client: zulip.Client) -> None:
    result = success(client.register(event_types=["message", "realm_emoji"]), "/register", "post")
    assert "max_message_id" in result
    assert result["realm_emoji"] == {}
    result = success(
        client.register(
            event_types=["realm_user", "subscription"],
            fetch_event_types=["realm_user", "subscription"],
            include_subscribers=True,
        ),
        "/register",
        "post",
    )
    assert result["realm_users"] and result["subscriptions"]


def test_user_groups(nonadmin_client: zulip.Client) -> None:
    # A member creates a group (and so manages it), changes it and reads it back.
    request = {"name": "python-team", "description": "pytest", "members": [MEMBER_ID]}
    result = success(nonadmin_client.create_user_group(request), "/user_groups/create", "post")
    group_id = result["group_id"]
    result = success(
        nonadmin_client.update_user_group_members(group_id, {"add": [MEMBER2_ID]}),
        "/user_groups/{user_group_id}/members",
        "post",
    )
    result = success(nonadmin_client.get_user_groups(), "/user_groups", "get")
    group = next(g for g in result["user_groups"] if g["id"] == group_id)
    assert group["members"] == [MEMBER_ID, MEMBER2_ID]
    owners = next(g for g in result["user_groups"] if g["name"] == "role:owners")
    assert owners["is_system_group"] is True
    result = success(
        nonadmin_client.call_endpoint(url=f"user_groups/{group_id}/members", method="GET"),
        "/user_groups/{user_group_id}/members",
        "get",
    )
    assert result["members"] == [MEMBER_ID, MEMBER2_ID]
    result = nonadmin_client.update_user_group_members(group_id, {"add": [MEMBER2_ID]})
    assert result["msg"] == f"User {MEMBER2_ID} is already a member of this group", result
    success(
        nonadmin_client.call_endpoint(url=f"user_groups/{group_id}/deactivate", method="POST"),
        "/user_groups/{user_group_id}/deactivate",
        "post",
    )
