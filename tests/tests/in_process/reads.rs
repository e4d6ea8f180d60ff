//! Read endpoints an admin client needs (`docs/zulip-compatibility.md`: `GET
//! /server_settings`, Users and streams).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

fn by_id(list: &Value) -> BTreeMap<u64, Value> {
    list.as_array()
        .unwrap_or_else(|| panic!("expected a list of users: {list}"))
        .iter()
        .map(|u| {
            (
                u["user_id"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("no user_id: {u}")),
                u.clone(),
            )
        })
        .collect()
}

fn stream_by_name(list: &Value) -> BTreeMap<String, Value> {
    list.as_array()
        .unwrap_or_else(|| panic!("expected a list of streams: {list}"))
        .iter()
        .map(|s| {
            (
                s["name"]
                    .as_str()
                    .unwrap_or_else(|| panic!("no name: {s}"))
                    .to_string(),
                s.clone(),
            )
        })
        .collect()
}

fn role_of(a: &Account) -> u64 {
    match a.id {
        101 => 100,
        102 => 200,
        103 => 300,
        106 => 600,
        _ => 400,
    }
}

fn bot_of(a: &Account) -> Option<(u64, u64)> {
    match a.id {
        201 => Some((2, MEMBER.id)),
        202 => Some((1, MEMBER.id)),
        203 => Some((1, MEMBER2.id)),
        _ => None,
    }
}

#[track_caller]
fn assert_user_record(u: &Value, a: &Account) {
    let role = role_of(a);
    assert_eq!(u["user_id"], a.id, "{u}");
    assert_eq!(u["email"], a.email, "{u}");
    assert_eq!(u["full_name"], a.full_name, "{u}");
    assert_eq!(u["role"], role, "{u}");
    assert_eq!(u["is_owner"], role == 100, "{u}");
    assert_eq!(u["is_admin"], role == 100 || role == 200, "{u}");
    assert_eq!(u["is_guest"], role == 600, "{u}");
    assert_eq!(u["is_active"], a.id != DEACTIVATED.id, "{u}");
    match bot_of(a) {
        Some((bot_type, owner)) => {
            assert_eq!(u["is_bot"], true, "{u}");
            assert_eq!(u["bot_type"], bot_type, "{u}");
            assert_eq!(u["bot_owner_id"], owner, "{u}");
        }
        None => {
            assert_eq!(u["is_bot"], false, "{u}");
            assert!(
                u.get("bot_type").is_none_or(Value::is_null),
                "human with a bot_type: {u}"
            );
        }
    }
    for field in ["avatar_url", "date_joined", "timezone", "delivery_email"] {
        assert!(u.get(field).is_some(), "user record without `{field}`: {u}");
    }
}

// ---------------------------------------------------------------- server_settings

#[tokio::test]
async fn server_settings_needs_no_authentication_and_describes_the_realm() {
    let server = TestServer::standard();

    let r = server.anon().get("/server_settings", &[]).await;

    let body = r.ok();
    assert_eq!(body["zulip_feature_level"], 421, "{}", r.debug());
    assert_eq!(body["zulip_version"], "11.0", "{}", r.debug());
    assert_eq!(body["realm_name"], REALM_NAME, "{}", r.debug());
    assert_eq!(body["realm_url"], REALM_URL, "{}", r.debug());
    assert_eq!(body["realm_uri"], REALM_URL, "{}", r.debug());
    assert!(body["authentication_methods"].is_object(), "{}", r.debug());
    r.assert_json_content_type();
}

#[tokio::test]
async fn server_settings_answers_an_authenticated_caller_too() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/server_settings", &[]).await;

    assert_eq!(r.ok()["realm_name"], REALM_NAME);
}

// ------------------------------------------------------------------------ users

#[tokio::test]
async fn get_users_lists_every_user_with_role_and_bot_fields() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/users", &[]).await;

    let members = by_id(&r.ok()["members"]);
    let want: BTreeSet<u64> = ALL_ACCOUNTS.iter().map(|a| a.id).collect();
    assert_eq!(
        members.keys().copied().collect::<BTreeSet<_>>(),
        want,
        "{}",
        r.debug()
    );
    for a in ALL_ACCOUNTS {
        assert_user_record(&members[&a.id], &a);
    }
}

