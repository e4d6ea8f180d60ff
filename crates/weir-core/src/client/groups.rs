//! Zulip's user-group endpoints, as its OpenAPI document describes them. The wire type
//! lives here, not in `zulip-api`, because the client reads only the fields it needs and
//! must accept every server version (subgroups arrived at feature level 127/131).

use reqwest::Method;
use serde::Deserialize;
use serde_json::Value;

use super::transport::Params;
use super::{ClientError, ZulipClient};

/// One user group as `GET /user_groups` sends it (fields the app uses).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct UserGroup {
    pub id: i64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Direct members only; subgroups' members are not listed here.
    #[serde(default)]
    pub members: Vec<i64>,
    /// Feature level 131+; `subgroups` at 127..131.
    #[serde(default, alias = "subgroups")]
    pub direct_subgroup_ids: Vec<i64>,
    #[serde(default)]
    pub is_system_group: bool,
    /// Feature level 290+.
    #[serde(default)]
    pub deactivated: bool,
    /// Who may manage the group (feature level 283+): a group id, or
    /// `{direct_members, direct_subgroups}`.
    #[serde(default)]
    pub can_manage_group: Option<Value>,
    /// Who may add members (feature level 305+), same shape.
    #[serde(default)]
    pub can_add_members_group: Option<Value>,
    /// Who may remove members (feature level 324+), same shape.
    #[serde(default)]
    pub can_remove_members_group: Option<Value>,
}

#[derive(Deserialize)]
struct UserGroupsResponse {
    user_groups: Vec<UserGroup>,
}

#[derive(Deserialize)]
struct CreatedGroup {
    group_id: Option<i64>,
}

impl ZulipClient {
    /// `GET /user_groups`: the organization's active groups.
    pub async fn get_user_groups(&self) -> Result<Vec<UserGroup>, ClientError> {
        let response: UserGroupsResponse =
            self.call(Method::GET, "user_groups", Params::new()).await?;
        Ok(response.user_groups)
    }

    /// `POST /user_groups/{id}/members`: adds and removes direct members in one call.
    pub async fn update_user_group_members(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        self.add_and_delete(&format!("user_groups/{group_id}/members"), add, delete)
            .await
    }

    /// `POST /user_groups/{id}/subgroups`: adds and removes direct subgroups in one call
    /// (feature level 127+; Zulip refuses a subgroup that would make a cycle).
    pub async fn update_user_group_subgroups(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        self.add_and_delete(&format!("user_groups/{group_id}/subgroups"), add, delete)
            .await
    }

    /// One `POST` of Zulip's optional `add`/`delete` id lists, each sent only when it
    /// names something.
    async fn add_and_delete(
        &self,
        path: &str,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        let mut params = Params::new();
        if !add.is_empty() {
            params = params.json("add", add.to_vec());
        }
        if !delete.is_empty() {
            params = params.json("delete", delete.to_vec());
        }
        let _: Value = self.call(Method::POST, path, params).await?;
        Ok(())
    }

    /// `POST /user_groups/create`; the new group's id (feature level 317+ sends it;
    /// `None` from older servers, which then need a reload to learn it).
    pub async fn create_user_group(
        &self,
        name: &str,
        description: &str,
        members: &[i64],
    ) -> Result<Option<i64>, ClientError> {
        let params = Params::new()
            .text("name", name)
            .text("description", description)
            .json("members", members.to_vec());
        let created: CreatedGroup = self
            .call(Method::POST, "user_groups/create", params)
            .await?;
        Ok(created.group_id)
    }
}

#[cfg(test)]
mod tests {
    use super::UserGroup;

    #[test]
    fn reads_current_and_older_shapes() -> Result<(), serde_json::Error> {
        let current: UserGroup = serde_json::from_str(
            r#"{"id":3,"name":"hamlet","description":"d","members":[1,2],
                "direct_subgroup_ids":[4],"is_system_group":false,"deactivated":false,
                "can_manage_group":11,"date_created":null}"#,
        )?;
        assert_eq!(current.direct_subgroup_ids, vec![4]);
        let older: UserGroup =
            serde_json::from_str(r#"{"id":3,"name":"x","members":[1],"subgroups":[7]}"#)?;
        assert_eq!(older.direct_subgroup_ids, vec![7]);
        assert!(!older.is_system_group);
        Ok(())
    }
}
