//! `DELETE /api/v1/users/me/subscriptions` at the default feature level.
//!
//! Most cases are rows of tables: successes each run on a server of their own and check
//! the answer and the whole subscription state after; refusals share a server per table
//! and each must change nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";
const PERMISSION: &str = "Insufficient permission";
const NO_SUCH_USER: &str = "No such user";
const DEACTIVATED_USER: &str = "User is deactivated";
const EMPTY_NAME: &str = "Channel name can't be empty.";
const TOO_LONG: &str = "Channel name too long (limit: 60 characters).";

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
        let removed = state.get_mut(*stream).is_some_and(|s| s.remove(user));
        assert!(removed, "{stream}/{user} not seeded");
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

// ---------------------------------------------------------------------- tables

/// One call of the endpoint: who makes it, and the parameters it sends.
struct Call {
    caller: Account,
    /// `None`: the argument is left out.
    subscriptions: Option<Value>,
    /// `None`: not sent (the caller themself).
    principals: Option<Value>,
}

/// `caller` unsubscribes themself from `subscriptions`.
fn leaving(caller: Account, subscriptions: Value) -> Call {
    Call {
        caller,
        subscriptions: Some(subscriptions),
        principals: None,
    }
}

/// `caller` unsubscribes `principals` from `subscriptions`.
fn removing(caller: Account, subscriptions: Value, principals: Value) -> Call {
    Call {
        caller,
        subscriptions: Some(subscriptions),
        principals: Some(principals),
    }
}

impl Call {
    async fn send(self, server: &TestServer) -> Resp {
        let params: Vec<Param<'_>> = [
            self.subscriptions.map(|s| ("subscriptions", s)),
            self.principals.map(|p| ("principals", p)),
        ]
        .into_iter()
        .flatten()
        .collect();
        server.as_user(&self.caller).delete(SUBS, &params).await
    }
}

/// A success: the `removed` and `not_removed` lists, and the (stream, user) pairs that
/// are gone afterwards (every other subscription stays).
struct Removed {
    removed: &'static [&'static str],
    not_removed: &'static [&'static str],
    gone: &'static [(&'static str, u64)],
}

fn removed(
    removed: &'static [&'static str],
    not_removed: &'static [&'static str],
    gone: &'static [(&'static str, u64)],
) -> Removed {
    Removed {
        removed,
        not_removed,
        gone,
    }
}

/// Runs each success on a fresh server: the answer, then the whole state after.
async fn expect_removals(cases: Vec<(&str, Call, Removed)>) {
    for (case, call, want) in cases {
        eprintln!("case: {case}");
        let server = TestServer::standard();
        let r = call.send(&server).await;
        assert_unsubscribed(&r, want.removed, want.not_removed);
        assert_eq!(
            server.subscription_state().await,
            state_without(want.gone),
            "{case}: subscriptions after"
        );
    }
}