#[tokio::test]
async fn get_users_does_not_list_notification_bot() {
    let server = TestServer::standard();

    let r = server.as_user(&OWNER).get("/users", &[]).await;

    assert!(
        !r.ok().to_string().contains("notification-bot@zulip.com"),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn get_users_me_returns_the_callers_own_record() {
    let server = TestServer::standard();

    for a in [
        OWNER,
        ADMIN,
        MODERATOR,
        MEMBER,
        GUEST,
        GENERIC_BOT,
        OTHER_BOT,
    ] {
        let r = server.as_user(&a).get("/users/me", &[]).await;
        let body = r.ok();
        assert_user_record(body, &a);
    }
}

#[tokio::test]
async fn get_users_me_does_not_return_the_api_key() {
    // Zulip's get_profile_backend returns the user record and max_message_id; API keys
    // are only ever returned by the bot and key-regeneration endpoints.
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/users/me", &[]).await;

    assert!(
        r.ok().get("api_key").is_none(),
        "GET /users/me exposes the API key\n{}",
        r.debug()
    );
    assert!(!r.text.contains(MEMBER.key), "{}", r.debug());
}

#[tokio::test]
async fn get_users_me_has_max_message_id_and_an_avatar_url() {
    // Zulip: get_users_for_api(client_gravatar=False) plus max_message_id.
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/users/me", &[]).await;

    let body = r.ok();
    assert!(
        body["max_message_id"].is_i64(),
        "no integer max_message_id\n{}",
        r.debug()
    );
    assert!(
        body["avatar_url"].is_string(),
        "avatar_url is not a URL\n{}",
        r.debug()
    );
}

#[tokio::test]
async fn your_own_delivery_email_is_always_visible() {
    // Zulip's can_access_delivery_email: `if target_user_id == user_profile.id: True`.
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let me = mark.get("/users/me", &[]).await;
    let all = mark.get("/users", &[]).await;

    assert_eq!(me.ok()["delivery_email"], MEMBER.email, "{}", me.debug());
    let own = by_id(&all.ok()["members"])[&MEMBER.id].clone();
    assert_eq!(own["delivery_email"], MEMBER.email, "{own}");
}

#[tokio::test]
async fn bots_delivery_emails_are_visible_to_everyone() {
    // Zulip: "Bots always have email_address_visibility as EMAIL_ADDRESS_VISIBILITY_EVERYONE".
    let server = TestServer::standard();

    let r = server.as_user(&MODERATOR).get("/users", &[]).await;

    let members = by_id(&r.ok()["members"]);
    for bot in [WEBHOOK_BOT, GENERIC_BOT, OTHER_BOT] {
        assert_eq!(
            members[&bot.id]["delivery_email"], bot.email,
            "{}",
            members[&bot.id]
        );
    }
}

#[tokio::test]
async fn administrators_see_every_delivery_email() {
    let server = TestServer::standard();

    let r = server.as_user(&ADMIN).get("/users", &[]).await;

    let members = by_id(&r.ok()["members"]);
    for a in ALL_ACCOUNTS {
        assert_eq!(
            members[&a.id]["delivery_email"], a.email,
            "{}",
            members[&a.id]
        );
    }
}

#[tokio::test]
async fn unknown_query_parameters_are_listed_sorted() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .get("/users", &[("zz_top", json!("x")), ("aa_first", json!(1))])
        .await;

    assert_eq!(
        r.ok()["ignored_parameters_unsupported"],
        json!(["aa_first", "zz_top"])
    );
}

// ---------------------------------------------------------------------- streams

#[tokio::test]
async fn get_streams_is_sorted_by_name_with_zulip_10_metadata() {
    let server = TestServer::standard_with(&["--feature-level", "362"]);

    let r = server
        .as_user(&OWNER)
        .get("/streams", &[("include_all", json!(true))])
        .await;

    let streams = r.ok()["streams"].as_array().unwrap().clone();
    let order: Vec<&str> = streams
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [
            "Café",
            "Design",
            "Empty Room",
            "Engineering",
            "Hidden Lair",
            "Secret Plans",
            "Verona"
        ],
        "{}",
        r.debug()
    );
    for seeded in ALL_STREAMS {
        let s = streams.iter().find(|s| s["name"] == seeded.name).unwrap();
        assert_eq!(s["stream_id"], seeded.id, "{s}");
        assert_eq!(s["invite_only"], seeded.private, "{s}");
        assert_eq!(s["is_web_public"], false, "{s}");
        assert_eq!(
            s["description"],
            format!("The {} stream", seeded.name),
            "{s}"
        );
        assert!(
            s["date_created"].is_i64() || s["date_created"].is_u64(),
            "{s}"
        );
        // Seeded streams have no recorded creator; nobody posted to them yet.
        assert_eq!(s["creator_id"], Value::Null, "{s}");
        assert_eq!(s["first_message_id"], Value::Null, "{s}");
        assert_eq!(s["history_public_to_subscribers"], !seeded.private, "{s}");
        assert_eq!(s["is_recently_active"], true, "{s}");
        // Zulip 10 has no subscriber counts in stream objects (they came later).
        assert!(s.get("subscriber_count").is_none(), "{s}");
    }
}

