//! Previewing a webhook request without posting it and without a database: the same
//! parameter parsing, integration and renderer as `POST /api/v1/external/<name>`
//! (`webhook::plan`), so that a preview and a real send never disagree.
//! What only the database knows (who the owner is, whom `@**name**` and `#**channel**`
//! name as the bot sees them) is left to the real send; whether the stream exists is the
//! caller's to check, [`missing_channel`] previewing the notice a missing one causes.

use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::compose::Outgoing;
use crate::error::ApiError;
use crate::http::params::Params;
use crate::webhook::notices::missing_channel_notice;
use crate::webhook::plan::{
    ACCEPTED_JSON, Plan, find_integration, is_form, missing_header_error, plan, unsupported_body,
};

/// A request to preview.
#[derive(Debug, Clone, Copy)]
pub struct DryRunRequest<'a> {
    /// The last segment of `/api/v1/external/<integration>`.
    pub integration: &'a str,
    /// The URL's query string (`api_key` is ignored).
    pub query: &'a str,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
    /// Named in the owner's notice about a missing event header.
    pub bot_full_name: &'a str,
}

/// One message the request would produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DryRunMessage {
    /// `None`: a direct message (to the bot's owner).
    pub stream: Option<String>,
    pub topic: String,
    /// Markdown, as stored.
    pub content: String,
    /// The HTML the server would store.
    pub rendered: String,
}

/// What the endpoint would answer and send.
#[derive(Debug, Clone, PartialEq)]
pub struct DryRun {
    pub status: u16,
    pub response: Value,
    /// The bot's messages, in order.
    pub messages: Vec<DryRunMessage>,
    /// Notification Bot's direct messages to the bot's owner.
    pub notices: Vec<DryRunMessage>,
}

/// Runs `request` through the endpoint's pure part.
pub fn dry_run(request: &DryRunRequest<'_>) -> DryRun {
    let integration = match find_integration(request.integration) {
        Ok(integration) => integration,
        Err(error) => return refused(&error),
    };
    let mut query = Params::from_query(request.query);
    if is_form(request.headers) {
        query.merge_missing_form(request.body);
    }
    let _ = query.take_str("api_key");
    match plan(integration, request.headers, request.body, query) {
        // A batch refused partway previews as refused (the server stores the messages
        // before the refused item, as Zulip sends them, then answers the same error).
        Err(error)
        | Ok(Plan::Post {
            then: Some(error), ..
        }) => refused(&error),
        Ok(Plan::Post {
            stream, messages, ..
        }) => {
            let rendered: Result<Vec<_>, _> = messages
                .into_iter()
                .map(Outgoing::without_directory)
                .collect();
            match rendered {
                Ok(rendered) => DryRun {
                    status: StatusCode::OK.as_u16(),
                    response: accepted(),
                    messages: rendered
                        .into_iter()
                        .map(|message| preview(stream.clone(), message))
                        .collect(),
                    notices: Vec::new(),
                },
                Err(error) => refused(&error),
            }
        }
        Ok(Plan::Accepted) => DryRun {
            status: StatusCode::OK.as_u16(),
            response: accepted(),
            messages: Vec::new(),
            notices: Vec::new(),
        },
        Ok(Plan::Unsupported { event }) => DryRun {
            status: StatusCode::OK.as_u16(),
            response: unsupported_body(integration, &event),
            messages: Vec::new(),
            notices: Vec::new(),
        },
        Ok(Plan::MissingHeader { header }) => {
            let path = format!("/api/v1/external/{}", integration.name);
            let text = integration.missing_header_notice(request.bot_full_name, &path, header);
            let mut answer = refused(&missing_header_error(header));
            // The notice is the server's own short text: it always renders.
            if let Ok(notice) = Outgoing::new("", &text) {
                answer.notices.push(preview(None, notice));
            }
            answer
        }
    }
}

/// Notification Bot's notice to the bot's owner when the URL's `stream` names no channel:
/// what a real send causes instead of the bot's message (at most once per five minutes).
/// Whether the channel exists is the caller's to know: this preview has no database.
pub fn missing_channel(bot_email: &str, stream: &str) -> Option<DryRunMessage> {
    let text = missing_channel_notice(bot_email, stream);
    Outgoing::new("", &text)
        .ok()
        .map(|notice| preview(None, notice))
}

