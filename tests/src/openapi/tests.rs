//! The validator itself: one deliberately wrong response must be caught three ways, and
//! the rules for feature levels, nulls, errors and paths hold.

use serde_json::{Value, json};

use super::{DEFAULT_FEATURE_LEVEL, Spec, Validator, new_in_level};

fn spec() -> &'static Spec {
    Spec::global()
}

fn check(
    method: &str,
    path: &str,
    status: u16,
    body: &Value,
) -> Result<Option<String>, Vec<String>> {
    spec().check(
        method,
        path,
        status,
        &body.to_string(),
        DEFAULT_FEATURE_LEVEL,
    )
}

/// A `GET /users/{user_id}` answer as the document describes it.
fn valid_user() -> Value {
    json!({
        "result": "success", "msg": "",
        "user": {
            "user_id": 8, "email": "ada@x.test", "full_name": "Ada", "role": 400,
            "is_admin": false, "is_owner": false, "is_guest": false, "is_bot": false,
            "is_active": true, "avatar_url": null, "avatar_version": 1,
            "date_joined": "2026-01-01T00:00:00+00:00", "timezone": "",
            "delivery_email": null
        }
    })
}

#[test]
fn a_valid_response_passes_and_names_its_operation() {
    assert_eq!(
        check("GET", "/api/v1/users/8", 200, &valid_user()),
        Ok(Some("get-user".into()))
    );
}

/// A `GET /streams` answer with one stream, complete at feature level 362 (Zulip 11's
/// fields are optional in the document).
fn valid_streams() -> Value {
    json!({"result": "success", "msg": "", "streams": [{
        "stream_id": 1, "name": "a", "description": "", "rendered_description": "",
        "date_created": 0, "creator_id": null, "invite_only": false, "is_web_public": false,
        "stream_post_policy": 1, "message_retention_days": null,
        "history_public_to_subscribers": true, "first_message_id": null,
        "is_announcement_only": false, "stream_weekly_traffic": null,
        "is_recently_active": true, "is_archived": false,
        "can_remove_subscribers_group": 3, "can_subscribe_group": 1,
        "can_add_subscribers_group": 1, "can_administer_channel_group": 1,
        "can_send_message_group": 7
    }]})
}

#[test]
fn one_wrong_response_is_caught_for_an_extra_field_a_missing_field_and_a_wrong_type() {
    assert_eq!(
        check("GET", "/api/v1/streams", 200, &valid_streams()),
        Ok(Some("get-streams".into()))
    );
    let mut wrong = valid_streams();
    let stream = &mut wrong["streams"][0];
    // In no Zulip document (`subscriber_count`, Zulip 11's, is added with its type).
    stream["subscribers_estimate"] = json!(3);
    stream
        .as_object_mut()
        .map(|fields| fields.remove("first_message_id")); // required
    stream["invite_only"] = json!("no"); // a boolean

    let problems = check("GET", "/api/v1/streams", 200, &wrong)
        .err()
        .unwrap_or_default();
    let text = problems.join("\n");
    assert!(
        text.contains("$.streams[0]: undocumented property `subscribers_estimate`"),
        "{text}"
    );
    assert!(
        text.contains("$.streams[0]: missing required property `first_message_id`"),
        "{text}"
    );
    assert!(
        text.contains("$.streams[0].invite_only: expected boolean, got string"),
        "{text}"
    );
    assert_eq!(
        problems.len(),
        4,
        "a heading and exactly the three problems: {text}"
    );
}

#[test]
fn null_is_refused_where_the_document_does_not_allow_it() {
    let mut body = valid_user();
    body["user"]["is_bot"] = Value::Null;
    let text = check("GET", "/api/v1/users/8", 200, &body)
        .err()
        .unwrap_or_default()
        .join("\n");
    assert!(text.contains("$.user.is_bot: null"), "{text}");
}

#[test]
fn fields_newer_than_the_servers_level_may_be_absent_and_only_then() {
    let stream = json!({
        "stream_id": 1, "name": "a", "description": "", "rendered_description": "",
        "date_created": 0, "creator_id": null, "invite_only": false, "is_web_public": false,
        "stream_post_policy": 1, "message_retention_days": null,
        "history_public_to_subscribers": true, "first_message_id": null,
        "is_announcement_only": false, "stream_weekly_traffic": null,
        "is_recently_active": true, "is_archived": false,
        "can_remove_subscribers_group": 3
    });
    // `can_subscribe_group` is new in feature level 357.
    let body = json!({"result": "success", "msg": "", "streams": [stream]});
    let at = |level| spec().check("GET", "/api/v1/streams", 200, &body.to_string(), level);
    assert!(at(356).is_ok(), "{:?}", at(356));
    let text = at(362).err().unwrap_or_default().join("\n");
    assert!(
        text.contains("missing required property `can_subscribe_group`"),
        "{text}"
    );
}