/// How a refused call is answered.
enum Refused {
    /// 400 `BAD_REQUEST` with this message.
    Bad(String),
    /// 400 `BAD_REQUEST` with any message (a parameter of the wrong shape).
    Malformed,
    /// `STREAM_DOES_NOT_EXIST` naming this stream.
    NoStream(String),
    /// `REQUEST_VARIABLE_MISSING` for this argument.
    Missing(&'static str),
    /// 401 with this message.
    Unauthorized(&'static str),
    /// Zulip's `UserDeactivatedError`.
    Deactivated,
}

fn bad(msg: &str) -> Refused {
    Refused::Bad(msg.to_string())
}

fn no_stream(name: &str) -> Refused {
    Refused::NoStream(name.to_string())
}

fn invalid_character(position: usize) -> Refused {
    Refused::Bad(format!(
        "Invalid character in channel name, at position {position}."
    ))
}

/// Runs refusals one after another on one server; each must change nothing.
async fn expect_refusals(cases: Vec<(&str, Call, Refused)>) {
    let server = TestServer::standard();
    for (case, call, want) in cases {
        eprintln!("case: {case}");
        let r = call.send(&server).await;
        match want {
            Refused::Bad(msg) => {
                r.bad_request(&msg);
            }
            Refused::Malformed => {
                r.error_status_code(400, "BAD_REQUEST");
            }
            Refused::NoStream(name) => {
                r.stream_does_not_exist(&name);
            }
            Refused::Missing(var) => {
                let body = r.err(
                    400,
                    "REQUEST_VARIABLE_MISSING",
                    &format!("Missing '{var}' argument"),
                );
                assert_eq!(body["var_name"], var, "{case}\n{}", r.debug());
            }
            Refused::Unauthorized(msg) => {
                r.unauthorized(msg);
            }
            Refused::Deactivated => {
                r.err(401, "USER_DEACTIVATED", "Account is deactivated");
            }
        }
        assert_unchanged(&server).await;
    }
}

// ---------------------------------------------------------------- removing yourself

#[tokio::test]
async fn removing_yourself() {
    expect_removals(vec![
        (
            "a member leaves a public stream and is no longer subscribed",
            leaving(MEMBER, json!(["Engineering"])),
            removed(&["Engineering"], &[], &[("Engineering", MEMBER.id)]),
        ),
        (
            "leaving a stream you are not in is reported as not removed",
            leaving(MODERATOR, json!(["Engineering"])),
            removed(&[], &["Engineering"], &[]),
        ),
        (
            "leaving several streams reports each outcome",
            leaving(MEMBER, json!(["Engineering", "Design", "Verona"])),
            removed(
                &["Engineering", "Verona"],
                &["Design"],
                &[("Engineering", MEMBER.id), ("Verona", MEMBER.id)],
            ),
        ),
        (
            "stream names match case-insensitively and answer with the stored spelling",
            leaving(MEMBER, json!(["eNGINEERING", "verona"])),
            removed(
                &["Engineering", "Verona"],
                &[],
                &[("Engineering", MEMBER.id), ("Verona", MEMBER.id)],
            ),
        ),
        (
            "non-ASCII stream names match case-insensitively",
            leaving(MEMBER, json!(["CAFÉ"])),
            removed(&["Café"], &[], &[("Café", MEMBER.id)]),
        ),
        (
            "stream names are trimmed",
            leaving(MEMBER, json!(["  Engineering  ", " Secret Plans"])),
            removed(
                &["Engineering", "Secret Plans"],
                &[],
                &[("Engineering", MEMBER.id), ("Secret Plans", MEMBER.id)],
            ),
        ),
        (
            "duplicate and case-variant names count once",
            leaving(
                MEMBER,
                json!([
                    "Engineering",
                    "engineering",
                    " ENGINEERING ",
                    "Design",
                    "design"
                ]),
            ),
            removed(&["Engineering"], &["Design"], &[("Engineering", MEMBER.id)]),
        ),
        (
            "an empty subscriptions list succeeds with empty lists",
            leaving(MEMBER, json!([])),
            removed(&[], &[], &[]),
        ),
        (
            // Permission is checked over the named streams; there are none.
            "an empty subscriptions list with other principals succeeds",
            removing(MEMBER, json!([]), json!([MEMBER2.id])),
            removed(&[], &[], &[]),
        ),
        (
            "empty principals mean the caller",
            removing(MEMBER, json!(["Engineering"]), json!([])),
            removed(&["Engineering"], &[], &[("Engineering", MEMBER.id)]),
        ),
        (
            "a member may name themself as principal by id",
            removing(MEMBER, json!(["Engineering"]), json!([MEMBER.id])),
            removed(&["Engineering"], &[], &[("Engineering", MEMBER.id)]),
        ),
        (
            "a member may name themself as principal by email",
            removing(MEMBER, json!(["Verona"]), json!(["Mark@Globex.Test"])),
            removed(&["Verona"], &[], &[("Verona", MEMBER.id)]),
        ),
        (
            "a member may leave a private stream they are in",
            leaving(MEMBER, json!(["Secret Plans"])),
            removed(&["Secret Plans"], &[], &[("Secret Plans", MEMBER.id)]),
        ),
        (
            "a guest leaving a public stream they are not in gets not removed",
            leaving(GUEST, json!(["Engineering"])),
            removed(&[], &["Engineering"], &[]),
        ),
        (
            "a guest may leave streams they are in",
            leaving(GUEST, json!(["Design", "Hidden Lair"])),
            removed(
                &["Design", "Hidden Lair"],
                &[],
                &[("Design", GUEST.id), ("Hidden Lair", GUEST.id)],
            ),
        ),
        (
            "a generic bot may unsubscribe itself",
            leaving(GENERIC_BOT, json!(["Engineering"])),
            removed(&["Engineering"], &[], &[("Engineering", GENERIC_BOT.id)]),
        ),
    ])
    .await;
}

// ------------------------------------------------------ one entry per (user, stream)

#[tokio::test]
async fn results_list_one_entry_per_user_and_stream() {
    expect_removals(vec![
        (
            // Engineering: 104 and 105 in, 103 not. Design: 103 and 105 in, 104 not.
            "one entry per user and stream",
            removing(
                ADMIN,
                json!(["Engineering", "Design"]),
                json!([MEMBER.id, MEMBER2.id, MODERATOR.id]),
            ),
            removed(
                &["Engineering", "Engineering", "Design", "Design"],
                &["Engineering", "Design"],
                &[
                    ("Engineering", MEMBER.id),
                    ("Engineering", MEMBER2.id),
                    ("Design", MODERATOR.id),
                    ("Design", MEMBER2.id),
                ],
            ),
        ),
        (
            "removing five users from one stream lists its name five times",
            removing(
                OWNER,
                json!(["engineering"]),
                json!([
                    ADMIN.id,
                    MEMBER.id,
                    MEMBER2.id,
                    WEBHOOK_BOT.id,
                    GENERIC_BOT.id
                ]),
            ),
            removed(
                &["Engineering"; 5],
                &[],
                &[
                    ("Engineering", ADMIN.id),
                    ("Engineering", MEMBER.id),
                    ("Engineering", MEMBER2.id),
                    ("Engineering", WEBHOOK_BOT.id),
                    ("Engineering", GENERIC_BOT.id),
                ],
            ),
        ),
        (
            "principals given as emails match case-insensitively",
            removing(
                ADMIN,
                json!(["Engineering"]),
                json!(["MARK@GLOBEX.TEST", "nina@Globex.test"]),
            ),
            removed(
                &["Engineering", "Engineering"],
                &[],
                &[("Engineering", MEMBER.id), ("Engineering", MEMBER2.id)],
            ),
        ),
        (
            "a principal named twice by id counts once",
            removing(ADMIN, json!(["Engineering"]), json!([MEMBER.id, MEMBER.id])),
            removed(&["Engineering"], &[], &[("Engineering", MEMBER.id)]),
        ),
        (
            "a principal named twice by email counts once",
            removing(
                ADMIN,
                json!(["Verona"]),
                json!(["nina@globex.test", "NINA@globex.test"]),
            ),
            removed(&["Verona"], &[], &[("Verona", MEMBER2.id)]),
        ),
    ])
    .await;
}

// ------------------------------------------------------------------- permissions

#[tokio::test]
async fn who_may_remove_whom() {
    const EVERY_PAIR: &[&str] = &[
        "Hidden Lair",
        "Hidden Lair",
        "Secret Plans",
        "Secret Plans",
        "Design",
        "Design",
    ];
    expect_removals(vec![
        (
            "the owner removes others from a private stream they are not in",
            removing(OWNER, json!(["Hidden Lair"]), json!([MEMBER2.id])),
            removed(&["Hidden Lair"], &[], &[("Hidden Lair", MEMBER2.id)]),
        ),
        (
            "an administrator removes anyone from any stream",
            removing(
                ADMIN,
                json!(["Hidden Lair", "Secret Plans", "Design"]),
                json!([GUEST.id, OTHER_BOT.id, MEMBER.id, OWNER.id]),
            ),
            removed(
                EVERY_PAIR,
                EVERY_PAIR,
                &[
                    ("Hidden Lair", GUEST.id),
                    ("Hidden Lair", OTHER_BOT.id),
                    ("Secret Plans", MEMBER.id),
                    ("Secret Plans", OWNER.id),
                    ("Design", GUEST.id),
                    ("Design", OTHER_BOT.id),
                ],
            ),
        ),
        (
            "an administrator leaving an unjoined private stream gets not removed",
            leaving(ADMIN, json!(["Hidden Lair"])),
            removed(&[], &["Hidden Lair"], &[]),
        ),
        (
            "a bot owner removes their generic bot from a public stream",
            removing(MEMBER, json!(["Engineering"]), json!([GENERIC_BOT.id])),
            removed(&["Engineering"], &[], &[("Engineering", GENERIC_BOT.id)]),
        ),
        (
            "a bot owner removes their incoming webhook bot",
            removing(MEMBER, json!(["Engineering"]), json!([WEBHOOK_BOT.email])),
            removed(&["Engineering"], &[], &[("Engineering", WEBHOOK_BOT.id)]),
        ),
        (
            "a bot owner removes their bot from a private stream they are in",
            removing(MEMBER, json!(["Secret Plans"]), json!([GENERIC_BOT.id])),
            removed(&["Secret Plans"], &[], &[("Secret Plans", GENERIC_BOT.id)]),
        ),
        (
            "a bot owner removes themself and their bots together",
            removing(
                MEMBER,
                json!(["Engineering", "Verona"]),
                json!([MEMBER.id, GENERIC_BOT.id, WEBHOOK_BOT.id]),
            ),
            removed(
                &["Engineering", "Engineering", "Engineering", "Verona"],
                &["Verona", "Verona"],
                &[
                    ("Engineering", MEMBER.id),
                    ("Engineering", GENERIC_BOT.id),
                    ("Engineering", WEBHOOK_BOT.id),
                    ("Verona", MEMBER.id),
                ],
            ),
        ),
        (
            "a bot may name itself as principal",
            removing(
                GENERIC_BOT,
                json!(["Secret Plans"]),
                json!([GENERIC_BOT.email]),
            ),
            removed(&["Secret Plans"], &[], &[("Secret Plans", GENERIC_BOT.id)]),
        ),
        (
            "a guest may name themself as principal",
            removing(GUEST, json!(["Design"]), json!(["GUS@globex.test"])),
            removed(&["Design"], &[], &[("Design", GUEST.id)]),
        ),
    ])
    .await;
}

#[tokio::test]
async fn who_may_not_remove_whom() {
    expect_refusals(vec![
        (
            "a member cannot remove another member",
            removing(MEMBER, json!(["Engineering"]), json!([MEMBER2.id])),
            bad(PERMISSION),
        ),
        (
            "a moderator cannot remove others",
            removing(MODERATOR, json!(["Design"]), json!([MEMBER2.id])),
            bad(PERMISSION),
        ),
        (
            "a guest cannot remove others",
            removing(GUEST, json!(["Design"]), json!(["nina@globex.test"])),
            bad(PERMISSION),
        ),
        (
            "a generic bot cannot remove others",
            removing(GENERIC_BOT, json!(["Engineering"]), json!([MEMBER.id])),
            bad(PERMISSION),
        ),
        (
            "a member cannot remove themself and someone else together",
            removing(
                MEMBER,
                json!(["Engineering"]),
                json!([MEMBER.id, MEMBER2.id]),
            ),
            bad(PERMISSION),
        ),
        (
            // 202 is in Hidden Lair; its owner 104 is not, so for 104 the stream does not
            // exist.
            "a bot owner cannot reach their bot in a private stream they cannot see",
            removing(MEMBER, json!(["Hidden Lair"]), json!([GENERIC_BOT.id])),
            no_stream("Hidden Lair"),
        ),
        (
            // 202 is in Engineering (visible to its owner 104) and in Hidden Lair (not).
            "a bot owner naming a visible and an invisible stream changes nothing",
            removing(
                MEMBER,
                json!(["Engineering", "Hidden Lair"]),
                json!([GENERIC_BOT.id]),
            ),
            no_stream("Hidden Lair"),
        ),
        (
            "a bot cannot remove its owner",
            removing(GENERIC_BOT, json!(["Verona"]), json!([MEMBER.id])),
            bad(PERMISSION),
        ),
        (
            "a member cannot remove a bot owned by someone else",
            removing(MEMBER, json!(["Design"]), json!([OTHER_BOT.id])),
            bad(PERMISSION),
        ),
        (
            "the permission error comes before the missing stream error",
            removing(MEMBER, json!(["Engineering", "nope"]), json!([MEMBER2.id])),
            bad(PERMISSION),
        ),
        (
            // Permission is checked over the named streams that exist and are visible:
            // none here.
            "removing others from only missing streams reports the missing stream",
            removing(MEMBER, json!(["nope"]), json!([MEMBER2.id])),
            no_stream("nope"),
        ),
    ])
    .await;
}

// ---------------------------------------------------------------- parameter parsing

#[tokio::test]
async fn malformed_parameters_are_refused() {
    let mut cases = vec![
        (
            "a missing subscriptions argument is reported",
            Call {
                caller: MEMBER,
                subscriptions: None,
                principals: None,
            },
            Refused::Missing("subscriptions"),
        ),
        (
            "a missing subscriptions argument is reported even with principals",
            Call {
                caller: ADMIN,
                subscriptions: None,
                principals: Some(json!([MEMBER.id])),
            },
            Refused::Missing("subscriptions"),
        ),
    ];
    for not_json in ["Engineering", "[\"Engineering\"", "['Engineering']", ""] {
        cases.push((
            "subscriptions that are not JSON are rejected",
            leaving(MEMBER, json!(not_json)),
            bad("subscriptions is not valid JSON"),
        ));
    }
    for not_a_list in [
        json!("\"Engineering\""),
        json!({"name": "Engineering"}),
        json!(7),
        json!(true),
    ] {
        cases.push((
            "subscriptions that are not a list are rejected",
            leaving(MEMBER, not_a_list),
            bad("subscriptions is not a list"),
        ));
    }
    for (list, index) in [
        (json!([11]), 0),
        (json!(["Engineering", {"name": "Design"}]), 1),
        (json!(["Engineering", "Verona", null]), 2),
    ] {
        cases.push((
            "a subscriptions element that is not a string is named by index",
            leaving(MEMBER, list),
            bad(&format!("subscriptions[{index}] is not a string")),
        ));
    }
    cases.push((
        "principals that are not JSON are rejected",
        removing(ADMIN, json!(["Engineering"]), json!("[104")),
        bad("principals is not valid JSON"),
    ));
    for wrong_shape in [
        json!("104"),
        json!({"id": 104}),
        json!([true]),
        json!([[104]]),
        json!([null]),
    ] {
        cases.push((
            "principals of the wrong shape are rejected",
            removing(ADMIN, json!(["Engineering"]), wrong_shape),
            Refused::Malformed,
        ));
    }
    cases.extend([
        (
            "a list mixing ids and emails is rejected",
            removing(
                ADMIN,
                json!(["Engineering"]),
                json!([MEMBER.id, "nina@globex.test"]),
            ),
            Refused::Malformed,
        ),
        (
            "parsing errors come before principal errors",
            removing(ADMIN, json!("not json"), json!([9999])),
            bad("subscriptions is not valid JSON"),
        ),
    ]);
    expect_refusals(cases).await;
}

// ----------------------------------------------------------------------- principals

#[tokio::test]
async fn principals_that_are_not_active_users_are_refused() {
    expect_refusals(vec![
        (
            "an unknown user id is no such user",
            removing(ADMIN, json!(["Engineering"]), json!([MEMBER.id, 9999])),
            bad(NO_SUCH_USER),
        ),
        (
            "an unknown email is no such user",
            removing(
                ADMIN,
                json!(["Engineering"]),
                json!(["mark@globex.test", "nobody@globex.test"]),
            ),
            bad(NO_SUCH_USER),
        ),
        (
            "a deactivated principal is reported by id",
            removing(ADMIN, json!(["Engineering"]), json!([DEACTIVATED.id])),
            bad(DEACTIVATED_USER),
        ),
        (
            "a deactivated principal is reported by email",
            removing(ADMIN, json!(["Engineering"]), json!(["DORA@globex.test"])),
            bad(DEACTIVATED_USER),
        ),
        (
            "principal errors come before stream name errors (unknown user)",
            removing(ADMIN, json!(["", "nope"]), json!([9999])),
            bad(NO_SUCH_USER),
        ),
        (
            "principal errors come before stream name errors (deactivated user)",
            removing(ADMIN, json!(["nope"]), json!([DEACTIVATED.id])),
            bad(DEACTIVATED_USER),
        ),
        (
            "principal errors come before permission errors",
            removing(MEMBER, json!(["Engineering"]), json!([MEMBER2.id, 9999])),
            bad(NO_SUCH_USER),
        ),
    ])
    .await;
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

// -------------------------------------------------------------------- stream names

#[tokio::test]
async fn invalid_stream_names_are_refused() {
    let sixty = "y".repeat(60);
    let sixty_wide = "é".repeat(60);
    let mut cases = vec![
        (
            "an empty stream name is rejected",
            leaving(MEMBER, json!(["Engineering", ""])),
            bad(EMPTY_NAME),
        ),
        (
            "a stream name of spaces is empty",
            leaving(MEMBER, json!(["   "])),
            bad(EMPTY_NAME),
        ),
        (
            "a stream name over sixty characters is rejected",
            leaving(MEMBER, json!(["Engineering", "x".repeat(61)])),
            bad(TOO_LONG),
        ),
        (
            "a stream name over sixty multi-byte characters is rejected",
            leaving(MEMBER, json!(["é".repeat(61)])),
            bad(TOO_LONG),
        ),
        // 60 characters are allowed (the stream just does not exist), even as 120 UTF-8
        // bytes, and even with surrounding spaces that trimming removes.
        (
            "the length limit allows sixty characters",
            leaving(MEMBER, json!([sixty.clone()])),
            no_stream(&sixty),
        ),
        (
            "the length limit counts characters, not bytes",
            leaving(MEMBER, json!([sixty_wide.clone()])),
            no_stream(&sixty_wide),
        ),
        (
            "the length limit counts the trimmed name",
            leaving(MEMBER, json!([format!("   {sixty}   ")])),
            no_stream(&sixty),
        ),
    ];
    // A control character is reported with its position, counted in characters of the
    // trimmed name ("é" is one character, two bytes).
    for (name, position) in [
        ("ab\u{7}c", 3),
        ("\u{1b}[31mred", 1),
        ("two\nlines", 4),
        ("tail\u{7f}", 5),
        ("nul\u{0}", 4),
        ("   ab\u{1}", 3),
        ("ééé\u{7}", 4),
    ] {
        cases.push((
            "a control character is reported with its position",
            leaving(MEMBER, json!([name])),
            invalid_character(position),
        ));
    }
    // Zulip's `is_character_printable` (zerver/lib/string_validation.py) rejects the
    // categories Cc and Cs and the 66 Unicode noncharacters (U+FDD0..U+FDEF and every
    // U+xFFFE / U+xFFFF), not only control characters; C1 controls are Cc.
    for (name, position) in [
        ("ab\u{fffe}", 3),
        ("ab\u{ffff}", 3),
        ("\u{fdd0}x", 1),
        ("x\u{fdef}", 2),
        ("abc\u{1fffe}", 4),
        ("\u{10ffff}", 1),
        ("ab\u{90}", 3),
    ] {
        cases.push((
            "a noncharacter or C1 control is an invalid character",
            leaving(MEMBER, json!([name])),
            invalid_character(position),
        ));
    }
    // U+200B (zero width space) and U+00AD (soft hyphen) are category Cf, not Cc: allowed.
    for name in ["a\u{200b}b", "soft\u{ad}hyphen"] {
        cases.push((
            "format characters are allowed in names",
            leaving(MEMBER, json!([name])),
            no_stream(name),
        ));
    }
    cases.extend([
        (
            "stream name errors come before permission errors",
            removing(MEMBER, json!(["Engineering", ""]), json!([MEMBER2.id])),
            bad(EMPTY_NAME),
        ),
        (
            "stream name errors come before existence errors",
            leaving(MEMBER, json!(["nope", "z".repeat(61)])),
            bad(TOO_LONG),
        ),
        (
            "stream name errors come before visibility errors",
            leaving(MEMBER, json!(["Hidden Lair", "bad\u{7}"])),
            invalid_character(4),
        ),
    ]);
    expect_refusals(cases).await;
}

// ------------------------------------------------- missing streams, all or nothing

#[tokio::test]
async fn a_missing_stream_makes_the_whole_request_change_nothing() {
    expect_refusals(vec![
        (
            "the first missing stream in request order is named",
            leaving(MEMBER, json!(["Engineering", "zeta", "alpha"])),
            no_stream("zeta"),
        ),
        (
            "a missing stream is named as trimmed",
            leaving(MEMBER, json!(["  Ghost Town  "])),
            no_stream("Ghost Town"),
        ),
        (
            "a missing stream stops removing others",
            removing(
                ADMIN,
                json!(["Engineering", "Verona", "nope"]),
                json!([MEMBER.id, MEMBER2.id]),
            ),
            no_stream("nope"),
        ),
        (
            "a missing stream stops a self-unsubscribe too",
            leaving(MEMBER, json!(["Engineering", "nope", "Verona"])),
            no_stream("nope"),
        ),
        (
            "an invalid name at the end makes the whole request change nothing",
            removing(
                OWNER,
                json!(["Engineering", "Design", "bad\u{7}name"]),
                json!([MEMBER2.id]),
            ),
            invalid_character(4),
        ),
    ])
    .await;
}

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
async fn who_may_not_call_it() {
    expect_refusals(vec![
        (
            "an incoming webhook bot may not call it",
            leaving(WEBHOOK_BOT, json!(["Engineering"])),
            Refused::Unauthorized("This API is not available to incoming webhook bots."),
        ),
        (
            "a deactivated user may not call it",
            leaving(DEACTIVATED, json!(["Engineering"])),
            Refused::Deactivated,
        ),
    ])
    .await;
}

#[tokio::test]
async fn a_request_without_credentials_is_refused() {
    let server = TestServer::standard();

    let r = leave(&server.anon(), json!(["Engineering"])).await;

    r.unauthorized("Not logged in: API authentication or user session required");
    assert_unchanged(&server).await;
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
