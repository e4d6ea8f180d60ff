//! The built-in demo organization: a small design-and-engineering company with people in
//! every role, bots of every type, and public and private streams of varied membership.

use serde_json::{Value, json};

use crate::store::seed::Seed;

/// E-mail of the demo's owner, whom the app signs in as.
pub const DEMO_OWNER_EMAIL: &str = "ada@lumen.test";

const PEOPLE: &[(&str, &str, &str)] = &[
    ("Ada Okafor", "ada", "owner"),
    ("Bruno Santos", "bruno", "administrator"),
    ("Chiara Rossi", "chiara", "administrator"),
    ("Dmitri Volkov", "dmitri", "moderator"),
    ("Elif Yilmaz", "elif", "moderator"),
    ("Farah Haddad", "farah", "member"),
    ("Gustavo Lima", "gustavo", "member"),
    ("Hana Suzuki", "hana", "member"),
    ("Ivan Petrov", "ivan", "member"),
    ("Jasmine Patel", "jasmine", "member"),
    ("Kofi Mensah", "kofi", "member"),
    ("Lena Fischer", "lena", "member"),
    ("Mateo García", "mateo", "member"),
    ("Nadia Benali", "nadia", "member"),
    ("Oscar Lindqvist", "oscar", "member"),
    ("Priya Nair", "priya", "member"),
    ("Quentin Moreau", "quentin", "member"),
    ("Rosa Jiménez", "rosa", "member"),
    ("Samuel Adeyemi", "samuel", "member"),
    ("Tara O'Brien", "tara", "member"),
    ("Uma Krishnan", "uma", "member"),
    ("Victor Dubois", "victor", "member"),
    ("Wen Zhang", "wen", "member"),
    ("Xavier Costa", "xavier", "member"),
    ("Yara Haddad", "yara", "member"),
    ("Zoe Martin", "zoe", "member"),
    ("Anders Berg", "anders", "guest"),
    ("Beatriz Souza", "beatriz", "guest"),
    ("Carl Jensen", "carl", "guest"),
    ("Dana Cohen", "dana", "member"),
];

/// (full name, short name, bot type, owner's short name)
const BOTS: &[(&str, &str, u8, &str)] = &[
    ("Deploy Notifier", "deploy", 2, "gustavo"),
    ("GitHub", "github", 2, "farah"),
    ("Standup Helper", "standup", 1, "hana"),
    ("Triage Hook", "triage", 3, "ivan"),
    ("Welcome Bot", "welcome", 4, "bruno"),
    ("Metrics", "metrics", 2, "priya"),
    ("Changelog", "changelog", 2, "ada"),
];

/// (name, description, private, members by short name or a role group)
const STREAMS: &[(&str, &str, bool, &[&str])] = &[
    (
        "general",
        "Everyone at Lumen",
        false,
        &["@staff", "@guests"],
    ),
    (
        "engineering",
        "Building the product",
        false,
        &[
            "ada",
            "dmitri",
            "farah",
            "gustavo",
            "hana",
            "ivan",
            "kofi",
            "lena",
            "oscar",
            "samuel",
            "wen",
            "xavier",
            "deploy-bot",
            "github-bot",
            "triage-bot",
        ],
    ),
    (
        "design",
        "Pixels and prototypes",
        false,
        &[
            "chiara", "elif", "jasmine", "mateo", "nadia", "rosa", "zoe", "anders",
        ],
    ),
    ("announcements", "Company news", false, &["@staff"]),
    (
        "random",
        "Off topic",
        false,
        &[
            "bruno", "hana", "ivan", "jasmine", "quentin", "tara", "victor", "yara", "beatriz",
        ],
    ),
    (
        "support",
        "Customer questions",
        false,
        &[
            "priya",
            "quentin",
            "rosa",
            "uma",
            "victor",
            "metrics-bot",
            "carl",
        ],
    ),
    (
        "releases",
        "Ship log",
        false,
        &["ada", "dmitri", "gustavo", "deploy-bot", "metrics-bot"],
    ),
    (
        "leadership",
        "Owners and admins only",
        true,
        &["ada", "bruno", "chiara"],
    ),
    (
        "hiring",
        "Candidates and interviews",
        true,
        &["ada", "chiara", "lena", "priya"],
    ),
    (
        "security",
        "Incidents and audits",
        true,
        &["dmitri", "gustavo", "oscar", "triage-bot"],
    ),
    (
        "design-crit",
        "Honest feedback",
        true,
        &["elif", "jasmine", "nadia", "zoe"],
    ),
    (
        "partners",
        "Shared with partner guests",
        true,
        &["bruno", "uma", "anders", "beatriz"],
    ),
];

/// Teams as user groups: overlapping (Jasmine designs and builds, Rosa designs and
/// supports), `engineering` made of two subgroups, and groups a moderator or the
/// administrators manage while members manage none: (name, description, members,
/// subgroups, managed by).
type DemoGroup = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    Option<&'static str>,
);

