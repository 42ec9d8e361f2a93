//! The `bataille` command (placeholder until the validator lands).
fn main() {}
