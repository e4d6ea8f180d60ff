use super::*;

fn render(text: &str) -> String {
    let mut out = String::new();
    push_text_with_emoji(&mut out, text);
    out
}

fn span(name: &str, code: &str) -> String {
    let title = name.replace('_', " ");
    format!(
        "<span aria-label=\"{title}\" class=\"emoji emoji-{code}\" role=\"img\" \
         title=\"{title}\">:{name}:</span>"
    )
}

#[test]
fn every_name_in_zulips_table_renders_with_its_code() {
    let mut count = 0;
    for (name, code) in table::table().names() {
        assert_eq!(render(&format!(":{name}:")), span(name, code), "{name}");
        count += 1;
    }
    assert_eq!(count, 2_956);
}

#[test]
fn zulip_glyphs_where_gemoji_differs() {
    assert_eq!(render(":smile:"), span("smile", "1f642"));
    assert_eq!(render(":big_smile:"), span("big_smile", "1f604"));
    assert_eq!(render(":thumbs_up:"), span("thumbs_up", "1f44d"));
    assert_eq!(render(":+1:"), span("+1", "1f44d"));
    assert_eq!(render(":heart:"), span("heart", "2764"));
    assert_eq!(render(":hash:"), span("hash", "0023-20e3"));
}

#[test]
fn gemoji_only_names_stay_text() {
    for name in [
        "white_check_mark",
        "fried_egg",
        "man-girl-girl",
        "satisfied",
        "heavy_check_mark",
        "grin",
        "hankey",
        "thumbsup",
        "stuck_out_tongue_winking_eye",
        "not_an_emoji",
    ] {
        let typed = format!(":{name}:");
        assert_eq!(render(&typed), typed);
    }
}

#[test]
fn adjacent_names_and_text_between() {
    assert_eq!(
        render(":cat:hello:dog::rabbit:"),
        format!(
            "{}hello{}{}",
            span("cat", "1f408"),
            span("dog", "1f415"),
            span("rabbit", "1f407")
        )
    );
}

#[test]
fn unknown_names_consume_their_colons() {
    assert_eq!(render("12:30:smile:"), "12:30:smile:");
    assert_eq!(
        render("x::y::z :wasted waste: :)"),
        "x::y::z :wasted waste: :)"
    );
    assert_eq!(
        render(":invalidemoji: then :smile:"),
        format!(":invalidemoji: then {}", span("smile", "1f642"))
    );
}

#[test]
fn non_ascii_names() {
    let (name, code) = table::table()
        .names()
        .find(|(name, _)| !name.is_ascii())
        .unwrap_or(("", ""));
    assert!(!name.is_empty());
    assert_eq!(render(&format!(":{name}:")), span(name, code));
}

#[test]
fn zulip_logo() {
    assert_eq!(
        render(":zulip:"),
        "<img alt=\":zulip:\" class=\"emoji\" \
         src=\"/static/generated/emoji/images/emoji/unicode/zulip.png\" title=\"zulip\">"
    );
}

#[test]
fn unicode_emoji_are_wrapped_with_the_canonical_name() {
    assert_eq!(render("💩💩"), span("poop", "1f4a9").repeat(2));
    assert_eq!(
        render("Extra👽Terrestrial"),
        format!("Extra{}Terrestrial", span("alien", "1f47d"))
    );
    assert_eq!(render("🙂"), span("smile", "1f642"));
    assert_eq!(render("😄"), span("big_smile", "1f604"));
}

#[test]
fn zwj_and_vs16_sequences() {
    assert_eq!(render("🤷‍♀️"), span("woman_shrugging", "1f937-200d-2640"));
    assert_eq!(
        render("👁‍🗨 #️⃣"),
        format!(
            "{} {}",
            span("eye_in_speech_bubble", "1f441-200d-1f5e8"),
            span("hash", "0023-20e3")
        )
    );
    assert_eq!(render("⬆️"), span("up", "2b06"));
    // Unknown sequences stay text whole, even around a known emoji.
    assert_eq!(render("🍋‍🟪"), "🍋‍🟪");
    assert_eq!(render("👨🏿‍🦽"), "👨🏿‍🦽");
    // Characters shown as text by default stay text.
    assert_eq!(render("# 1 © ↔"), "# 1 © ↔");
}

#[test]
fn emoticons_only_when_translating() {
    let text = ":) foo :( bar <3 with space : ) real emoji :smile:";
    assert_eq!(
        render(text),
        format!(
            ":) foo :( bar &lt;3 with space : ) real emoji {}",
            span("smile", "1f642")
        )
    );
    let translated = with_emoticons(true, || render(text));
    assert_eq!(
        translated,
        format!(
            "{} foo {} bar {} with space : ) real emoji {}",
            span("smile", "1f642"),
            span("frown", "1f641"),
            span("heart", "2764"),
            span("smile", "1f642")
        )
    );
    assert_eq!(with_emoticons(true, || render("a:) ;)b")), "a:) ;)b");
    assert_eq!(
        with_emoticons(true, || render("Translate this !:)?")),
        format!("Translate this !{}?", span("smile", "1f642"))
    );
    // Touching an emoji span, an emoticon is not one.
    assert_eq!(
        with_emoticons(true, || render(":smile::)")),
        format!("{}:)", span("smile", "1f642"))
    );
}

#[test]
fn surrounding_text_is_escaped() {
    assert_eq!(
        render("<b>:smile:</b>"),
        format!("&lt;b&gt;{}&lt;/b&gt;", span("smile", "1f642"))
    );
}

#[test]
fn lone_and_trailing_colons_are_kept() {
    assert_eq!(render(":"), ":");
    assert_eq!(render("a: b:"), "a: b:");
    assert_eq!(render(":smile"), ":smile");
    assert_eq!(render("::"), "::");
}

/// Emits only Zulip's emoji markup and escaped text, whatever the mix of colons,
/// emoticons and emoji pieces (joiners, selectors, modifiers, tags, halves of flags).
#[test]
fn garbage_never_panics_or_injects_markup() {
    const ATOMS: &[&str] = &[
        ":",
        "::",
        "zulip",
        ":zulip:",
        "smile",
        ":smile:",
        "+1",
        "-",
        "_",
        ":)",
        "(:",
        "<3",
        ":P",
        ";)",
        " ",
        "\n",
        "!",
        "a",
        "é",
        "ñ",
        "🤷",
        "\u{200d}",
        "♀",
        "\u{fe0f}",
        "\u{20e3}",
        "#",
        "1",
        "©",
        "🇫",
        "🇷",
        "🏽",
        "🏴",
        "\u{e0067}",
        "\u{e007f}",
        "💩",
        "<",
        ">",
        "&",
        "\"",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).unwrap_or(0)
    };
    for round in 0..3_000 {
        let len = next(30);
        let text: String = (0..len).map(|_| ATOMS[next(ATOMS.len())]).collect();
        let html = with_emoticons(round % 2 == 0, || render(&text));
        for piece in html.split('<').skip(1) {
            assert!(
                piece.starts_with("span aria-label=\"")
                    || piece.starts_with("/span>")
                    || piece.starts_with("img alt=\":zulip:\" class=\"emoji\""),
                "{piece:?} from {text:?}"
            );
        }
    }
}
