//! Highlighted code and KaTeX math through `POST /messages/render` and `POST /messages`:
//! Zulip's own corpus cases where the output is exact, errors shown as Zulip shows them,
//! and hostile or maximal formulas and code that still render, whole and harmless.

use weir_tests::*;

async fn rendered(api: &Api, content: &str) -> String {
    let r = api
        .post("/messages/render", &[("content", json!(content))])
        .await;
    r.ok()["rendered"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", r.debug()))
        .to_owned()
}

/// Zulip's corpus case `codeblock_hilite_python` (Pygments' classes, exactly).
#[tokio::test]
async fn python_is_highlighted_with_pygments_classes() {
    let server = TestServer::standard();
    let html = rendered(
        &server.as_user(&MEMBER),
        "Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~",
    )
    .await;
    assert_eq!(
        html,
        "<p>Hamlet said:</p>\n<div class=\"codehilite\" data-code-language=\"Python\"><pre>\
         <span></span><code><span class=\"k\">def</span> <span class=\"nf\">speak</span><span \
         class=\"p\">(</span><span class=\"bp\">self</span><span class=\"p\">):</span>\n    \
         <span class=\"n\">x</span> <span class=\"o\">=</span> <span class=\"mi\">1</span>\n\
         </code></pre></div>"
    );
}

#[tokio::test]
async fn math_renders_with_katex_and_errors_as_zulip_shows_them() {
    let server = TestServer::standard();
    let api = server.as_user(&MEMBER);

    let inline = rendered(&api, "$$1 \\oplus 0 = 1$$").await;
    assert!(
        inline.starts_with("<p><span class=\"katex\"><span class=\"katex-mathml\"><math"),
        "{inline}"
    );
    assert!(inline.contains("<annotation encoding=\"application/x-tex\">1 \\oplus 0 = 1<"));

    let display = rendered(&api, "```math\na^2 = b^2 + c^2\n```").await;
    assert!(
        display.starts_with("<p><span class=\"katex-display\"><span class=\"katex\">"),
        "{display}"
    );

    // Zulip's corpus cases `tex_inline_error_no_markdown_inside` and the display one.
    assert_eq!(
        rendered(&api, "$$\\error{**a**}$$").await,
        "<p><span class=\"tex-error\">$$\\error{**a**}$$</span></p>"
    );
    assert_eq!(
        rendered(&api, "~~~math\n\\error{**a**}\n~~~").await,
        "<p><span class=\"tex-error\">\\error{**a**}</span></p>"
    );
    // Money is not math (`tex_multiple_dollars`), nor is code (`tex_escaped`).
    assert_eq!(
        rendered(&api, "We are going to make some $$$ or maybe even $$$$!").await,
        "<p>We are going to make some $$$ or maybe even $$$$!</p>"
    );
    assert_eq!(rendered(&api, "`$$a$$`").await, "<p><code>$$a$$</code></p>");
}

#[tokio::test]
async fn hostile_math_and_code_render_harmless() {
    let server = TestServer::standard();
    let api = server.as_user(&MEMBER2);
    for content in [
        "$$<script type='text/javascript'>alert('xss');</script>$$",
        "~~~math\n\\<script>alert('xss');</script>\n~~~",
        "$$\\href{javascript:alert(1)}{click}$$ $$\\url{javascript:alert(1)}$$",
        "$$\\htmlStyle{background:url(javascript:alert(1))}{x}$$",
        "$$\\includegraphics{https://evil.test/x.png}$$",
        "$$\\def\\a{\\a\\a}\\a$$",
        "```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n```",
        "```js\n\"</code></pre><script>alert(1)</script>\n```",
    ] {
        let html = rendered(&api, content).await;
        assert_harmless(&html, content);
        assert!(
            !html.contains("<script") && !html.contains("<img"),
            "{html}"
        );
    }
}

/// The largest messages Zulip accepts, made of one formula or one code block, are
/// stored (rendered within the per-message budget, whole or with the rest plain).
#[tokio::test]
async fn the_largest_math_and_code_messages_are_sent() {
    let server = TestServer::standard();
    let api = server.as_user(&MEMBER);
    let sum: String = (0..700).map(|i| format!("x_{{{i}}} + ")).collect();
    let code = "def f(x): return x + '<' # c\n".repeat(340);
    for content in [
        format!("```math\n{sum}1\n```"),
        format!("$${sum}1$$"),
        format!("```python\n{code}```"),
        format!("$${}x{}$$", "{".repeat(4_900), "}".repeat(4_900)),
    ] {
        assert!(content.chars().count() <= 10_000);
        let r = api
            .post(
                "/messages",
                &[
                    ("type", json!("stream")),
                    ("to", json!("Verona")),
                    ("topic", json!("big")),
                    ("content", json!(content)),
                ],
            )
            .await;
        r.ok();
    }
}
