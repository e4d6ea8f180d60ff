//! `DELETE /api/v1/users/me/subscriptions` (reference §2), at the default feature level.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

async fn leave(api: &Api, names: Value) -> Resp {
    api.delete(SUBS, &[("subscriptions", names)]).await
}

async fn remove(api: &Api, names: Value, principals: Value) -> Resp {
    api.delete(
        SUBS,
        &[("subscriptions", names), ("principals", principals)],
    )
    .await
}

/// The seeded state with some (stream, user) pairs removed.
fn state_without(pairs: &[(&str, u64)]) -> BTreeMap<String, BTreeSet<u64>> {
    let mut state = seeded_state();
    for (stream, user) in pairs {
        assert!(
            state.get_mut(*stream).unwrap().remove(user),
            "{stream}/{user} not seeded"
        );
    }
    state
}

async fn assert_unchanged(server: &TestServer) {
    assert_eq!(
        server.subscription_state().await,
        seeded_state(),
        "a failed request must change nothing"
    );
}

// ---------------------------------------------------------------- removing yourself

#[tokio::test]
async fn member_leaves_a_public_stream_and_is_no_longer_subscribed() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["Engineering"])).await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", MEMBER.id)])
    );
}

#[tokio::test]
async fn leaving_a_stream_you_are_not_in_is_reported_as_not_removed() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MODERATOR), json!(["Engineering"])).await;

    assert_unsubscribed(&r, &[], &["Engineering"]);
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn leaving_several_streams_reports_each_outcome() {
    let server = TestServer::standard();

    let r = leave(
        &server.as_user(&MEMBER),
        json!(["Engineering", "Design", "Verona"]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering", "Verona"], &["Design"]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", MEMBER.id), ("Verona", MEMBER.id)])
    );
}

#[tokio::test]
async fn stream_names_match_case_insensitively_and_answer_with_the_stored_spelling() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["eNGINEERING", "verona"])).await;

    assert_unsubscribed(&r, &["Engineering", "Verona"], &[]);
}

#[tokio::test]
async fn non_ascii_stream_names_match_case_insensitively() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["CAFÉ"])).await;

    assert_unsubscribed(&r, &["Café"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Café", MEMBER.id)])
    );
}

#[tokio::test]
async fn stream_names_are_trimmed() {
    let server = TestServer::standard();

    let r = leave(
        &server.as_user(&MEMBER),
        json!(["  Engineering  ", " Secret Plans"]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering", "Secret Plans"], &[]);
}

#[tokio::test]
async fn duplicate_and_case_variant_names_count_once() {
    let server = TestServer::standard();

    let r = leave(
        &server.as_user(&MEMBER),
        json!([
            "Engineering",
            "engineering",
            " ENGINEERING ",
            "Design",
            "design"
        ]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering"], &["Design"]);
}

#[tokio::test]
async fn an_empty_subscriptions_list_succeeds_with_empty_lists() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!([])).await;

    assert_unsubscribed(&r, &[], &[]);
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn an_empty_subscriptions_list_with_other_principals_succeeds() {
    // Permission is checked over the named streams; there are none.
    let server = TestServer::standard();

    let r = remove(&server.as_user(&MEMBER), json!([]), json!([MEMBER2.id])).await;

    assert_unsubscribed(&r, &[], &[]);
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn empty_principals_mean_the_caller() {
    let server = TestServer::standard();

    let r = remove(&server.as_user(&MEMBER), json!(["Engineering"]), json!([])).await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", MEMBER.id)])
    );
}

#[tokio::test]
async fn a_member_may_name_themself_as_principal_by_id_or_email() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let by_id = remove(&mark, json!(["Engineering"]), json!([MEMBER.id])).await;
    let by_email = remove(&mark, json!(["Verona"]), json!(["Mark@Globex.Test"])).await;

    assert_unsubscribed(&by_id, &["Engineering"], &[]);
    assert_unsubscribed(&by_email, &["Verona"], &[]);
}

#[tokio::test]
async fn a_member_may_leave_a_private_stream_they_are_in() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["Secret Plans"])).await;

    assert_unsubscribed(&r, &["Secret Plans"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Secret Plans", MEMBER.id)])
    );
}

#[tokio::test]
async fn a_guest_leaving_a_public_stream_they_are_not_in_gets_not_removed() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&GUEST), json!(["Engineering"])).await;

    assert_unsubscribed(&r, &[], &["Engineering"]);
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_guest_may_leave_streams_they_are_in() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&GUEST), json!(["Design", "Hidden Lair"])).await;

    assert_unsubscribed(&r, &["Design", "Hidden Lair"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Design", GUEST.id), ("Hidden Lair", GUEST.id)])
    );
}

