//! The most one request may ask for. Each limit is documented (README, docs/) and
//! answered with a 400 naming the parameter, so that no request can make the server
//! work for long: Zulip applies similar caps through its request size and timeouts.

use crate::error::ApiError;

/// Stream names in one `subscriptions` list (subscribe or unsubscribe). An admin tool's
/// membership grid sends up to a thousand streams at once.
pub const MAX_SUBSCRIPTIONS: usize = 1_000;

/// Users in one `principals` list: a thousand people in one request.
pub const MAX_PRINCIPALS: usize = 1_000;

/// Refuses a list longer than `max`, naming the parameter.
pub fn check_list_len(name: &str, len: usize, max: usize) -> Result<(), ApiError> {
    if len > max {
        return Err(ApiError::bad_request(format!(
            "{name} is too long (limit: {max} items)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_up_to_the_limit_pass_and_longer_ones_are_named() {
        assert!(check_list_len("principals", 1_000, MAX_PRINCIPALS).is_ok());
        assert_eq!(
            check_list_len("principals", 1_001, MAX_PRINCIPALS)
                .err()
                .map(|error| error.msg),
            Some("principals is too long (limit: 1000 items)".to_owned())
        );
    }
}
