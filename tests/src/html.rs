//! Judging rendered HTML: a small tag and attribute reader, enough to prove that what a
//! client would display has no live script (no parser dependency for one assertion).

/// The real tags of `html` (text between `<` and `>`; escaped text has no `<`), lower case.
fn tags(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut rest = lower.as_str();
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let close = after.find('>').unwrap_or(after.len());
        out.push(after[..close].to_string());
        rest = &after[close..];
    }
    out
}

/// Attributes of one tag as (name, value), values entity-decoded enough to judge a URL.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let body = tag.trim_start_matches('/');
    let mut chars = body.char_indices().peekable();
    // Skip the tag name.
    while chars
        .peek()
        .is_some_and(|(_, c)| !c.is_whitespace() && *c != '/')
    {
        chars.next();
    }
    loop {
        while chars
            .peek()
            .is_some_and(|(_, c)| c.is_whitespace() || *c == '/')
        {
            chars.next();
        }
        let mut name = String::new();
        while let Some((_, c)) = chars.peek().copied() {
            if c.is_whitespace() || c == '=' || c == '/' {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            break;
        }
        while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
            chars.next();
        }
        let mut value = String::new();
        if chars.peek().is_some_and(|(_, c)| *c == '=') {
            chars.next();
            while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek().copied() {
                Some((_, q @ ('"' | '\''))) => {
                    chars.next();
                    for (_, c) in chars.by_ref() {
                        if c == q {
                            break;
                        }
                        value.push(c);
                    }
                }
                _ => {
                    while let Some((_, c)) = chars.peek().copied() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
            }
        }
        let decoded = value
            .replace("&#x09;", "")
            .replace("&#9;", "")
            .replace("&#x0a;", "")
            .replace("&#10;", "")
            .replace("&colon;", ":")
            .replace("&#58;", ":")
            .replace("&#x3a;", ":");
        let decoded: String = decoded
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_control())
            .collect();
        out.push((name, decoded));
    }
    out
}

/// No script element, no event-handler attribute, no link or source with a script scheme.
#[track_caller]
pub fn assert_harmless(html: &str, what: &str) {
    for tag in tags(html) {
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        assert!(
            !["script", "iframe", "object", "embed"].contains(&name.as_str()),
            "{what}: rendered HTML has a <{name}> element:\n{html}"
        );
        for (attr, value) in attributes(&tag) {
            assert!(
                !attr.starts_with("on"),
                "{what}: event handler `{attr}` in <{tag}>:\n{html}"
            );
            if ["href", "src", "action", "formaction", "xlink:href"].contains(&attr.as_str()) {
                for scheme in ["javascript:", "vbscript:", "data:"] {
                    assert!(
                        !value.starts_with(scheme),
                        "{what}: rendered HTML has {attr}={value:?}:\n{html}"
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::assert_harmless;

    #[test]
    #[should_panic(expected = "href")]
    fn the_harmlessness_check_catches_a_script_link() {
        assert_harmless(
            "<p><a href=\" JavaScript&#x3A;alert(1)\">x</a></p>",
            "self-test",
        );
    }

    #[test]
    #[should_panic(expected = "event handler")]
    fn the_harmlessness_check_catches_an_event_handler() {
        assert_harmless("<p><img src=\"x\" onerror=\"alert(1)\"></p>", "self-test");
    }

    #[test]
    fn the_harmlessness_check_accepts_escaped_text() {
        assert_harmless(
            "<p>&lt;img src=x onerror=alert(1)&gt; <a href=\"https://x.test/\">javascript:</a></p>",
            "self-test",
        );
    }
}
