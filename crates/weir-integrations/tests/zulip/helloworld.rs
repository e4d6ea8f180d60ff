//! `zerver/webhooks/helloworld/tests.py`: the Hello World integration, by the shared
//! replay (`mod.rs`).

use super::{Case, replay};

const INTRO: &str =
    "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is ";

#[test]
fn zulips_helloworld_tests_pass() {
    replay(
        "helloworld",
        &[
            Case::message(
                "test_hello_message",
                "hello",
                "Hello World",
                &format!(
                    "{INTRO}**[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**"
                ),
            ),
            Case::message(
                "test_goodbye_message",
                "goodbye",
                "Hello World",
                &format!("{INTRO}**[Goodbye](https://en.wikipedia.org/wiki/Goodbye)**"),
            ),
            Case::message(
                "the URL's topic replaces the integration's",
                "hello",
                "a custom topic",
                &format!(
                    "{INTRO}**[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**"
                ),
            )
            .query("topic", "a custom topic"),
        ],
    );
}