#[tokio::test]
async fn a_generic_bot_may_unsubscribe_itself() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&GENERIC_BOT), json!(["Engineering"])).await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", GENERIC_BOT.id)])
    );
}

// ------------------------------------------------------ one entry per (user, stream)

#[tokio::test]
async fn results_list_one_entry_per_user_and_stream() {
    let server = TestServer::standard();

    // Engineering: 104 and 105 in, 103 not. Design: 103 and 105 in, 104 not.
    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering", "Design"]),
        json!([MEMBER.id, MEMBER2.id, MODERATOR.id]),
    )
    .await;

    assert_unsubscribed(
        &r,
        &["Engineering", "Engineering", "Design", "Design"],
        &["Engineering", "Design"],
    );
    assert_eq!(
        server.subscription_state().await,
        state_without(&[
            ("Engineering", MEMBER.id),
            ("Engineering", MEMBER2.id),
            ("Design", MODERATOR.id),
            ("Design", MEMBER2.id),
        ])
    );
}

#[tokio::test]
async fn removing_five_users_from_one_stream_lists_its_name_five_times() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&OWNER),
        json!(["engineering"]),
        json!([
            ADMIN.id,
            MEMBER.id,
            MEMBER2.id,
            WEBHOOK_BOT.id,
            GENERIC_BOT.id
        ]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering"; 5], &[]);
    assert_eq!(server.members_of(ENGINEERING.id).await, set(&[OWNER.id]));
}

#[tokio::test]
async fn principals_given_as_emails_match_case_insensitively() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!(["MARK@GLOBEX.TEST", "nina@Globex.test"]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering", "Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", MEMBER.id), ("Engineering", MEMBER2.id)])
    );
}

#[tokio::test]
async fn a_principal_named_twice_counts_once() {
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);

    let by_id = remove(
        &admin,
        json!(["Engineering"]),
        json!([MEMBER.id, MEMBER.id]),
    )
    .await;
    let by_email = remove(
        &admin,
        json!(["Verona"]),
        json!(["nina@globex.test", "NINA@globex.test"]),
    )
    .await;

    assert_unsubscribed(&by_id, &["Engineering"], &[]);
    assert_unsubscribed(&by_email, &["Verona"], &[]);
}

// ------------------------------------------------------------------- permissions

#[tokio::test]
async fn the_owner_removes_others_from_a_private_stream_they_are_not_in() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&OWNER),
        json!(["Hidden Lair"]),
        json!([MEMBER2.id]),
    )
    .await;

    assert_unsubscribed(&r, &["Hidden Lair"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Hidden Lair", MEMBER2.id)])
    );
}

#[tokio::test]
async fn an_administrator_removes_anyone_from_any_stream() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Hidden Lair", "Secret Plans", "Design"]),
        json!([GUEST.id, OTHER_BOT.id, MEMBER.id, OWNER.id]),
    )
    .await;

    assert_unsubscribed(
        &r,
        &[
            "Hidden Lair",
            "Hidden Lair",
            "Secret Plans",
            "Secret Plans",
            "Design",
            "Design",
        ],
        &[
            "Hidden Lair",
            "Hidden Lair",
            "Secret Plans",
            "Secret Plans",
            "Design",
            "Design",
        ],
    );
    assert_eq!(
        server.subscription_state().await,
        state_without(&[
            ("Hidden Lair", GUEST.id),
            ("Hidden Lair", OTHER_BOT.id),
            ("Secret Plans", MEMBER.id),
            ("Secret Plans", OWNER.id),
            ("Design", GUEST.id),
            ("Design", OTHER_BOT.id),
        ])
    );
}

