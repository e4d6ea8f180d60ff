//! Seed files: organizations of every shape, valid or not. Loading answers `Ok` or a
//! seed error, never panics, and is all or nothing: a refused seed leaves no database.

use proptest::prelude::*;
use serde_json::{Value, json};
use weir_server::Seed;
use weir_server::store::create_seeded;

use crate::support::{config, corpus, within_budget};

fn id() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (1i64..40).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!("12")),
        1 => Just(json!(1.5)),
    ]
}

fn text() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => "[a-z]{1,8}(@[a-z]{1,6}\\.test)?".prop_map(Value::String),
        1 => any::<String>().prop_map(Value::String),
        1 => (0usize..3000).prop_map(|n| Value::String("n".repeat(n))),
        1 => Just(Value::Null),
        1 => Just(json!(["list"])),
    ]
}

fn user() -> impl Strategy<Value = Value> {
    (
        prop::option::of(id()),
        text(),
        text(),
        prop_oneof![
            Just(json!("owner")),
            Just(json!("administrator")),
            Just(json!("member")),
            Just(json!("guest")),
            Just(json!("moderator")),
            text()
        ],
        prop::option::of(prop_oneof![(0u8..7).prop_map(Value::from), text()]),
        prop::option::of(id()),
        prop::option::of(prop_oneof![
            "[A-Za-z0-9]{32}".prop_map(Value::String),
            text()
        ]),
        prop::option::of(any::<bool>()),
        any::<bool>(),
    )
        .prop_map(
            |(user_id, email, full_name, role, bot_type, owner, key, active, unknown)| {
                let mut user = json!({"email": email, "full_name": full_name, "role": role});
                let fields = user.as_object_mut().unwrap();
                let optional = [
                    ("user_id", user_id),
                    ("bot_type", bot_type),
                    ("bot_owner_id", owner),
                    ("api_key", key),
                    ("is_active", active.map(Value::Bool)),
                ];
                for (name, value) in optional {
                    if let Some(value) = value {
                        fields.insert(name.into(), value);
                    }
                }
                if unknown {
                    fields.insert("surprise".into(), json!(1));
                }
                user
            },
        )
}

fn stream() -> impl Strategy<Value = Value> {
    (
        prop::option::of(id()),
        text(),
        prop::option::of(text()),
        prop::option::of(any::<bool>()),
        prop::collection::vec(id(), 0..12),
    )
        .prop_map(|(stream_id, name, description, invite_only, subscribers)| {
            let mut stream = json!({"name": name, "subscribers": subscribers});
            let fields = stream.as_object_mut().unwrap();
            if let Some(id) = stream_id {
                fields.insert("stream_id".into(), id);
            }
            if let Some(description) = description {
                fields.insert("description".into(), description);
            }
            if let Some(invite_only) = invite_only {
                fields.insert("invite_only".into(), Value::Bool(invite_only));
            }
            stream
        })
}

/// A group-setting value, well formed or not.
fn setting() -> impl Strategy<Value = Value> {
    prop_oneof![
        id(),
        (
            prop::collection::vec(id(), 0..4),
            prop::collection::vec(id(), 0..3)
        )
            .prop_map(|(members, subgroups)| {
                json!({"direct_members": members, "direct_subgroups": subgroups})
            }),
        text(),
    ]
}

fn group() -> impl Strategy<Value = Value> {
    (
        prop::option::of(id()),
        prop_oneof![Just(json!("backend")), Just(json!("frontend")), text()],
        prop::collection::vec(id(), 0..6),
        prop::collection::vec(
            prop_oneof![
                Just(json!("backend")),
                Just(json!("frontend")),
                Just(json!("role:owners")),
                text()
            ],
            0..3,
        ),
        prop::option::of(setting()),
    )
        .prop_map(|(group_id, name, members, subgroups, manage)| {
            let mut group = json!({"name": name, "members": members, "subgroups": subgroups});
            let fields = group.as_object_mut().unwrap();
            if let Some(id) = group_id {
                fields.insert("group_id".into(), id);
            }
            if let Some(manage) = manage {
                fields.insert("can_manage_group".into(), manage);
            }
            group
        })
}

fn seed() -> impl Strategy<Value = String> {
    (
        text(),
        prop_oneof![Just(json!("http://globex.localhost")), text()],
        prop::option::of(text()),
        prop::collection::vec(user(), 0..12),
        prop::collection::vec(stream(), 0..8),
        prop::collection::vec(group(), 0..3),
        prop::option::of(setting()),
    )
        .prop_map(
            |(name, url, bot_domain, users, mut streams, groups, stream_setting)| {
                let mut realm = json!({"name": name, "url": url});
                if let Some(domain) = bot_domain {
                    realm["bot_domain"] = domain;
                }
                if let (Some(setting), Some(first)) = (stream_setting, streams.first_mut()) {
                    first["can_add_subscribers_group"] = setting;
                }
                json!({"realm": realm, "users": users, "streams": streams, "groups": groups})
                    .to_string()
            },
        )
}

/// Parses and loads `text` into a fresh directory; all or nothing.
fn load(what: &str, text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let loaded = within_budget(what, || {
        Seed::from_json(text).and_then(|seed| create_seeded(dir.path(), &seed))
    });
    let database = dir.path().join("weir.sqlite3");
    match loaded {
        Ok(()) => assert!(database.exists(), "{what}: loaded but no database"),
        Err(error) => {
            assert!(!error.to_string().is_empty());
            assert!(
                !database.exists(),
                "{what}: refused ({error}) but a database is left"
            );
        }
    }
}

proptest! {
    #![proptest_config(config("seeds", 64))]

    #[test]
    fn any_seed_loads_or_is_refused_whole(text in seed()) {
        load(&text, &text);
    }

    #[test]
    fn any_text_is_refused_without_a_panic(text in any::<String>()) {
        load(&text, &text);
    }
}

#[test]
fn a_large_organization_loads_within_the_budget() {
    let users: Vec<Value> = (1..=1000)
        .map(|n| {
            json!({"user_id": n, "email": format!("u{n}@x.test"), "full_name": format!("U {n}"),
                         "role": "member"})
        })
        .collect();
    let members: Vec<i64> = (1..=1000).collect();
    let streams: Vec<Value> = (1..=20)
        .map(|n| json!({"stream_id": n, "name": format!("s{n}"), "subscribers": members}))
        .collect();
    let seed = json!({"realm": {"name": "Big", "url": "http://big.localhost"},
                      "users": users, "streams": streams});
    load("1,000 people in 20 streams", &seed.to_string());
}

#[test]
fn corpus_seeds_load_or_are_refused_whole() {
    for (name, text) in corpus("seeds") {
        load(&name, &text);
    }
}
