//! `POST /api/v1/users/me/subscriptions` (`docs/zulip-compatibility.md`: subscribe).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

async fn subscribe(api: &Api, streams: Value) -> Resp {
    api.post(SUBS, &[("subscriptions", streams)]).await
}

async fn subscribe_others(api: &Api, streams: Value, principals: Value) -> Resp {
    api.post(
        SUBS,
        &[("subscriptions", streams), ("principals", principals)],
    )
    .await
}

#[track_caller]
fn assert_subscribed(r: &Resp, subscribed: &[(u64, &[&str])], already: &[(u64, &[&str])]) {
    let body = r.ok();
    assert_eq!(
        by_user(&body["subscribed"]),
        user_map(subscribed),
        "`subscribed`\n{}",
        r.debug()
    );
    assert_eq!(
        by_user(&body["already_subscribed"]),
        user_map(already),
        "`already_subscribed`\n{}",
        r.debug()
    );
}

fn state_with(pairs: &[(&str, u64)]) -> BTreeMap<String, BTreeSet<u64>> {
    let mut state = seeded_state();
    for (stream, user) in pairs {
        state.entry(stream.to_string()).or_default().insert(*user);
    }
    state
}

// ---------------------------------------------------------------------- yourself

#[tokio::test]
async fn a_member_subscribes_to_a_public_stream() {
    let server = TestServer::standard();

    let r = subscribe(&server.as_user(&MEMBER), json!([{"name": "Design"}])).await;

    assert_subscribed(&r, &[(MEMBER.id, &["Design"])], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_with(&[("Design", MEMBER.id)])
    );
}

#[tokio::test]
async fn subscribing_to_a_stream_you_are_in_is_already_subscribed() {
    let server = TestServer::standard();

    let r = subscribe(
        &server.as_user(&MEMBER),
        json!([{"name": "Engineering"}, {"name": "Design"}]),
    )
    .await;

    assert_subscribed(
        &r,
        &[(MEMBER.id, &["Design"])],
        &[(MEMBER.id, &["Engineering"])],
    );
}

#[tokio::test]
async fn an_existing_stream_is_matched_case_insensitively_and_named_as_stored() {
    let server = TestServer::standard();

    let r = subscribe(
        &server.as_user(&MODERATOR),
        json!([{"name": " engineering "}]),
    )
    .await;

    assert_subscribed(&r, &[(MODERATOR.id, &["Engineering"])], &[]);
    // No second stream was created.
    assert_eq!(
        server.subscription_state().await,
        state_with(&[("Engineering", MODERATOR.id)])
    );
}

#[tokio::test]
async fn subscribing_creates_a_missing_stream_with_its_description() {
    let server = TestServer::standard();

    let r = subscribe(
        &server.as_user(&MEMBER),
        json!([{"name": "Brand New", "description": "Fresh paint"}]),
    )
    .await;

    assert_subscribed(&r, &[(MEMBER.id, &["Brand New"])], &[]);
    let streams = server.as_user(&MODERATOR).get("/streams", &[]).await;
    let created = streams.ok()["streams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Brand New")
        .unwrap_or_else(|| panic!("new stream not listed\n{}", streams.debug()))
        .clone();
    assert_eq!(created["description"], "Fresh paint", "{created}");
    assert_eq!(created["invite_only"], false, "{created}");
    let id = created["stream_id"].as_u64().unwrap();
    assert_eq!(server.members_of(id).await, set(&[MEMBER.id]));
}

#[tokio::test]
async fn invite_only_creates_a_private_stream_hidden_from_others() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Skunkworks"}])),
                ("invite_only", json!(true)),
            ],
        )
        .await;

    assert_subscribed(&r, &[(MEMBER.id, &["Skunkworks"])], &[]);
    let others = server.as_user(&MEMBER2).get("/streams", &[]).await;
    assert!(
        !others.ok().to_string().contains("Skunkworks"),
        "{}",
        others.debug()
    );
    let mine = server.as_user(&MEMBER).get("/streams", &[]).await;
    let mine = mine.ok()["streams"].as_array().unwrap().clone();
    let s = mine
        .iter()
        .find(|s| s["name"] == "Skunkworks")
        .expect("creator sees it");
    assert_eq!(s["invite_only"], true, "{s}");
}

#[tokio::test]
async fn a_generic_bot_subscribes_itself() {
    let server = TestServer::standard();

    let r = subscribe(&server.as_user(&GENERIC_BOT), json!([{"name": "Design"}])).await;

    assert_subscribed(&r, &[(GENERIC_BOT.id, &["Design"])], &[]);
}

// ------------------------------------------------------------------------ others