#[tokio::test]
async fn streams_created_by_subscribing_record_their_creator_and_first_message() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    mark.post(SUBS, &[("subscriptions", json!([{"name": "Lab"}]))])
        .await
        .ok();
    let sent = mark
        .post(
            "/messages",
            &[
                ("type", json!("stream")),
                ("to", json!("Lab")),
                ("topic", json!("t")),
                ("content", json!("first")),
            ],
        )
        .await;
    let first = sent.ok()["id"].clone();

    let r = mark.get("/streams", &[]).await;
    let lab = stream_by_name(&r.ok()["streams"])["Lab"].clone();
    assert_eq!(lab["creator_id"], MEMBER.id, "{lab}");
    assert_eq!(lab["first_message_id"], first, "{lab}");
    assert_eq!(
        lab["can_administer_channel_group"],
        json!({"direct_members": [MEMBER.id], "direct_subgroups": []}),
        "{lab}"
    );
}

#[tokio::test]
async fn get_streams_flags_select_public_and_subscribed_streams() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let subscribed_only = mark
        .get("/streams", &[("include_public", json!(false))])
        .await;
    let public_only = mark
        .get("/streams", &[("include_subscribed", json!(false))])
        .await;
    let neither = mark
        .get(
            "/streams",
            &[
                ("include_public", json!(false)),
                ("include_subscribed", json!(false)),
            ],
        )
        .await;

    let names = |r: &Resp| {
        stream_by_name(&r.ok()["streams"])
            .into_keys()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&subscribed_only),
        ["Café", "Engineering", "Secret Plans", "Verona"]
    );
    assert_eq!(
        names(&public_only),
        ["Café", "Design", "Empty Room", "Engineering", "Verona"]
    );
    assert!(names(&neither).is_empty(), "{}", neither.debug());
}

#[tokio::test]
async fn subscribers_follow_changes() {
    let server = TestServer::standard();
    server
        .as_user(&MEMBER)
        .delete(SUBS, &[("subscriptions", json!(["Engineering"]))])
        .await
        .ok();

    let r = server
        .as_user(&MEMBER2)
        .get("/streams/11/members", &[])
        .await;

    assert_eq!(ids(&r.ok()["subscribers"]).len(), 5, "{}", r.debug());
}

// ---------------------------------------------------------------- subscriptions

#[tokio::test]
async fn own_subscriptions_include_subscribers_when_asked() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .get(SUBS, &[("include_subscribers", json!(true))])
        .await;

    let subs = stream_by_name(&r.ok()["subscriptions"]);
    assert_eq!(
        subs.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Café", "Engineering", "Secret Plans", "Verona"],
        "{}",
        r.debug()
    );
    for seeded in [CAFE, ENGINEERING, SECRET_PLANS, VERONA] {
        let s = &subs[seeded.name];
        assert_eq!(s["stream_id"], seeded.id, "{s}");
        assert_eq!(
            ids(&s["subscribers"]),
            set(seeded_subscribers(seeded)),
            "{s}"
        );
    }
}

