//! The standard organization shared by the suites, with fixed ids and API keys.
//!
//! ```text
//! users                                   role           notes
//! 101 olivia@globex.test  Olivia Owner    owner (100)
//! 102 adam@globex.test    Adam Admin      administrator
//! 103 mona@globex.test    Mona Moderator  moderator
//! 104 mark@globex.test    Mark Member     member         owns bots 201 and 202
//! 105 nina@globex.test    Nina Member     member         owns bot 203
//! 106 gus@globex.test     Gus Guest       guest
//! 107 dora@globex.test    Dora Deactivated member        is_active: false
//! 201 relay-bot@globex.test   Relay       incoming-webhook bot (2), owner 104
//! 202 helper-bot@globex.test  Helper      generic bot (1), owner 104
//! 203 ninas-bot@globex.test   Nina's Bot  generic bot (1), owner 105
//!
//! streams                 private  subscribers
//! 11 Engineering          no       101 102 104 105 201 202
//! 12 Design               no       103 105 106 203
//! 13 Verona               no       101 102 103 104 105 106
//! 14 Empty Room           no       (none)
//! 15 Café                 no       104
//! 21 Secret Plans         yes      101 104 202
//! 22 Hidden Lair          yes      105 106 202 203   (no administrator subscribed)
//! ```
//!
//! Both private streams keep Zulip's default protected history
//! (`history_public_to_subscribers: false`): someone subscribed later reads only what
//! follows.
//!
//! Who sees which private stream (non-admins): 104 sees Secret Plans only; 105 and 106
//! see Hidden Lair only; 103 sees neither. 202 (owned by 104) is in Hidden Lair, which
//! its owner cannot see.

use serde_json::{Value, json};

/// A seeded account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    pub id: u64,
    pub email: &'static str,
    pub full_name: &'static str,
    pub key: &'static str,
}

/// A seeded stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stream {
    pub id: u64,
    pub name: &'static str,
    pub private: bool,
}

pub const REALM_NAME: &str = "Globex";
pub const REALM_URL: &str = "http://globex.localhost";
pub const BOT_DOMAIN: &str = "globex.test";

pub const OWNER: Account = Account {
    id: 101,
    email: "olivia@globex.test",
    full_name: "Olivia Owner",
    key: "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oO",
};
pub const ADMIN: Account = Account {
    id: 102,
    email: "adam@globex.test",
    full_name: "Adam Admin",
    key: "OL8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJ",
};
pub const MODERATOR: Account = Account {
    id: 103,
    email: "mona@globex.test",
    full_name: "Mona Moderator",
    key: "TeKdNnFRIBXuDL7DxtpYlSXpfKtHF4vU",
};
/// Member who owns [`WEBHOOK_BOT`] and [`GENERIC_BOT`]; subscribed to Secret Plans.
pub const MEMBER: Account = Account {
    id: 104,
    email: "mark@globex.test",
    full_name: "Mark Member",
    key: "CsMehGAkWvj7FAc9QeWJKY40uvSwMFLZ",
};
/// Member who owns [`OTHER_BOT`]; subscribed to Hidden Lair.
pub const MEMBER2: Account = Account {
    id: 105,
    email: "nina@globex.test",
    full_name: "Nina Member",
    key: "De1f8rESQedUStPKR0CsTy4Qwb8DwkNh",
};
pub const GUEST: Account = Account {
    id: 106,
    email: "gus@globex.test",
    full_name: "Gus Guest",
    key: "FdnXsiVpzz63FfkCzJr4i0B3JrTAwR4y",
};
pub const DEACTIVATED: Account = Account {
    id: 107,
    email: "dora@globex.test",
    full_name: "Dora Deactivated",
    key: "9ojfljoQoaF1LlqsajAIxNKu8iS2G8NP",
};
/// Incoming-webhook bot (bot_type 2) owned by [`MEMBER`].
pub const WEBHOOK_BOT: Account = Account {
    id: 201,
    email: "relay-bot@globex.test",
    full_name: "Relay",
    key: "RVdD53X83RZJzzzzgEOzdmenCkhvMdga",
};
/// Generic bot (bot_type 1) owned by [`MEMBER`].
pub const GENERIC_BOT: Account = Account {
    id: 202,
    email: "helper-bot@globex.test",
    full_name: "Helper",
    key: "KjIg8xNbe3nNyjOq9wMxEhh2FDEEtfjg",
};
/// Generic bot (bot_type 1) owned by [`MEMBER2`].
pub const OTHER_BOT: Account = Account {
    id: 203,
    email: "ninas-bot@globex.test",
    full_name: "Nina's Bot",
    key: "VvVqE1SkHbn88HxjSI6bWHtP3fS2qHx6",
};