#[tokio::test]
async fn an_administrator_leaving_an_unjoined_private_stream_gets_not_removed() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&ADMIN), json!(["Hidden Lair"])).await;

    assert_unsubscribed(&r, &[], &["Hidden Lair"]);
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_member_cannot_remove_another_member() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering"]),
        json!([MEMBER2.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_moderator_cannot_remove_others() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MODERATOR),
        json!(["Design"]),
        json!([MEMBER2.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_guest_cannot_remove_others() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&GUEST),
        json!(["Design"]),
        json!(["nina@globex.test"]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_generic_bot_cannot_remove_others() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&GENERIC_BOT),
        json!(["Engineering"]),
        json!([MEMBER.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_member_cannot_remove_themself_and_someone_else_together() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering"]),
        json!([MEMBER.id, MEMBER2.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_bot_owner_removes_their_generic_bot_from_a_public_stream() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering"]),
        json!([GENERIC_BOT.id]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", GENERIC_BOT.id)])
    );
}

#[tokio::test]
async fn a_bot_owner_removes_their_incoming_webhook_bot() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering"]),
        json!([WEBHOOK_BOT.email]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", WEBHOOK_BOT.id)])
    );
}

#[tokio::test]
async fn a_bot_owner_removes_their_bot_from_a_private_stream_they_are_in() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Secret Plans"]),
        json!([GENERIC_BOT.id]),
    )
    .await;

    assert_unsubscribed(&r, &["Secret Plans"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Secret Plans", GENERIC_BOT.id)])
    );
}

#[tokio::test]
async fn a_bot_owner_cannot_reach_their_bot_in_a_private_stream_they_cannot_see() {
    // 202 is in Hidden Lair; its owner 104 is not, so for 104 the stream does not exist.
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Hidden Lair"]),
        json!([GENERIC_BOT.id]),
    )
    .await;

    r.stream_does_not_exist("Hidden Lair");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_bot_owner_removes_themself_and_their_bots_together() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering", "Verona"]),
        json!([MEMBER.id, GENERIC_BOT.id, WEBHOOK_BOT.id]),
    )
    .await;

    assert_unsubscribed(
        &r,
        &["Engineering", "Engineering", "Engineering", "Verona"],
        &["Verona", "Verona"],
    );
}

#[tokio::test]
async fn a_bot_owner_naming_a_visible_and_an_invisible_stream_changes_nothing() {
    // 202 is in Engineering (visible to its owner 104) and in Hidden Lair (not visible).
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering", "Hidden Lair"]),
        json!([GENERIC_BOT.id]),
    )
    .await;

    r.stream_does_not_exist("Hidden Lair");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_bot_may_name_itself_as_principal() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&GENERIC_BOT),
        json!(["Secret Plans"]),
        json!([GENERIC_BOT.email]),
    )
    .await;

    assert_unsubscribed(&r, &["Secret Plans"], &[]);
}

#[tokio::test]
async fn a_bot_cannot_remove_its_owner() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&GENERIC_BOT),
        json!(["Verona"]),
        json!([MEMBER.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_guest_may_name_themself_as_principal() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&GUEST),
        json!(["Design"]),
        json!(["GUS@globex.test"]),
    )
    .await;

    assert_unsubscribed(&r, &["Design"], &[]);
}

#[tokio::test]
async fn a_member_cannot_remove_a_bot_owned_by_someone_else() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Design"]),
        json!([OTHER_BOT.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn the_permission_error_comes_before_the_missing_stream_error() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering", "nope"]),
        json!([MEMBER2.id]),
    )
    .await;

    r.bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn removing_others_from_only_missing_streams_reports_the_missing_stream() {
    // Permission is checked over the named streams that exist and are visible: none here.
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["nope"]),
        json!([MEMBER2.id]),
    )
    .await;

    r.stream_does_not_exist("nope");
}

// ---------------------------------------------------------------- parameter parsing

#[tokio::test]
async fn a_missing_subscriptions_argument_is_reported() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).delete(SUBS, &[]).await;

    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'subscriptions' argument",
    );
    assert_eq!(body["var_name"], "subscriptions", "{}", r.debug());
}

