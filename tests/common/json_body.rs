//! Editing a JSON request body in tests: one key set or removed.

use serde_json::Value;

/// Sets `key` to `value` in the object `body`, or removes it for `None`.
///
/// # Panics
/// When `body` is not a JSON object (a test's own mistake).
pub(crate) fn set_key(body: &mut Value, key: &str, value: Option<Value>) {
    let map = body.as_object_mut().expect("a JSON object body");
    match value {
        Some(value) => {
            map.insert(key.to_owned(), value);
        }
        None => {
            map.remove(key);
        }
    }
}