#[tokio::test]
async fn an_administrator_subscribes_others_keyed_by_user_id() {
    let server = TestServer::standard();

    let r = subscribe_others(
        &server.as_user(&ADMIN),
        json!([{"name": "Engineering"}, {"name": "Design"}]),
        json!([MEMBER2.id, GUEST.id]),
    )
    .await;

    assert_subscribed(
        &r,
        &[(GUEST.id, &["Engineering"])],
        &[
            (MEMBER2.id, &["Design", "Engineering"]),
            (GUEST.id, &["Design"]),
        ],
    );
    assert_eq!(
        server.subscription_state().await,
        state_with(&[("Engineering", GUEST.id)])
    );
}

#[tokio::test]
async fn principals_given_as_emails_are_keyed_by_user_id_too() {
    let server = TestServer::standard();

    let r = subscribe_others(
        &server.as_user(&OWNER),
        json!([{"name": "Empty Room"}]),
        json!(["MONA@globex.test", "gus@globex.test"]),
    )
    .await;

    assert_subscribed(
        &r,
        &[(MODERATOR.id, &["Empty Room"]), (GUEST.id, &["Empty Room"])],
        &[],
    );
}

#[tokio::test]
async fn an_administrator_subscribes_others_to_a_private_stream_they_are_not_in() {
    let server = TestServer::standard();

    let r = subscribe_others(
        &server.as_user(&ADMIN),
        json!([{"name": "Hidden Lair"}]),
        json!([MEMBER.id]),
    )
    .await;

    assert_subscribed(&r, &[(MEMBER.id, &["Hidden Lair"])], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_with(&[("Hidden Lair", MEMBER.id)])
    );
}

#[tokio::test]
async fn a_member_subscribes_another_member_to_a_public_stream() {
    let server = TestServer::standard();

    let r = subscribe_others(
        &server.as_user(&MEMBER),
        json!([{"name": "Engineering"}]),
        json!([MODERATOR.id]),
    )
    .await;

    assert_subscribed(&r, &[(MODERATOR.id, &["Engineering"])], &[]);
}

#[tokio::test]
async fn a_member_subscribes_another_member_to_a_private_stream_they_are_in() {
    let server = TestServer::standard();

    let r = subscribe_others(
        &server.as_user(&MEMBER),
        json!([{"name": "Secret Plans"}]),
        json!([MEMBER2.id]),
    )
    .await;

    assert_subscribed(&r, &[(MEMBER2.id, &["Secret Plans"])], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_with(&[("Secret Plans", MEMBER2.id)])
    );
}

#[tokio::test]
async fn an_inaccessible_private_stream_cannot_be_joined() {
    let server = TestServer::standard();

    let r = subscribe(
        &server.as_user(&MODERATOR),
        json!([{"name": "Design"}, {"name": "Secret Plans"}]),
    )
    .await;

    r.bad_request("Unable to access channel (Secret Plans).");
    assert_eq!(server.subscription_state().await, seeded_state());
}

// ------------------------------------------------------------------------ guests

#[tokio::test]
async fn guests_may_not_subscribe_at_all() {
    let server = TestServer::standard();
    let gus = server.as_user(&GUEST);

    subscribe(&gus, json!([{"name": "Engineering"}]))
        .await
        .bad_request("Not allowed for guest users");
    subscribe(&gus, json!([{"name": "Design"}]))
        .await
        .bad_request("Not allowed for guest users");
    subscribe(&gus, json!([{"name": "A New One"}]))
        .await
        .bad_request("Not allowed for guest users");
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn the_guest_check_comes_before_any_other() {
    let server = TestServer::standard();
    let gus = server.as_user(&GUEST);

    gus.post(SUBS, &[])
        .await
        .bad_request("Not allowed for guest users");
    subscribe(&gus, json!("not json"))
        .await
        .bad_request("Not allowed for guest users");
    subscribe_others(&gus, json!([{"name": "Hidden Lair"}]), json!([9999]))
        .await
        .bad_request("Not allowed for guest users");
}

// ------------------------------------------------------------------------ errors

#[tokio::test]
async fn a_missing_subscriptions_argument_is_reported() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).post(SUBS, &[]).await;

    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'subscriptions' argument",
    );
    assert_eq!(body["var_name"], "subscriptions");
}

