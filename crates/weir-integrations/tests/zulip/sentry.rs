//! `zerver/webhooks/sentry/tests.py` (zulip/zulip 4aab119d), by the shared replay
//! (`mod.rs`): every test whose fixture is in `shared/reference/fixtures/sentry/`.
//!
//! Not replayed: `test_deprecated_exception_message`, whose fixture
//! (`deprecated_exception_message.json`) is not available from zulip/zulip (see the
//! fixtures' README); the deprecated payload is covered by the unit tests instead.

use super::{Case, Expect, replay};

const ORG: &str = "https://sentry.io/organizations/hypro999-personal-organization/issues";

#[test]
fn zulips_sentry_tests_pass() {
    let mut cases = vec![
        Case::message(
            "test_event_for_exception_golang",
            "event_for_exception_golang",
            r#"*url.Error: Get "bad_url": unsupported protocol scheme """#,
            &format!(
                r#"**New exception:** [*url.Error: Get "bad_url": unsupported protocol scheme ""]({ORG}/1637164584/events/80777a9cc30e4d0eb8904333d5c298b0/)
```quote
**level:** error
**timestamp:** 2020-04-29 11:23:45
**filename:** trigger-exception.go
```

Traceback:
```go
         // Set the timeout to the maximum duration the program can afford to wait.
         defer sentry.Flush(2 * time.Second)

         resp, err := http.Get(os.Args[1])
         if err != nil {{
--->         sentry.CaptureException(err)
             log.Printf("reported to Sentry: %s", err)
             return
         }}
         defer resp.Body.Close()

```"#
            ),
        ),
        Case::message(
            "test_event_for_exception_node",
            "event_for_exception_node",
            "Error: Sample error from node.",
            &format!(
                r#"**New exception:** [Error: Sample error from node.]({ORG}/1638852747/events/f9cb0f2afff74a5aa92e766fb7ac3fe3/)
```quote
**level:** error
**timestamp:** 2020-04-30 06:19:33
**filename:** /home/hemanth/Desktop/sentry/trigger-exception.js
```

Traceback:
```javascript
       dsn: 'https://redacted.ingest.sentry.io/5216640',
     }});

     Sentry.withScope(function(scope) {{
       scope.addEventProcessor(function(event, hint) {{
         return event;
       }});
--->   Sentry.captureException(new Error('Sample error from node.'));
     }});


```"#
            ),
        ),
        Case::message(
            "test_event_for_exception_python",
            "event_for_exception_python",
            "Exception: Custom exception!",
            &format!(
                r#"**New exception:** [Exception: Custom exception!]({ORG}/1635244907/events/599349254a1447a99774b5310711c1a8/)
```quote
**level:** error
**timestamp:** 2020-04-28 13:56:05
**filename:** trigger-exception.py
```

Traceback:
```python3


     if __name__ == "__main__":
         sentry_sdk.init(dsn=SECRET_DSN)
         try:
--->         raise Exception("Custom exception!")
         except Exception as e:
             sentry_sdk.capture_exception(e)

```"#
            ),
        ),
        Case::message(
            "test_event_for_exception_rails",
            "event_for_exception_rails",
            "ZeroDivisionError: divided by 0",
            r#"**New exception:** [ZeroDivisionError: divided by 0](https://sentry.io/organizations/nitk-46/issues/4213933362/events/49b528e13e45497ab9adc3173fd2ed34/)
```quote
**level:** error
**timestamp:** 2023-05-29 10:12:33
**filename:** app/controllers/articles_controller.rb
```

Traceback:
```ruby
     class ArticlesController < ApplicationController

       def index

         begin

--->       132312 / 0

         rescue ZeroDivisionError => exception

           Sentry.capture_exception(exception)

         end

```"#,
        ),
        Case::message(
            "test_event_for_exception_vue",
            "event_for_exception_vue",
            "TypeError: Cannot read properties of null (reading 'inser...",
            r#"**New exception:** [TypeError: Cannot read properties of null (reading 'insertBefore')](https://sentry.io/organizations/nitk-46/issues/4214010673/events/292f78454e774e62999506f759ad791d/)
```quote
**level:** error
**timestamp:** 2023-05-29 11:08:30
**filename:** /node_modules/.vite/deps/chunk-G4DFXOZZ.js
```"#,
        ),
        Case::message(
            "test_webhook_event_for_exception_python",
            "webhook_event_for_exception_python",
            "ValueError: new sentry error.",
            r#"**New exception:** [ValueError: new sentry error.](https://sentry.io/organizations/bar-foundation/issues/1972208801/events/c916dccfd58e41dcabaebef0091f0736/)
```quote
**level:** error
**timestamp:** 2020-10-21 23:25:11
**filename:** trigger-exception.py
```

Traceback:
```python3


     if __name__ == "__main__":
         sentry_sdk.init(dsn=DSN_SECRET)
         try:
--->         raise ValueError("new sentry error.")
         except Exception as e:
             sentry_sdk.capture_exception(e)
```"#,
        ),
        Case::message(
            "test_webhook_event_for_exception_javascript",
            "webhook_event_for_exception_javascript",
            r#"TypeError: can't access property "bar", x.foo is undefined"#,
            r#"**New exception:** [TypeError: can't access property "bar", x.foo is undefined](https://sentry.io/organizations/foo-bar-org/issues/1982047746/events/f3bf5fc4e354451db9e885a69b2a2b51/)
```quote
**level:** error
**timestamp:** 2020-10-26 16:39:54
**filename:** None
```"#,
        ),
        Case::message(
            "test_event_for_exception_js",
            "event_for_exception_js",
            "Error: Something external broke.",
            &format!(
                r#"**New exception:** [Error: Something external broke.]({ORG}/1731239773/events/355c3b2a142046629dd410db2fdda003/)
```quote
**level:** error
**timestamp:** 2020-06-17 14:42:54
**filename:** /mnt/data/Documents/Stuff%20for%20Zulip/Repos/sentry/js/external.js
```"#
            ),
        ),
    ];
    let message_events = [
        (
            "test_event_for_message_golang",
            "event_for_message_golang",
            "A test message event from golang.",
            "1638844654/events/01ecb45633bc4f5ca940ada671124c8f/",
            "2020-04-30 06:14:13",
        ),
        (
            "test_event_for_message_node",
            "event_for_message_node",
            "Test event from node.",
            "1638840427/events/6886bb1fe7ce4497b7836f6083d5fd34/",
            "2020-04-30 06:09:56",
        ),
        (
            "test_event_for_message_python",
            "event_for_message_python",
            "A simple message-based issue.",
            "1635261062/events/8da63b42375e4d3b803c377fefb062f8/",
            "2020-04-28 14:05:04",
        ),
    ];
    for (test, fixture, title, path, time) in message_events {
        cases.push(Case::message(
            test,
            fixture,
            title,
            &format!(
                "**New message event:** [{title}]({ORG}/{path})\n```quote\n**level:** info\n\
                 **timestamp:** {time}\n```"
            ),
        ));
    }
    const INVALID: &str = "Exception: program has entered an invalid state.";
    const HEMANTH: &str = "**Hemanth V. Alluri**";
    cases.extend([
        Case::message(
            "test_issue_assigned_to_individual",
            "issue_assigned_to_individual",
            "A test message event from golang.",
            &format!(
                "Issue **A test message event from golang.** has now been assigned to \
                 {HEMANTH} by {HEMANTH}."
            ),
        ),
        Case::message(
            "test_issue_assigned_to_team",
            "issue_assigned_to_team",
            INVALID,
            &format!(
                "Issue **{INVALID}** has now been assigned to **team lone-wolf** by {HEMANTH}."
            ),
        ),
        Case::message(
            "test_issue_created_for_exception",
            "issue_created_for_exception",
            "Exception: Custom exception!",
            "**New issue created:** Exception: Custom exception!\n```quote\n**level:** error\n\
             **timestamp:** 2020-04-28 13:56:05\n**assignee:** No one\n```",
        ),
        Case::message(
            "test_issue_created_for_message",
            "issue_created_for_message",
            "A simple message-based issue.",
            "**New issue created:** A simple message-based issue.\n```quote\n**level:** info\n\
             **timestamp:** 2020-04-28 14:05:04\n**assignee:** No one\n```",
        ),
        Case::message(
            "test_issue_ignored",
            "issue_ignored",
            INVALID,
            &format!("Issue **{INVALID}** was ignored by {HEMANTH}."),
        ),
        Case::message(
            "test_issue_resolved",
            "issue_resolved",
            INVALID,
            &format!("Issue **{INVALID}** was marked as resolved by {HEMANTH}."),
        ),
        Case::message(
            "test_sample_event_through_alert",
            "sample_event_through_alert",
            "This is an example Python exception",
            "**New message event:** [This is an example Python exception](https://sentry.io/\
             organizations/nitk-46/issues/4218258981/events/b6eff1a49b1f4132850b1238d968da70/)\n\
             ```quote\n**level:** error\n**timestamp:** 2023-05-31 11:06:16\n```",
        ),
        Case::message(
            "test_sample_event_through_plugin",
            "sample_event_through_plugin",
            "This is an example Python exception",
            "**New message event:** [This is an example Python exception](https://nitk-46.\
             sentry.io/issues/4218258981/events/4dc4fc2858aa450eb658be9e5b8ad149/)\n\
             ```quote\n**level:** error\n**timestamp:** 2023-07-09 20:41:24\n```",
        ),
        Case::new(
            "test_raven_sdk_python_event",
            "raven_sdk_python_event",
            Expect::Error(
                "The 'Raven SDK' event isn't currently supported by the Sentry webhook; ignoring"
                    .into(),
            ),
        ),
    ]);
    replay("sentry", &cases);
}