#[tokio::test]
async fn own_subscriptions_drop_a_stream_once_left() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    mark.delete(SUBS, &[("subscriptions", json!(["Verona"]))])
        .await
        .ok();

    let r = mark.get(SUBS, &[]).await;

    let subs = stream_by_name(&r.ok()["subscriptions"]);
    assert!(!subs.contains_key("Verona"), "{}", r.debug());
    assert!(subs.contains_key("Engineering"), "{}", r.debug());
}

#[tokio::test]
async fn stream_members_list_the_subscribers() {
    let server = TestServer::standard();

    for seeded in ALL_STREAMS {
        let r = server
            .as_user(&OWNER)
            .get(&format!("/streams/{}/members", seeded.id), &[])
            .await;
        assert_eq!(
            ids(&r.ok()["subscribers"]),
            set(seeded_subscribers(seeded)),
            "{}",
            r.debug()
        );
    }
}

#[tokio::test]
async fn members_of_an_unknown_stream_id_is_invalid_channel_id() {
    let server = TestServer::standard();

    let r = server
        .as_user(&OWNER)
        .get("/streams/4242/members", &[])
        .await;

    r.bad_request("Invalid channel ID");
}

#[tokio::test]
async fn get_stream_id_finds_a_stream_by_name_case_insensitively() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let exact = mark
        .get("/get_stream_id", &[("stream", json!("Engineering"))])
        .await;
    let folded = mark
        .get("/get_stream_id", &[("stream", json!("ENGINEERING"))])
        .await;
    let private = mark
        .get("/get_stream_id", &[("stream", json!("secret plans"))])
        .await;

    assert_eq!(exact.ok()["stream_id"], 11);
    assert_eq!(folded.ok()["stream_id"], 11);
    assert_eq!(private.ok()["stream_id"], 21);
}

#[tokio::test]
async fn get_stream_id_without_a_name_is_a_missing_argument() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/get_stream_id", &[]).await;

    let body = r.err(400, "REQUEST_VARIABLE_MISSING", "Missing 'stream' argument");
    assert_eq!(body["var_name"], "stream");
}

#[tokio::test]
async fn get_stream_id_of_an_unknown_name_is_an_error() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .get("/get_stream_id", &[("stream", json!("Nowhere"))])
        .await;

    r.any_zulip_error();
    assert_eq!(r.status, 400, "{}", r.debug());
}

// --------------------------------------------------------------------- register

async fn register(api: &Api) -> Resp {
    api.post(
        "/register",
        &[
            ("fetch_event_types", json!(["realm_user", "subscription"])),
            ("include_subscribers", json!(true)),
        ],
    )
    .await
}

#[tokio::test]
async fn register_returns_the_snapshot() {
    let server = TestServer::standard();

    let r = register(&server.as_user(&MEMBER)).await;

    let body = r.ok();
    assert_eq!(body["zulip_feature_level"], 421, "{}", r.debug());
    assert!(
        body.get("queue_id").is_some_and(Value::is_null),
        "queue_id must be null\n{}",
        r.debug()
    );

    let active = by_id(&body["realm_users"]);
    let want_active: BTreeSet<u64> = ALL_ACCOUNTS
        .iter()
        .filter(|a| a.id != DEACTIVATED.id)
        .map(|a| a.id)
        .collect();
    assert_eq!(
        active.keys().copied().collect::<BTreeSet<_>>(),
        want_active,
        "{}",
        r.debug()
    );
    for a in ALL_ACCOUNTS.iter().filter(|a| a.id != DEACTIVATED.id) {
        assert_user_record(&active[&a.id], a);
    }
    let inactive = by_id(&body["realm_non_active_users"]);
    assert_eq!(
        inactive.keys().copied().collect::<Vec<_>>(),
        [DEACTIVATED.id],
        "{}",
        r.debug()
    );
    assert_user_record(&inactive[&DEACTIVATED.id], &DEACTIVATED);

    let cross = body["cross_realm_bots"]
        .as_array()
        .expect("cross_realm_bots");
    assert!(
        cross
            .iter()
            .any(|b| b["email"] == "notification-bot@zulip.com"
                && b["full_name"] == "Notification Bot"
                && b["is_bot"] == true),
        "Notification Bot missing from cross_realm_bots\n{}",
        r.debug()
    );

    let subs = stream_by_name(&body["subscriptions"]);
    assert_eq!(
        subs.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Café", "Engineering", "Secret Plans", "Verona"]
    );
    for seeded in [CAFE, ENGINEERING, SECRET_PLANS, VERONA] {
        assert_eq!(
            ids(&subs[seeded.name]["subscribers"]),
            set(seeded_subscribers(seeded))
        );
    }
    let never = stream_by_name(&body["never_subscribed"]);
    assert_eq!(
        never.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Design", "Empty Room"]
    );
    assert_eq!(
        ids(&never["Design"]["subscribers"]),
        set(seeded_subscribers(DESIGN))
    );
    assert_eq!(ids(&never["Empty Room"]["subscribers"]), set(&[]));
    assert_eq!(body["unsubscribed"], json!([]), "{}", r.debug());
}