const GROUPS: &[DemoGroup] = &[
    (
        "backend",
        "APIs, storage and infrastructure",
        &["dmitri", "gustavo", "ivan", "kofi", "oscar", "wen"],
        &[],
        Some("dmitri"),
    ),
    (
        "frontend",
        "Web and desktop clients",
        &["farah", "hana", "jasmine", "lena", "samuel", "xavier"],
        &[],
        Some("dmitri"),
    ),
    (
        "engineering",
        "Everyone who builds the product",
        &["ada"],
        &["backend", "frontend"],
        None,
    ),
    (
        "designers",
        "Product and visual design",
        &["chiara", "elif", "jasmine", "mateo", "nadia", "rosa", "zoe"],
        &[],
        Some("elif"),
    ),
    (
        "support-team",
        "Answers customers",
        &["priya", "quentin", "rosa", "uma", "victor"],
        &[],
        Some("@admins"),
    ),
    (
        "on-call",
        "This week's incident rota",
        &["dmitri", "gustavo", "oscar", "priya"],
        &[],
        Some("@admins"),
    ),
    (
        "leads",
        "Team leads",
        &["ada", "bruno", "chiara", "dmitri", "elif"],
        &[],
        None,
    ),
];

/// The groups as seed entries, with ids from 10 (after Zulip's system groups).
fn demo_groups(ids: &std::collections::HashMap<String, (i64, &str)>) -> Vec<Value> {
    let id_of = |short: &str| ids.get(short).map(|(id, _)| *id);
    GROUPS
        .iter()
        .enumerate()
        .map(
            |(index, (name, description, members, subgroups, manager))| {
                let members: Vec<i64> = members.iter().filter_map(|m| id_of(m)).collect();
                let mut group = json!({
                    "group_id": 10 + index as i64, "name": name, "description": description,
                    "members": members, "subgroups": subgroups,
                });
                let manage = match manager {
                    Some("@admins") => Some(json!(crate::store::system::ADMINISTRATORS)),
                    Some(short) => id_of(short)
                        .map(|id| json!({"direct_members": [id], "direct_subgroups": []})),
                    None => None,
                };
                if let (Some(manage), Some(fields)) = (manage, group.as_object_mut()) {
                    fields.insert("can_manage_group".into(), manage);
                }
                group
            },
        )
        .collect()
}

/// The demo organization as a seed, with fresh random API keys.
pub fn demo_seed() -> Seed {
    let domain = "lumen.test";
    let mut users: Vec<Value> = Vec::new();
    let mut ids = std::collections::HashMap::new();
    for (index, (name, short, role)) in PEOPLE.iter().enumerate() {
        let user_id = 8 + index as i64;
        ids.insert((*short).to_owned(), (user_id, *role));
        users.push(json!({
            "user_id": user_id, "email": format!("{short}@{domain}"),
            "full_name": name, "role": role,
        }));
    }
    users.push(json!({
        "user_id": 40, "email": format!("former@{domain}"), "full_name": "Felix Former",
        "role": "member", "is_active": false,
    }));
    for (index, (name, short, bot_type, owner)) in BOTS.iter().enumerate() {
        let user_id = 50 + index as i64;
        let owner_id = ids.get(*owner).map(|(id, _)| *id);
        ids.insert(format!("{short}-bot"), (user_id, "member"));
        users.push(json!({
            "user_id": user_id, "email": format!("{short}-bot@{domain}"), "full_name": name,
            "role": "member", "bot_type": bot_type, "bot_owner_id": owner_id,
        }));
    }
    let streams: Vec<Value> = STREAMS
        .iter()
        .enumerate()
        .map(|(index, (name, description, private, members))| {
            let mut subscribers: Vec<i64> = Vec::new();
            for member in *members {
                match *member {
                    "@staff" => subscribers.extend(
                        ids.iter()
                            .filter(|(short, (_, role))| {
                                *role != "guest" && !short.ends_with("-bot")
                            })
                            .map(|(_, (id, _))| *id),
                    ),
                    "@guests" => subscribers.extend(
                        ids.values()
                            .filter(|(_, role)| *role == "guest")
                            .map(|(id, _)| *id),
                    ),
                    short => subscribers.extend(ids.get(short).map(|(id, _)| *id)),
                }
            }
            subscribers.sort_unstable();
            subscribers.dedup();
            json!({
                "stream_id": 100 + index as i64, "name": name, "description": description,
                "invite_only": private, "subscribers": subscribers,
            })
        })
        .collect();
    Seed {
        realm: crate::store::seed::SeedRealm {
            name: "Lumen Labs".into(),
            url: "http://lumen.localhost".into(),
            bot_domain: Some(domain.into()),
        },
        groups: demo_groups(&ids),
        users,
        streams,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_loads_with_overlapping_teams_and_a_group_of_groups() {
        let dir = tempfile::tempdir().unwrap();
        crate::store::create_seeded(dir.path(), &demo_seed()).unwrap();
        let conn =
            rusqlite::Connection::open(dir.path().join(crate::store::DATABASE_FILE)).unwrap();
        let graph = crate::store::memberships(&conn).unwrap();
        let id = |name: &str| {
            crate::store::group_by_name(&conn, name)
                .unwrap()
                .unwrap()
                .group_id
        };
        let (backend, frontend, engineering) = (id("backend"), id("frontend"), id("engineering"));
        assert_eq!(graph.direct_subgroups(engineering), [backend, frontend]);
        let everyone_in = graph.recursive_members(engineering);
        assert_eq!(everyone_in.len(), 1 + 6 + 6);
        // Jasmine (12+5=17) is a designer and a frontend developer.
        assert!(graph.is_member(frontend, 17, true) && graph.is_member(id("designers"), 17, true));
    }
}