fn preview(stream: Option<String>, message: Outgoing) -> DryRunMessage {
    DryRunMessage {
        stream,
        topic: message.topic,
        content: message.content,
        rendered: message.rendered,
    }
}

fn accepted() -> Value {
    serde_json::from_str(ACCEPTED_JSON).unwrap_or(Value::Null)
}

fn refused(error: &ApiError) -> DryRun {
    DryRun {
        status: error.status.as_u16(),
        response: error.body(),
        messages: Vec::new(),
        notices: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use weir_integrations as integrations;

    use super::*;

    fn run(integration: &str, query: &str, headers: &[(&'static str, &str)], body: &str) -> DryRun {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, value.parse().unwrap());
        }
        dry_run(&DryRunRequest {
            integration,
            query,
            headers: &map,
            body: body.as_bytes(),
            bot_full_name: "Relay",
        })
    }

    const HELLO: &str = r#"{"featured_title": "Tea", "featured_url": "https://x.test/tea"}"#;

    #[test]
    fn hello_world_previews_its_rendered_message() {
        let preview = run("helloworld", "api_key=x&stream=dev&topic=t", &[], HELLO);
        assert_eq!(preview.status, 200);
        assert_eq!(preview.response["result"], "success");
        assert_eq!(preview.messages.len(), 1);
        let message = &preview.messages[0];
        assert_eq!(message.stream.as_deref(), Some("dev"));
        assert_eq!(message.topic, "t");
        assert_eq!(
            message.rendered,
            crate::render::render_markdown(&message.content)
        );
        assert!(
            message
                .rendered
                .contains("<strong><a href=\"https://x.test/tea\">Tea</a></strong>")
        );
    }

    #[test]
    fn refusals_and_notices_match_the_endpoint() {
        let missing = run("helloworld", "", &[], r#"{"featured_url": "x"}"#);
        assert_eq!(missing.status, 400);
        assert_eq!(missing.response["code"], "REQUEST_VARIABLE_MISSING");
        assert_eq!(run("nope", "", &[], HELLO).status, 404);
        let (body, _) = bitbucket_fixture("pullrequest_created");
        let no_header = run("bitbucket2", "", &[], body);
        assert_eq!(no_header.status, 400);
        assert_eq!(no_header.response["code"], "MISSING_HTTP_EVENT_HEADER");
        assert_eq!(no_header.notices.len(), 1);
        assert!(no_header.notices[0].content.contains("Your bot Relay"));
        let unsupported = run("bitbucket2", "", &[("X-Event-Key", "repo:nope")], "{}");
        assert_eq!(unsupported.status, 200);
        assert_eq!(
            unsupported.response["code"],
            "UNSUPPORTED_WEBHOOK_EVENT_TYPE"
        );
        assert!(unsupported.messages.is_empty());
    }

    #[test]
    fn zulips_event_names_filter_and_pushes_split() {
        let (body, event) = bitbucket_fixture("push_multiple_changes");
        let all = run("bitbucket2", "stream=dev", &[("X-Event-Key", event)], body);
        assert_eq!(all.messages.len(), 2);
        let only = r#"only_events=["pull_request_*"]"#;
        let filtered = run("bitbucket2", only, &[("X-Event-Key", event)], body);
        assert_eq!(filtered.status, 200);
        assert!(filtered.messages.is_empty());
    }

    #[test]
    fn a_missing_channel_previews_the_owners_notice() {
        let notice = missing_channel("relay-bot@x.test", "genral").unwrap();
        assert_eq!(notice.stream, None);
        assert!(
            notice
                .content
                .starts_with("Your bot `relay-bot@x.test` tried to send")
        );
        assert!(
            notice.rendered.contains("does not exist"),
            "{}",
            notice.rendered
        );
    }

    fn bitbucket_fixture(name: &str) -> (&'static str, &'static str) {
        let fixture = integrations::find("bitbucket2")
            .unwrap()
            .fixtures
            .iter()
            .find(|fixture| fixture.name == name)
            .unwrap();
        (fixture.body, fixture.headers[0].1)
    }
}