#[tokio::test]
async fn register_lists_a_stream_you_left_under_unsubscribed() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    mark.delete(SUBS, &[("subscriptions", json!(["Engineering"]))])
        .await
        .ok();

    let r = register(&mark).await;

    let body = r.ok();
    let unsubscribed = stream_by_name(&body["unsubscribed"]);
    assert_eq!(
        unsubscribed.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Engineering"]
    );
    assert_eq!(
        ids(&unsubscribed["Engineering"]["subscribers"]),
        set(&[101, 102, 105, 201, 202]),
        "{}",
        r.debug()
    );
    assert!(!stream_by_name(&body["subscriptions"]).contains_key("Engineering"));
    assert!(!stream_by_name(&body["never_subscribed"]).contains_key("Engineering"));
}

#[tokio::test]
async fn register_needs_authentication() {
    let server = TestServer::standard();

    let r = register(&server.anon()).await;

    r.unauthorized("Not logged in: API authentication or user session required");
}

#[tokio::test]
async fn get_streams_sorts_by_name_in_code_point_order_like_zulip() {
    // Zulip's do_get_streams: sorted(..., key=lambda elt: elt["name"]), i.e. by code
    // point: upper-case before lower-case, "é" after "z".
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);
    owner
        .post(
            SUBS,
            &[(
                "subscriptions",
                json!([{"name": "apple"}, {"name": "Zebra"}, {"name": "éclair"}]),
            )],
        )
        .await
        .ok();

    let r = owner.get("/streams", &[("include_all", json!(true))]).await;

    let order: Vec<String> = r.ok()["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    let mut want = order.clone();
    want.sort();
    assert_eq!(order, want, "{}", r.debug());
    assert_eq!(order.last().map(String::as_str), Some("éclair"));
}

#[tokio::test]
async fn deactivated_users_are_not_listed_as_subscribers() {
    // Zulip keeps a deactivated user's subscriptions (for reactivation) but
    // get_subscribers_query / subscriber counts only include active users.
    let mut seed = standard_seed();
    let i = seed["streams"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["stream_id"] == 11)
        .unwrap();
    seed["streams"][i]["subscribers"]
        .as_array_mut()
        .unwrap()
        .push(json!(DEACTIVATED.id));
    let server = TestServer::start(seed, &[]);
    let active = set(seeded_subscribers(ENGINEERING));

    let members = server.as_user(&OWNER).get("/streams/11/members", &[]).await;
    let subs = server
        .as_user(&MEMBER)
        .get(SUBS, &[("include_subscribers", json!(true))])
        .await;
    let snapshot = register(&server.as_user(&MEMBER)).await;

    assert_eq!(
        ids(&members.ok()["subscribers"]),
        active,
        "{}",
        members.debug()
    );
    assert_eq!(
        ids(&stream_by_name(&subs.ok()["subscriptions"])["Engineering"]["subscribers"]),
        active
    );
    assert_eq!(
        ids(&stream_by_name(&snapshot.ok()["subscriptions"])["Engineering"]["subscribers"]),
        active
    );
}