#[tokio::test]
async fn a_missing_subscriptions_argument_is_reported_even_with_principals() {
    let server = TestServer::standard();

    let r = server
        .as_user(&ADMIN)
        .delete(SUBS, &[("principals", json!([MEMBER.id]))])
        .await;

    r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'subscriptions' argument",
    );
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn subscriptions_that_are_not_json_are_rejected() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for bad in ["Engineering", "[\"Engineering\"", "['Engineering']", ""] {
        let r = leave(&mark, json!(bad)).await;
        r.bad_request("subscriptions is not valid JSON");
    }
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn subscriptions_that_are_not_a_list_are_rejected() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for bad in [
        json!("\"Engineering\""),
        json!({"name": "Engineering"}),
        json!(7),
        json!(true),
    ] {
        let r = leave(&mark, bad).await;
        r.bad_request("subscriptions is not a list");
    }
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_subscriptions_element_that_is_not_a_string_is_named_by_index() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    leave(&mark, json!([11]))
        .await
        .bad_request("subscriptions[0] is not a string");
    leave(&mark, json!(["Engineering", {"name": "Design"}]))
        .await
        .bad_request("subscriptions[1] is not a string");
    leave(&mark, json!(["Engineering", "Verona", null]))
        .await
        .bad_request("subscriptions[2] is not a string");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn principals_that_are_not_json_are_rejected() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!("[104"),
    )
    .await;

    r.bad_request("principals is not valid JSON");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn principals_of_the_wrong_shape_are_rejected() {
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);

    for bad in [
        json!("104"),
        json!({"id": 104}),
        json!([true]),
        json!([[104]]),
        json!([null]),
    ] {
        let r = admin
            .delete(
                SUBS,
                &[
                    ("subscriptions", json!(["Engineering"])),
                    ("principals", bad),
                ],
            )
            .await;
        r.error_status_code(400, "BAD_REQUEST");
    }
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_list_mixing_ids_and_emails_is_rejected() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!([MEMBER.id, "nina@globex.test"]),
    )
    .await;

    r.error_status_code(400, "BAD_REQUEST");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn parsing_errors_come_before_principal_errors() {
    let server = TestServer::standard();

    let r = remove(&server.as_user(&ADMIN), json!("not json"), json!([9999])).await;

    r.bad_request("subscriptions is not valid JSON");
}

// ----------------------------------------------------------------------- principals

#[tokio::test]
async fn an_unknown_user_id_is_no_such_user() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!([MEMBER.id, 9999]),
    )
    .await;

    r.bad_request("No such user");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn an_unknown_email_is_no_such_user() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!(["mark@globex.test", "nobody@globex.test"]),
    )
    .await;

    r.bad_request("No such user");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_deactivated_principal_is_reported_by_id_and_by_email() {
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);

    remove(&admin, json!(["Engineering"]), json!([DEACTIVATED.id]))
        .await
        .bad_request("User is deactivated");
    remove(&admin, json!(["Engineering"]), json!(["DORA@globex.test"]))
        .await
        .bad_request("User is deactivated");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn notification_bot_is_not_a_user_of_the_organization() {
    // A cross-realm system bot: listed in /register's cross_realm_bots, never a principal.
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);
    let snapshot = admin
        .post("/register", &[("fetch_event_types", json!(["realm_user"]))])
        .await;
    let bot = snapshot.ok()["cross_realm_bots"]
        .as_array()
        .and_then(|b| {
            b.iter()
                .find(|b| b["email"] == "notification-bot@zulip.com")
                .cloned()
        })
        .unwrap_or_else(|| panic!("no Notification Bot\n{}", snapshot.debug()));
    let bot_id = bot["user_id"].clone();

    remove(&admin, json!(["Engineering"]), json!([bot_id]))
        .await
        .bad_request("No such user");
    remove(
        &admin,
        json!(["Engineering"]),
        json!(["notification-bot@zulip.com"]),
    )
    .await
    .bad_request("No such user");
    admin
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Design"}])),
                ("principals", json!([bot_id])),
            ],
        )
        .await
        .bad_request("No such user");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn principal_errors_come_before_stream_name_errors() {
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);

    remove(&admin, json!(["", "nope"]), json!([9999]))
        .await
        .bad_request("No such user");
    remove(&admin, json!(["nope"]), json!([DEACTIVATED.id]))
        .await
        .bad_request("User is deactivated");
}

#[tokio::test]
async fn principal_errors_come_before_permission_errors() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering"]),
        json!([MEMBER2.id, 9999]),
    )
    .await;

    r.bad_request("No such user");
}

// -------------------------------------------------------------------- stream names

#[tokio::test]
async fn an_empty_stream_name_is_rejected() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    leave(&mark, json!(["Engineering", ""]))
        .await
        .bad_request("Channel name can't be empty.");
    leave(&mark, json!(["   "]))
        .await
        .bad_request("Channel name can't be empty.");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_stream_name_over_sixty_characters_is_rejected() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let r = leave(&mark, json!(["Engineering", "x".repeat(61)])).await;
    r.bad_request("Channel name too long (limit: 60 characters).");
    let r = leave(&mark, json!(["é".repeat(61)])).await;
    r.bad_request("Channel name too long (limit: 60 characters).");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn the_length_limit_counts_characters_of_the_trimmed_name() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    // 60 characters are allowed (the stream just does not exist), even as 120 UTF-8
    // bytes, and even with surrounding spaces that trimming removes.
    let sixty = "y".repeat(60);
    leave(&mark, json!([sixty.clone()]))
        .await
        .stream_does_not_exist(&sixty);
    let sixty_wide = "é".repeat(60);
    leave(&mark, json!([sixty_wide.clone()]))
        .await
        .stream_does_not_exist(&sixty_wide);
    leave(&mark, json!([format!("   {sixty}   ")]))
        .await
        .stream_does_not_exist(&sixty);
}