#[tokio::test]
async fn malformed_subscriptions_are_rejected() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    subscribe(&mark, json!("[{"))
        .await
        .bad_request("subscriptions is not valid JSON");
    subscribe(&mark, json!({"name": "Design"}))
        .await
        .bad_request("subscriptions is not a list");
    subscribe(&mark, json!(["Design"]))
        .await
        .error_status_code(400, "BAD_REQUEST");
    subscribe(&mark, json!([{"description": "no name"}]))
        .await
        .error_status_code(400, "BAD_REQUEST");
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn invalid_new_stream_names_are_rejected() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    subscribe(&mark, json!([{"name": "  "}]))
        .await
        .bad_request("Channel name can't be empty.");
    subscribe(&mark, json!([{"name": "n".repeat(61)}]))
        .await
        .bad_request("Channel name too long (limit: 60 characters).");
    subscribe(&mark, json!([{"name": "bell\u{7}"}]))
        .await
        .bad_request("Invalid character in channel name, at position 5.");
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn unknown_and_deactivated_principals_are_rejected() {
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);

    subscribe_others(&admin, json!([{"name": "Design"}]), json!([9999]))
        .await
        .bad_request("No such user");
    subscribe_others(
        &admin,
        json!([{"name": "Design"}]),
        json!(["nobody@globex.test"]),
    )
    .await
    .bad_request("No such user");
    subscribe_others(&admin, json!([{"name": "Design"}]), json!([DEACTIVATED.id]))
        .await
        .bad_request("User is deactivated");
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn an_incoming_webhook_bot_may_not_subscribe() {
    let server = TestServer::standard();

    let r = subscribe(&server.as_user(&WEBHOOK_BOT), json!([{"name": "Design"}])).await;

    r.unauthorized("This API is not available to incoming webhook bots.");
}

#[tokio::test]
async fn a_stream_left_and_joined_again_is_subscribed_again() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    mark.delete(SUBS, &[("subscriptions", json!(["Engineering"]))])
        .await
        .ok();

    let r = subscribe(&mark, json!([{"name": "Engineering"}])).await;

    assert_subscribed(&r, &[(MEMBER.id, &["Engineering"])], &[]);
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn empty_principals_subscribe_the_caller() {
    let server = TestServer::standard();

    let r = subscribe_others(
        &server.as_user(&MEMBER),
        json!([{"name": "Design"}]),
        json!([]),
    )
    .await;

    assert_subscribed(&r, &[(MEMBER.id, &["Design"])], &[]);
}

#[tokio::test]
async fn duplicate_and_case_variant_names_are_subscribed_once() {
    let server = TestServer::standard();

    let r = subscribe(
        &server.as_user(&MEMBER),
        json!([{"name": "Design"}, {"name": "design"}, {"name": " DESIGN "}]),
    )
    .await;

    assert_subscribed(&r, &[(MEMBER.id, &["Design"])], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_with(&[("Design", MEMBER.id)])
    );
}

#[tokio::test]
async fn a_new_streams_name_is_stored_trimmed() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let r = subscribe(&mark, json!([{"name": "  Spaced Out  "}])).await;

    assert_subscribed(&r, &[(MEMBER.id, &["Spaced Out"])], &[]);
    let id = mark
        .get("/get_stream_id", &[("stream", json!("Spaced Out"))])
        .await;
    id.ok();
}

async fn newest_messages(api: &Api) -> Vec<Value> {
    let r = api
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(100)),
                ("num_after", json!(0)),
                ("apply_markdown", json!(false)),
            ],
        )
        .await;
    r.ok()["messages"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn those_subscribed_by_someone_else_hear_from_notification_bot() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);
    let before = newest_messages(&nina).await.len();

    let r = subscribe_others(
        &server.as_user(&ADMIN),
        json!([{"name": "Empty Room"}, {"name": "Café"}]),
        json!([MEMBER2.id]),
    )
    .await;
    assert_subscribed(&r, &[(MEMBER2.id, &["Café", "Empty Room"])], &[]);

    let messages = newest_messages(&nina).await;
    assert_eq!(messages.len(), before + 1, "{messages:?}");
    let m = messages.last().unwrap();
    assert_eq!(m["sender_email"], "notification-bot@zulip.com", "{m}");
    assert_eq!(m["type"], "private", "{m}");
    let content = m["content"].as_str().unwrap_or_default();
    for needle in ["Adam Admin", "Empty Room", "Café"] {
        assert!(
            content.contains(needle),
            "notification should name {needle:?}: {m}"
        );
    }
}

#[tokio::test]
async fn subscribing_yourself_sends_no_message() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let before = newest_messages(&mark).await.len();

    let r = subscribe(&mark, json!([{"name": "Design"}])).await;
    assert_subscribed(&r, &[(MEMBER.id, &["Design"])], &[]);

    assert_eq!(newest_messages(&mark).await.len(), before);
}

#[tokio::test]
async fn those_already_subscribed_get_no_notification() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);
    let before = newest_messages(&nina).await.len();

    let r = subscribe_others(
        &server.as_user(&ADMIN),
        json!([{"name": "Design"}]),
        json!([MEMBER2.id]),
    )
    .await;
    assert_subscribed(&r, &[], &[(MEMBER2.id, &["Design"])]);

    assert_eq!(newest_messages(&nina).await.len(), before);
}