/// Every seeded account, active or not.
pub const ALL_ACCOUNTS: [Account; 10] = [
    OWNER,
    ADMIN,
    MODERATOR,
    MEMBER,
    MEMBER2,
    GUEST,
    DEACTIVATED,
    WEBHOOK_BOT,
    GENERIC_BOT,
    OTHER_BOT,
];

pub const ENGINEERING: Stream = Stream {
    id: 11,
    name: "Engineering",
    private: false,
};
pub const DESIGN: Stream = Stream {
    id: 12,
    name: "Design",
    private: false,
};
pub const VERONA: Stream = Stream {
    id: 13,
    name: "Verona",
    private: false,
};
pub const EMPTY_ROOM: Stream = Stream {
    id: 14,
    name: "Empty Room",
    private: false,
};
pub const CAFE: Stream = Stream {
    id: 15,
    name: "Café",
    private: false,
};
/// Private; subscribers 101, 104, 202.
pub const SECRET_PLANS: Stream = Stream {
    id: 21,
    name: "Secret Plans",
    private: true,
};
/// Private with no administrator subscribed; subscribers 105, 106, 202, 203.
pub const HIDDEN_LAIR: Stream = Stream {
    id: 22,
    name: "Hidden Lair",
    private: true,
};

pub const ALL_STREAMS: [Stream; 7] = [
    ENGINEERING,
    DESIGN,
    VERONA,
    EMPTY_ROOM,
    CAFE,
    SECRET_PLANS,
    HIDDEN_LAIR,
];

/// Seeded subscribers of a stream.
pub fn seeded_subscribers(stream: Stream) -> &'static [u64] {
    match stream.id {
        11 => &[101, 102, 104, 105, 201, 202],
        12 => &[103, 105, 106, 203],
        13 => &[101, 102, 103, 104, 105, 106],
        14 => &[],
        15 => &[104],
        21 => &[101, 104, 202],
        22 => &[105, 106, 202, 203],
        _ => &[],
    }
}

/// The seeded subscriptions as `stream name -> user ids` (the shape of
/// [`crate::TestServer::subscription_state`]).
pub fn seeded_state() -> std::collections::BTreeMap<String, std::collections::BTreeSet<u64>> {
    ALL_STREAMS
        .iter()
        .map(|s| {
            (
                s.name.to_string(),
                seeded_subscribers(*s).iter().copied().collect(),
            )
        })
        .collect()
}

fn user(a: Account, role: &str) -> Value {
    json!({"user_id": a.id, "email": a.email, "full_name": a.full_name, "role": role,
           "api_key": a.key, "is_active": true})
}

fn bot(a: Account, bot_type: u8, owner: Account) -> Value {
    json!({"user_id": a.id, "email": a.email, "full_name": a.full_name, "role": "member",
           "bot_type": bot_type, "bot_owner_id": owner.id, "api_key": a.key})
}

/// The standard organization as a seed file.
pub fn standard_seed() -> Value {
    let mut dora = user(DEACTIVATED, "member");
    dora["is_active"] = json!(false);
    let streams: Vec<Value> = ALL_STREAMS
        .iter()
        .map(|s| {
            json!({"stream_id": s.id, "name": s.name,
                   "description": format!("The {} stream", s.name),
                   "invite_only": s.private, "subscribers": seeded_subscribers(*s)})
        })
        .collect();
    json!({
        "realm": {"name": REALM_NAME, "url": REALM_URL, "bot_domain": BOT_DOMAIN},
        "users": [
            user(OWNER, "owner"),
            user(ADMIN, "administrator"),
            user(MODERATOR, "moderator"),
            user(MEMBER, "member"),
            user(MEMBER2, "member"),
            user(GUEST, "guest"),
            dora,
            bot(WEBHOOK_BOT, 2, MEMBER),
            bot(GENERIC_BOT, 1, MEMBER),
            bot(OTHER_BOT, 1, MEMBER2),
        ],
        "streams": streams,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_keys_are_32_letters_or_digits() {
        for a in ALL_ACCOUNTS {
            assert_eq!(a.key.len(), 32, "{a:?}");
            assert!(a.key.chars().all(|c| c.is_ascii_alphanumeric()), "{a:?}");
        }
    }
}