#[tokio::test]
async fn a_control_character_is_reported_with_its_position() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    leave(&mark, json!(["ab\u{7}c"]))
        .await
        .bad_request("Invalid character in channel name, at position 3.");
    leave(&mark, json!(["\u{1b}[31mred"]))
        .await
        .bad_request("Invalid character in channel name, at position 1.");
    leave(&mark, json!(["two\nlines"]))
        .await
        .bad_request("Invalid character in channel name, at position 4.");
    leave(&mark, json!(["tail\u{7f}"]))
        .await
        .bad_request("Invalid character in channel name, at position 5.");
    leave(&mark, json!(["nul\u{0}"]))
        .await
        .bad_request("Invalid character in channel name, at position 4.");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn control_character_positions_count_characters_of_the_trimmed_name() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    // Leading spaces are trimmed first; "é" is one character (two bytes).
    leave(&mark, json!(["   ab\u{1}"]))
        .await
        .bad_request("Invalid character in channel name, at position 3.");
    leave(&mark, json!(["ééé\u{7}"]))
        .await
        .bad_request("Invalid character in channel name, at position 4.");
}

#[tokio::test]
async fn a_unicode_noncharacter_is_an_invalid_character() {
    // Zulip's `is_character_printable` (zerver/lib/string_validation.py) rejects the
    // categories Cc and Cs and the 66 Unicode noncharacters (U+FDD0..U+FDEF and every
    // U+xFFFE / U+xFFFF), not only control characters.
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for (name, position) in [
        ("ab\u{fffe}", 3),
        ("ab\u{ffff}", 3),
        ("\u{fdd0}x", 1),
        ("x\u{fdef}", 2),
        ("abc\u{1fffe}", 4),
        ("\u{10ffff}", 1),
    ] {
        leave(&mark, json!([name])).await.bad_request(&format!(
            "Invalid character in channel name, at position {position}."
        ));
    }
}

#[tokio::test]
async fn a_c1_control_character_is_an_invalid_character() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["ab\u{90}"])).await;

    r.bad_request("Invalid character in channel name, at position 3.");
}

#[tokio::test]
async fn format_characters_are_allowed_in_names() {
    // U+200B (zero width space) and U+00AD (soft hyphen) are category Cf, not Cc: allowed.
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    leave(&mark, json!(["a\u{200b}b"]))
        .await
        .stream_does_not_exist("a\u{200b}b");
    leave(&mark, json!(["soft\u{ad}hyphen"]))
        .await
        .stream_does_not_exist("soft\u{ad}hyphen");
}

#[tokio::test]
async fn stream_name_errors_come_before_permission_and_existence_errors() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    remove(&mark, json!(["Engineering", ""]), json!([MEMBER2.id]))
        .await
        .bad_request("Channel name can't be empty.");
    leave(&mark, json!(["nope", "z".repeat(61)]))
        .await
        .bad_request("Channel name too long (limit: 60 characters).");
    leave(&mark, json!(["Hidden Lair", "bad\u{7}"]))
        .await
        .bad_request("Invalid character in channel name, at position 4.");
}

// ---------------------------------------------------------------- missing streams

#[tokio::test]
async fn a_missing_stream_is_reported_in_the_documented_shape() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["nonexistent"])).await;

    let body = r.stream_does_not_exist("nonexistent");
    let keys: BTreeSet<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from(["code", "msg", "result", "stream"]),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn the_first_missing_stream_in_request_order_is_named() {
    let server = TestServer::standard();

    let r = leave(
        &server.as_user(&MEMBER),
        json!(["Engineering", "zeta", "alpha"]),
    )
    .await;

    r.stream_does_not_exist("zeta");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_missing_stream_is_named_as_trimmed() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["  Ghost Town  "])).await;

    r.stream_does_not_exist("Ghost Town");
}

// ------------------------------------------------------------------- all or nothing