#[tokio::test]
async fn no_notification_names_a_stream_created_by_the_same_request() {
    // Zulip (send_messages_for_new_subscribers; API docs of POST /users/me/subscriptions):
    // "No direct messages are sent for any channels that are created as part of this
    // request."
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);
    let admin = server.as_user(&ADMIN);
    let before = newest_messages(&nina).await.len();

    let only_new = subscribe_others(
        &admin,
        json!([{"name": "Fresh Stream"}]),
        json!([MEMBER2.id]),
    )
    .await;
    assert_subscribed(&only_new, &[(MEMBER2.id, &["Fresh Stream"])], &[]);
    let after_new = newest_messages(&nina).await;
    assert_eq!(
        after_new.len(),
        before,
        "notified about a stream created by the request: {after_new:?}"
    );

    let mixed = subscribe_others(
        &admin,
        json!([{"name": "Fresh Two"}, {"name": "Empty Room"}]),
        json!([MEMBER2.id]),
    )
    .await;
    assert_subscribed(&mixed, &[(MEMBER2.id, &["Empty Room", "Fresh Two"])], &[]);
    let messages = newest_messages(&nina).await;
    assert_eq!(messages.len(), before + 1, "{messages:?}");
    let content = messages.last().unwrap()["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(content.contains("Empty Room"), "{content}");
    assert!(
        !content.contains("Fresh Two"),
        "names the newly created stream: {content}"
    );
}

#[tokio::test]
async fn bots_subscribed_by_someone_else_get_no_notification() {
    let server = TestServer::standard();
    let bot = server.as_user(&OTHER_BOT);
    let before = newest_messages(&bot).await.len();

    let r = subscribe_others(
        &server.as_user(&ADMIN),
        json!([{"name": "Engineering"}]),
        json!([OTHER_BOT.id]),
    )
    .await;
    assert_subscribed(&r, &[(OTHER_BOT.id, &["Engineering"])], &[]);

    assert_eq!(newest_messages(&bot).await.len(), before);
}

#[tokio::test]
async fn a_multipart_body_is_accepted() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let boundary = "weirBoundaryQ1w2E3r4";
    let body = format!(
        "--{b}\r\nContent-Disposition: form-data; name=\"subscriptions\"\r\n\r\n[{{\"name\": \"Design\"}}]\r\n--{b}--\r\n",
        b = boundary
    );
    let rb = mark
        .request(Method::POST, SUBS)
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body);

    let r = mark.send(rb, "POST subscriptions (multipart)").await;

    assert_subscribed(&r, &[(MEMBER.id, &["Design"])], &[]);
}

#[tokio::test]
async fn unknown_parameters_are_listed_sorted_and_ignored() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Design"}])),
                ("zz_unknown", json!(1)),
                ("aa_unknown", json!("x")),
            ],
        )
        .await;

    assert_subscribed(&r, &[(MEMBER.id, &["Design"])], &[]);
    assert_eq!(
        r.json["ignored_parameters_unsupported"],
        json!(["aa_unknown", "zz_unknown"])
    );
}

/// Weir decision: a stream name may not hold bidirectional overrides, which would make it
/// display as another name.
#[tokio::test]
async fn a_stream_name_with_a_bidirectional_override_is_refused() {
    let server = TestServer::standard();
    let before = server.subscription_state().await;

    let r = server
        .as_user(&OWNER)
        .post(
            "/users/me/subscriptions",
            &[("subscriptions", json!([{"name": "news\u{202E}lanretni"}]))],
        )
        .await;

    r.bad_request("Invalid character in channel name, at position 5.");
    assert_eq!(server.subscription_state().await, before);
}

#[tokio::test]
async fn authorization_errors_fatal_false_subscribes_to_the_rest_and_lists_the_refused() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let r = mark
        .post(
            "/users/me/subscriptions",
            &[
                (
                    "subscriptions",
                    json!([{"name": "Hidden Lair"}, {"name": "Design"}]),
                ),
                ("authorization_errors_fatal", json!(false)),
            ],
        )
        .await;
    let body = r.ok();
    assert_eq!(
        body["unauthorized"],
        json!(["Hidden Lair"]),
        "{}",
        r.debug()
    );
    assert_eq!(
        body["subscribed"],
        json!({MEMBER.id.to_string(): ["Design"]})
    );
    assert!(!server.members_of(HIDDEN_LAIR.id).await.contains(&MEMBER.id));

    // The default stays fatal, and then nothing changes.
    let before = server.subscription_state().await;
    mark.post(
        "/users/me/subscriptions",
        &[(
            "subscriptions",
            json!([{"name": "Hidden Lair"}, {"name": "Café"}]),
        )],
    )
    .await
    .bad_request("Unable to access channel (Hidden Lair).");
    assert_eq!(server.subscription_state().await, before);
}
