use super::*;

const KEY: &str = "aB3dEfGhIjKlMnOpQrStUvWxYz012345";

fn rc(body: &str) -> String {
    format!("[api]\n{body}")
}

fn full() -> String {
    rc(&format!(
        "email=iago@zulip.com\nkey={KEY}\nsite=https://chat.example.com\n"
    ))
}

#[test]
fn parses_a_valid_file() {
    let parsed = parse(&full()).unwrap();
    assert_eq!(parsed.email, "iago@zulip.com");
    assert_eq!(parsed.key.expose(), KEY);
    assert_eq!(parsed.site, "https://chat.example.com");
    assert!(!parsed.insecure);
    assert!(parsed.cert_bundle.is_none() && parsed.client_cert.is_none());
}

#[test]
fn the_key_is_wrapped_in_a_secret_and_not_printed() {
    let parsed = parse(&full()).unwrap();
    let debug = format!("{parsed:?}");
    assert!(!debug.contains(KEY), "{debug}");
    assert!(debug.contains("iago@zulip.com"));
}

#[test]
fn each_missing_key_is_named() {
    let lines = [
        ("email", "email=iago@zulip.com"),
        ("key", &format!("key={KEY}")),
        ("site", "site=chat.example.com"),
    ];
    for (missing, _) in &lines {
        let body: String = lines
            .iter()
            .filter(|(name, _)| name != missing)
            .map(|(_, line)| format!("{line}\n"))
            .collect();
        match parse(&rc(&body)) {
            Err(ZuliprcError::MissingKey(name)) => assert_eq!(name, *missing),
            other => panic!("{missing}: expected MissingKey, got {other:?}"),
        }
        let text = parse(&rc(&body)).unwrap_err().to_string();
        assert!(text.contains(missing), "{text}");
    }
}

#[test]
fn an_empty_value_counts_as_missing() {
    let body = format!("email =\nkey={KEY}\nsite=x.com\n");
    assert!(matches!(
        parse(&rc(&body)),
        Err(ZuliprcError::MissingKey("email"))
    ));
}

#[test]
fn a_missing_api_section_is_reported() {
    let text = format!("[other]\nemail=a@b.c\nkey={KEY}\nsite=x.com\n");
    assert!(matches!(parse(&text), Err(ZuliprcError::MissingSection)));
    assert!(matches!(parse(""), Err(ZuliprcError::MissingSection)));
}

#[test]
fn insecure_accepts_true_and_false_in_any_case() {
    for (value, expected) in [
        ("true", true),
        ("True", true),
        ("FALSE", false),
        ("false", false),
    ] {
        let parsed = parse(&format!("{}insecure = {value}\n", full())).unwrap();
        assert_eq!(parsed.insecure, expected, "{value}");
    }
}

#[test]
fn a_bad_insecure_value_says_what_is_expected() {
    let error = parse(&format!("{}insecure=yes\n", full())).unwrap_err();
    assert!(matches!(&error, ZuliprcError::BadInsecure));
    assert!(error.to_string().contains("'true' or 'false'"), "{error}");
}

#[test]
fn comments_whitespace_and_colons_are_understood() {
    let text = format!(
        "\u{feff}# downloaded from Zulip\n\n; another comment\n[api]\n   email :  iago@zulip.com  \n\
         \tKEY = {KEY}\r\nsite=chat.example.com/\n\n[extra]\nfoo = bar\n"
    );
    let parsed = parse(&text).unwrap();
    assert_eq!(parsed.email, "iago@zulip.com");
    assert_eq!(parsed.key.expose(), KEY);
    assert_eq!(parsed.site, "https://chat.example.com");
}

#[test]
fn site_is_normalized() {
    for (site, expected) in [
        ("chat.example.com", "https://chat.example.com"),
        ("chat.example.com/", "https://chat.example.com"),
        ("http://chat.example.com/", "http://chat.example.com"),
        ("localhost:9991", "http://localhost:9991"),
        ("127.0.0.1", "http://127.0.0.1"),
        ("[::1]:9991", "http://[::1]:9991"),
    ] {
        let text = rc(&format!("email=a@b.c\nkey={KEY}\nsite={site}\n"));
        assert_eq!(parse(&text).unwrap().site, expected, "{site}");
    }
}

#[test]
fn a_malformed_key_is_rejected_without_echoing_it() {
    for key in [
        "short",
        "aB3dEfGhIjKlMnOpQrStUvWxYz01234!",
        "aB3dEfGhIjKlMnOpQrStUvWxYz0123456",
    ] {
        let text = rc(&format!("email=a@b.c\nkey={key}\nsite=x.com\n"));
        let error = parse(&text).unwrap_err();
        assert!(
            matches!(error, ZuliprcError::InvalidKey(_)),
            "{key}: {error:?}"
        );
        assert!(!error.to_string().contains(key), "{error}");
    }
}