#[tokio::test]
async fn a_missing_stream_makes_the_whole_request_change_nothing() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering", "Verona", "nope"]),
        json!([MEMBER.id, MEMBER2.id]),
    )
    .await;

    r.stream_does_not_exist("nope");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_missing_stream_stops_a_self_unsubscribe_too() {
    let server = TestServer::standard();

    let r = leave(
        &server.as_user(&MEMBER),
        json!(["Engineering", "nope", "Verona"]),
    )
    .await;

    r.stream_does_not_exist("nope");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn an_invalid_name_at_the_end_makes_the_whole_request_change_nothing() {
    let server = TestServer::standard();

    let r = remove(
        &server.as_user(&OWNER),
        json!(["Engineering", "Design", "bad\u{7}name"]),
        json!([MEMBER2.id]),
    )
    .await;

    r.bad_request("Invalid character in channel name, at position 4.");
    assert_unchanged(&server).await;
}

// ----------------------------------------------------------- where parameters come from

#[tokio::test]
async fn parameters_may_come_from_the_query_string() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .delete_split(SUBS, &[("subscriptions", json!(["Engineering"]))], &[])
        .await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Engineering", MEMBER.id)])
    );
}

#[tokio::test]
async fn parameters_may_be_split_between_query_string_and_body() {
    let server = TestServer::standard();

    let r = server
        .as_user(&ADMIN)
        .delete_split(
            SUBS,
            &[("principals", json!([MEMBER2.id]))],
            &[("subscriptions", json!(["Design"]))],
        )
        .await;

    assert_unsubscribed(&r, &["Design"], &[]);
    assert_eq!(
        server.subscription_state().await,
        state_without(&[("Design", MEMBER2.id)])
    );
}

#[tokio::test]
async fn a_multipart_body_is_accepted() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let boundary = "weirBoundary7MA4YWxkTrZu0gW";
    let body = format!(
        "--{b}\r\nContent-Disposition: form-data; name=\"subscriptions\"\r\n\r\n[\"Engineering\"]\r\n--{b}--\r\n",
        b = boundary
    );
    let rb = mark
        .request(Method::DELETE, SUBS)
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body);

    let r = mark.send(rb, "DELETE subscriptions (multipart)").await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
}

#[tokio::test]
async fn unknown_parameters_are_listed_sorted_and_ignored() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .delete(
            SUBS,
            &[
                ("zeta", json!("1")),
                ("subscriptions", json!(["Engineering"])),
                ("alpha", json!(true)),
                ("mid_name", json!([1, 2])),
            ],
        )
        .await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert_eq!(
        r.json["ignored_parameters_unsupported"],
        json!(["alpha", "mid_name", "zeta"])
    );
}

#[tokio::test]
async fn a_success_without_unknown_parameters_has_no_ignored_list() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&MEMBER), json!(["Engineering"])).await;

    let body = r.ok();
    assert!(
        body.get("ignored_parameters_unsupported").is_none(),
        "{}",
        r.debug()
    );
}

// -------------------------------------------------------------------- who may call

#[tokio::test]
async fn an_incoming_webhook_bot_may_not_call_it() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&WEBHOOK_BOT), json!(["Engineering"])).await;

    r.unauthorized("This API is not available to incoming webhook bots.");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_request_without_credentials_is_refused() {
    let server = TestServer::standard();

    let r = leave(&server.anon(), json!(["Engineering"])).await;

    r.unauthorized("Not logged in: API authentication or user session required");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn a_deactivated_user_may_not_call_it() {
    let server = TestServer::standard();

    let r = leave(&server.as_user(&DEACTIVATED), json!(["Engineering"])).await;

    r.unauthorized("Account is deactivated");
}

// ------------------------------------------------------------------- side effects

async fn message_count(api: &Api) -> usize {
    let r = api
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1000)),
                ("num_after", json!(0)),
            ],
        )
        .await;
    r.ok()["messages"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn no_message_is_sent_for_an_unsubscription() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);
    let mark = server.as_user(&MEMBER);
    let before = (message_count(&nina).await, message_count(&mark).await);

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering", "Hidden Lair"]),
        json!([MEMBER2.id]),
    )
    .await;
    assert_unsubscribed(&r, &["Engineering", "Hidden Lair"], &[]);
    let own = leave(&mark, json!(["Verona"])).await;
    assert_unsubscribed(&own, &["Verona"], &[]);

    assert_eq!(
        (message_count(&nina).await, message_count(&mark).await),
        before
    );
}
