//! How a schema violation is worded and placed: the interesting branch of an enum's error,
//! a key the schema does not allow at its own value, our words for jsonschema's kinds.

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::SchemaViolation;

/// For an enum (a `oneOf`/`anyOf` in the schema), the interesting error is inside the branch
/// that matched the value's shape: the one whose errors lie deepest in the document. Report
/// those instead of "matches none of the variants".
pub(super) fn push_leaves(error: &jsonschema::ValidationError<'_>, out: &mut Vec<SchemaViolation>) {
    let branches = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            Some(context)
        }
        _ => None,
    };
    let depth = |errors: &Vec<jsonschema::ValidationError<'static>>| {
        errors
            .iter()
            .map(|e| e.instance_path().as_str().matches('/').count())
            .min()
            .unwrap_or(0)
    };
    if let Some(best) = branches.and_then(|branches| branches.iter().max_by_key(|b| depth(b))) {
        let own_depth = error.instance_path().as_str().matches('/').count();
        if !best.is_empty() && depth(best) > own_depth {
            for inner in best {
                push_leaves(inner, out);
            }
            return;
        }
    }
    // A key the schema does not allow (a hex name of zero digits among `overlays`) is
    // placed at the key's own value, one violation per key: a check that reads the same
    // entry (E0605 "not a hex name of this map") is then known to say the same of it, and
    // 500,000 such keys are not one message listing them all.
    if let ValidationErrorKind::AdditionalProperties { unexpected } = error.kind() {
        let at = error.instance_path().as_str();
        for key in unexpected {
            out.push(unexpected_key(at, key));
        }
        return;
    }
    out.push(SchemaViolation {
        pointer: error.instance_path().as_str().to_owned(),
        message: describe(error.kind(), error.instance()),
    });
}

/// A key the schema does not allow, at its own value (`at`: the object's pointer).
pub(super) fn unexpected_key(at: &str, key: &str) -> SchemaViolation {
    SchemaViolation {
        pointer: format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
        message: format!("`{key}` is not a field or key allowed here"),
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// Our own wording: jsonschema's messages embed whole values (a whole array for `maxItems`).
pub(super) fn describe(kind: &ValidationErrorKind, instance: &Value) -> String {
    match kind {
        ValidationErrorKind::Minimum { limit } => {
            format!("{} is less than the minimum {limit}", short(instance))
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("{} is more than the maximum {limit}", short(instance))
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("{} must be more than {limit}", short(instance))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("{} must be less than {limit}", short(instance))
        }
        ValidationErrorKind::MinLength { limit } => {
            if *limit == 1 {
                "must not be empty".to_owned()
            } else {
                format!("{} is shorter than {limit} characters", short(instance))
            }
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!("{} is longer than {limit} characters", short(instance))
        }
        ValidationErrorKind::MinItems { limit } => format!("needs at least {limit} item(s)"),
        ValidationErrorKind::MaxItems { limit } => format!("holds more than {limit} items"),
        ValidationErrorKind::UniqueItems => "holds the same item more than once".to_owned(),
        ValidationErrorKind::Pattern { pattern } => {
            format!("{} does not match the pattern {pattern}", short(instance))
        }
        ValidationErrorKind::Required { property } => format!("missing field {property}"),
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            format!("unknown field(s): {}", unexpected.join(", "))
        }
        ValidationErrorKind::Type { .. } => format!("{} has the wrong type", short(instance)),
        ValidationErrorKind::Enum { options } => {
            format!("{} is not one of {}", short(instance), short(options))
        }
        // A value that fits no branch of an enum, each branch at the value itself (an
        // optional hex name: the pattern, or null): the branch's complaint that is not "the
        // other type" says what is wrong. It was the branches' debug dump, cut at 160 bytes.
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context
                .iter()
                .flatten()
                .find(|e| !matches!(e.kind(), ValidationErrorKind::Type { .. }))
                .map_or_else(
                    || format!("{} has none of the forms allowed here", short(instance)),
                    |e| describe(e.kind(), e.instance()),
                )
        }
        other => format!("{} breaks the schema ({other:?})", short(instance))
            .chars()
            .take(160)
            .collect(),
    }
}