#[test]
fn errors_never_quote_the_file() {
    let secret = "s3cr3t-value-from-some-other-file";
    for text in [
        format!("{}this is {secret}\n", full()),
        format!("[api\n{secret}\n"),
        format!("{secret} = 1\n[api]\n"),
        rc(&format!(
            "email=a@b.c\nkey={KEY}\nsite=x.com\ninsecure={secret}\n"
        )),
        rc(&format!("email=a@b.c\nkey={KEY}\nsite=ftp://{secret}\n")),
        rc(&format!(
            "email=a@b.c\nkey={KEY}\nsite=x.com\n{secret}=1\n{secret}=2\n"
        )),
    ] {
        let error = parse(&text).unwrap_err().to_string();
        assert!(!error.contains(secret), "{error}");
    }
}

#[test]
fn only_a_small_regular_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    // A device reads as empty (or forever): it is refused before any reading.
    let error = load(Path::new("/dev/null")).unwrap_err();
    assert!(matches!(error, ZuliprcError::NotAFile { .. }), "{error:?}");
    assert!(matches!(
        load(dir.path()),
        Err(ZuliprcError::IsAFolder { .. })
    ));
    let big = dir.path().join("big");
    std::fs::write(&big, format!("{}#{}\n", full(), "x".repeat(70_000))).unwrap();
    assert!(matches!(load(&big), Err(ZuliprcError::TooLarge { .. })));
    let fine = dir.path().join("zuliprc");
    std::fs::write(&fine, full()).unwrap();
    assert!(load(&fine).is_ok());
}

#[cfg(unix)]
#[test]
fn only_a_regular_zuliprc_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("zuliprc");
    std::fs::write(&real, full()).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "not a zuliprc").unwrap();

    assert!(crate::delete_zuliprc(&link).is_err());
    assert!(crate::delete_zuliprc(&other).is_err());
    assert!(crate::delete_zuliprc(dir.path()).is_err());
    assert!(link.exists() && other.exists());
    crate::delete_zuliprc(&real).unwrap();
    assert!(!real.exists());
}

#[test]
fn a_bad_line_is_reported_with_its_number() {
    let error = parse(&format!("{}this is not a setting\n", full())).unwrap_err();
    match &error {
        ZuliprcError::BadLine { line, .. } => assert_eq!(*line, 5),
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().contains("line 5"), "{error}");
    // A broken line that starts with `key` might hold the key: not echoed.
    let error = parse(&rc(&format!("key {KEY}\n"))).unwrap_err();
    assert!(!error.to_string().contains(KEY), "{error}");
}

#[test]
fn settings_before_any_section_are_an_error() {
    let error = parse(&format!("email=a@b.c\n{}", full())).unwrap_err();
    assert!(
        matches!(error, ZuliprcError::BadLine { line: 1, .. }),
        "{error:?}"
    );
}

#[test]
fn a_duplicate_setting_is_an_error() {
    let error = parse(&format!("{}email=b@c.d\n", full())).unwrap_err();
    assert!(matches!(
        error,
        ZuliprcError::DuplicateKey { key: "email", .. }
    ));
}

#[test]
fn certificate_paths_are_read() {
    let text = format!(
        "{}cert_bundle=/etc/ssl/zulip.pem\nclient_cert=/c.pem\nclient_cert_key=/k.pem\n",
        full()
    );
    let parsed = parse(&text).unwrap();
    assert_eq!(
        parsed.cert_bundle.as_deref(),
        Some(Path::new("/etc/ssl/zulip.pem"))
    );
    assert_eq!(parsed.client_cert.as_deref(), Some(Path::new("/c.pem")));
    assert_eq!(parsed.client_cert_key.as_deref(), Some(Path::new("/k.pem")));
}

#[test]
fn load_resolves_relative_paths_next_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zuliprc");
    std::fs::write(&path, format!("{}cert_bundle=ca.pem\n", full())).unwrap();
    let parsed = load(&path).unwrap();
    assert_eq!(parsed.cert_bundle, Some(dir.path().join("ca.pem")));
    let missing = load(&dir.path().join("nope")).unwrap_err();
    assert!(matches!(missing, ZuliprcError::NoSuchFile { .. }));
}

#[test]
fn rendered_text_parses_back() {
    let key = Secret::new("abcdefghijklmnopqrstuvwxyz012345");
    let text = render("hook-bot@example.com", &key, "https://chat.example.com");
    let rc = parse(text.expose()).unwrap();
    assert_eq!(rc.email, "hook-bot@example.com");
    assert_eq!(rc.key, key);
    assert_eq!(rc.site, "https://chat.example.com");
    assert_eq!(format!("{text:?}"), "Secret([redacted])");
}