#[test]
fn errors_fit_the_documented_error_shapes_and_nothing_else() {
    let missing = json!({"result": "error", "msg": "Missing 'content' argument",
                         "code": "REQUEST_VARIABLE_MISSING", "var_name": "content"});
    assert!(check("POST", "/api/v1/messages", 400, &missing).is_ok());
    let unauthorized = json!({"result": "error", "msg": "Invalid API key", "code": "UNAUTHORIZED"});
    assert!(check("GET", "/api/v1/users", 401, &unauthorized).is_ok());
    let invented = json!({"result": "error", "msg": "x", "code": "BAD_REQUEST", "hint": "y"});
    assert!(check("GET", "/api/v1/users", 400, &invented).is_err());
    let rate_limited = json!({"result": "error", "msg": "API usage exceeded rate limit",
                              "code": "RATE_LIMIT_HIT", "retry-after": 0.5});
    assert!(check("GET", "/api/v1/users", 429, &rate_limited).is_ok());
}

#[test]
fn paths_find_their_operations() {
    let find = |method, path| spec().find(method, path).map(|op| op.id.as_str());
    assert_eq!(find("GET", "/api/v1/users/me"), Some("get-own-user"));
    assert_eq!(find("GET", "/api/v1/users/12"), Some("get-user"));
    assert_eq!(
        find("GET", "/api/v1/users/ada@x.test"),
        Some("get-user-by-email")
    );
    assert_eq!(
        find("GET", "/api/v1/streams/11/members"),
        Some("get-subscribers")
    );
    assert_eq!(
        find("DELETE", "/api/v1/users/me/subscriptions"),
        Some("unsubscribe")
    );
    assert_eq!(find("POST", "/api/v1/external/helloworld"), None);
    assert_eq!(find("GET", "/api/v1/bots"), None);
}

#[test]
fn change_notes_give_the_level_a_field_appeared_at() {
    assert_eq!(
        new_in_level("**Changes**: New in Zulip 10.0 (feature level 357)."),
        Some(357)
    );
    assert_eq!(
        new_in_level("New in Zulip 2.0.0. Previously (feature level 12)"),
        None
    );
    assert_eq!(new_in_level("No change notes."), None);
}

#[test]
fn one_of_passes_when_any_alternative_does() {
    let document = json!({});
    let validator = Validator::new(&document, DEFAULT_FEATURE_LEVEL);
    let schema = json!({"oneOf": [{"type": "integer"}, {"type": "integer"}]});
    assert!(validator.validate(&schema, &json!(3)).is_empty());
    assert!(!validator.validate(&schema, &json!("3")).is_empty());
}

#[test]
fn responses_given_by_reference_are_followed() {
    // `reactivate-user`'s 200 is `#/components/responses/SimpleSuccess`.
    let ok = json!({"result": "success", "msg": ""});
    assert_eq!(
        check("POST", "/api/v1/users/8/reactivate", 200, &ok),
        Ok(Some("reactivate-user".into()))
    );
    let extra = json!({"result": "success", "msg": "", "user": 8});
    assert!(check("POST", "/api/v1/users/8/reactivate", 200, &extra).is_err());
}

#[test]
fn zulip_11_fields_are_checked_for_their_type() {
    let mut body = valid_streams();
    body["streams"][0]["subscriber_count"] = json!(3);
    body["streams"][0]["topics_policy"] = json!("inherit");
    body["streams"][0]["folder_id"] = Value::Null;
    body["streams"][0]["can_resolve_topics_group"] = json!(1);
    assert_eq!(
        check("GET", "/api/v1/streams", 200, &body),
        Ok(Some("get-streams".into()))
    );
    body["streams"][0]["topics_policy"] = json!("sometimes");
    body["streams"][0]["subscriber_count"] = json!("3");
    let text = check("GET", "/api/v1/streams", 200, &body)
        .err()
        .unwrap_or_default()
        .join("\n");
    assert!(text.contains("$.streams[0].topics_policy"), "{text}");
    assert!(
        text.contains("$.streams[0].subscriber_count: expected integer"),
        "{text}"
    );
}
