//! The Bataille editor (placeholder until the editor lands).
fn main() {}
