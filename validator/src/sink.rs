//! The sink every diagnostic goes through, where a file's report is bounded (issue 19): a
//! small file could make very many diagnostics (500,000 unknown codes in one `allow` list made
//! 500,000 W0107, 1.31 GB for a 23 MB file), and each was held until the report was written.
//!
//! A [`Sink`] keeps at most [`Bound::per_code`] diagnostics of one code in one document
//! (default [`MAX_PER_CODE`]) and at most [`Bound::per_file`] in all (default
//! [`MAX_PER_FILE`]); it counts the others, and [`Sink::finish`] adds one summary diagnostic
//! per code that had more ([`Diagnostic::omitted`]: how many are not shown), so a report's
//! counts stay true and a CI run still fails. Counting one more costs no memory. As mature
//! compilers do (javac's `-Xmaxerrs`, clang's `-ferror-limit`), the bound can be lifted
//! (`bataille validate --max-per-code 0`), at the cost of memory that grows with the count.
//!
//! What is dropped is decided at the push, before anything is kept or counted: the `allow`
//! lists ([`Filter`], as they always applied) and, for a diagnostic that follows from an
//! unknown name reported about the same subject ([`Code::follows_from`]), the cascade (one
//! report per cause). A cause found by a check that ran beside (on another thread) is known
//! only when the sinks are merged: then the kept follow-ons are dropped, and the follow-ons
//! beyond the bound, which were counted with their subject alone, are uncounted.
//!
//! Each kept diagnostic's texts are bounded too ([`MAX_TEXT_BYTES`]): a message quotes names
//! from the file, and one long name (which the schema refuses anyway, E0105) quoted by many
//! diagnostics was a copy in each.

use std::collections::HashSet;
use std::sync::Arc;

use foldhash::{HashMap, HashMapExt};

use bataille_schema::DocumentKind;

use crate::codes::Code;
use crate::diagnostic::Diagnostic;

mod filter;
mod report;
#[cfg(test)]
mod tests;

pub(crate) use filter::Filter;
pub use report::summary;
pub(crate) use report::{bound_report, drop_refused_values};

/// The most diagnostics of one code kept for one document (the rest are counted in a
/// summary): as javac shows its first 100 errors.
pub const MAX_PER_CODE: usize = 100;

/// The most diagnostics kept for one file validated (a scenario with its map), all codes
/// together: beyond, the others are counted in their codes' summaries.
pub const MAX_PER_FILE: usize = 1000;

/// The longest message, help or related text kept, in bytes: a longer one is cut (with `…`).
/// Every name the schema allows is far shorter (80 to 200 characters).
pub const MAX_TEXT_BYTES: usize = 1024;

/// How many diagnostics a sink keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// Of one code in one document; `usize::MAX`: no bound.
    pub per_code: usize,
    /// In all; `usize::MAX`: no bound.
    pub per_file: usize,
}

impl Default for Bound {
    fn default() -> Self {
        Self {
            per_code: MAX_PER_CODE,
            per_file: MAX_PER_FILE,
        }
    }
}

impl Bound {
    /// Every diagnostic kept (`--max-per-code 0`).
    pub const NONE: Bound = Bound {
        per_code: usize::MAX,
        per_file: usize::MAX,
    };

    /// At most `per_code` of a code (0: no bound), the file's total scaled alike.
    pub fn per_code(per_code: usize) -> Self {
        if per_code == 0 {
            return Self::NONE;
        }
        Self {
            per_code,
            per_file: per_code.saturating_mul(MAX_PER_FILE / MAX_PER_CODE),
        }
    }
}

/// The codes a cascade starts from: an unknown name reported about a subject.
fn is_cause(code: Code) -> bool {
    matches!(code, Code::E0202 | Code::E0203 | Code::E0204 | Code::E0206)
}

/// What was pushed of one code in one document.
#[derive(Debug, Clone, Default)]
struct Tally {
    /// Pushed and not dropped, kept or not.
    seen: usize,
    /// Kept.
    kept: usize,
    /// Summaries pushed (already finished sinks merged in): what they stand for.
    summarised: usize,
}

/// Where diagnostics go: see the module's documentation.
#[derive(Debug)]
pub struct Sink<'a> {
    bound: Bound,
    filter: Option<&'a Filter<'a>>,
    kept: Vec<Diagnostic>,
    tally: HashMap<(DocumentKind, Code), Tally>,
    /// (subject, cause code) of every cause pushed, kept or not.
    causes: HashSet<(Arc<str>, Code)>,
    /// The fields some check reads ([`Code::reads`]) that an E0105 refused: what those
    /// checks say follows from the refused value.
    refused: Vec<(DocumentKind, &'static str)>,
    /// Follow-ons counted beyond the bound: their subject, code and document, to uncount
    /// them when their cause turns up in a sink merged later.
    followers: Vec<(Arc<str>, Code, DocumentKind)>,
}

impl<'a> Sink<'a> {
    /// A sink that keeps what `bound` allows, and drops what `filter` allows.
    pub(crate) fn new(bound: Bound, filter: Option<&'a Filter<'a>>) -> Self {
        Self {
            bound,
            filter,
            kept: Vec::new(),
            tally: HashMap::new(),
            causes: HashSet::new(),
            refused: Vec::new(),
            followers: Vec::new(),
        }
    }

    /// A sink that keeps everything its bound allows and drops nothing: for tests and for
    /// diagnostics no `allow` list covers.
    pub fn bounded(bound: Bound) -> Self {
        Self::new(bound, None)
    }

    /// Another sink with the same bound and filter, empty: for checks run beside on another
    /// thread, or for a check that pushes while it reads the context, merged back with
    /// [`Sink::merge`].
    pub(crate) fn beside(&self) -> Self {
        Self::new(self.bound, self.filter)
    }

    /// Takes a diagnostic: dropped when an `allow` list covers it or it follows from a cause
    /// pushed already, else kept when the bound allows, else counted.
    pub fn push(&mut self, mut d: Diagnostic) {
        if d.omitted > 0 {
            // A summary of a sink finished before: what it stands for is counted.
            self.tally
                .entry((d.document, d.code))
                .or_default()
                .summarised += d.omitted;
            return;
        }
        let allowed = self.filter.is_some_and(|f| f.allows(&d));
        cut_shared(&mut d.subject);
        cut_shared(&mut d.hex);
        if is_cause(d.code)
            && let Some(subject) = &d.subject
        {
            // Recorded even when allowed: what follows from it is still no news.
            self.causes.insert((Arc::clone(subject), d.code));
        }
        // An E0105 that refuses a field some check reads is kept whatever the bound (there
        // are a few such fields): a sink it is pushed into later learns the refusal from it.
        let refuses = d.code == Code::E0105 && self.refuse_fields(&d);
        if allowed || self.follows(&d) || self.reads_refused(d.code) {
            return;
        }
        self.keep_or_count(d, refuses);
    }

    /// Takes a diagnostic about a name the JSON Schema may refuse (`refused`: an id of
    /// capitals, `Kind Of Foot`): when it does, its E0105 says so at the place, and this one is
    /// neither kept nor counted (issue 19: 39 kinds of capitals said "39 E0204 in this file:
    /// 0 shown, 39 not shown", the E0204s dropped at the E0105s' places after the bound). It
    /// still stands as the cause of what follows from an unknown name ([`Code::follows_from`]).
    pub fn push_about(&mut self, mut d: Diagnostic, refused: bool) {
        if !refused {
            return self.push(d);
        }
        cut_shared(&mut d.subject);
        if is_cause(d.code)
            && let Some(subject) = &d.subject
        {
            self.causes.insert((Arc::clone(subject), d.code));
        }
    }

    /// Keeps a diagnostic not dropped when the bound allows (a refusing E0105 always), else
    /// counts it, remembering a follow-on's subject to uncount it when its cause turns up.
    fn keep_or_count(&mut self, d: Diagnostic, refuses: bool) {
        let tally = self.tally.entry((d.document, d.code)).or_default();
        tally.seen += 1;
        if refuses || (tally.kept < self.bound.per_code && self.kept.len() < self.bound.per_file) {
            tally.kept += 1;
            self.kept.push(bounded_texts(d));
        } else if !d.code.follows_from().is_empty()
            && let Some(subject) = d.subject
        {
            self.followers.push((subject, d.code, d.document));
        }
    }

    /// Records the fields read by some check that an E0105 refuses (at the field or inside);
    /// whether it refuses any.
    fn refuse_fields(&mut self, d: &Diagnostic) -> bool {
        let inside = |field: &str| {
            d.pointer
                .strip_prefix(field)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let mut refuses = false;
        for code in Code::ALL {
            for &(document, field) in code.reads() {
                if document == d.document && inside(field) {
                    refuses = true;
                    if !self.refused.contains(&(document, field)) {
                        self.refused.push((document, field));
                    }
                }
            }
        }
        refuses
    }

    /// Whether a code's check reads a field the JSON Schema refused.
    fn reads_refused(&self, code: Code) -> bool {
        !self.refused.is_empty() && code.reads().iter().any(|f| self.refused.contains(f))
    }

    /// Whether a diagnostic follows from a cause pushed into this sink already.
    fn follows(&self, d: &Diagnostic) -> bool {
        let Some(subject) = &d.subject else {
            return false;
        };
        d.code
            .follows_from()
            .iter()
            .any(|cause| self.causes.contains(&(Arc::clone(subject), *cause)))
    }

    /// Merges a sink filled beside this one (after this one's own pushes, in a fixed order:
    /// the result does not depend on which thread finished first). Its causes drop this
    /// sink's follow-ons and the other way round.
    pub(crate) fn merge(&mut self, other: Sink<'_>) {
        self.causes.extend(other.causes);
        for field in other.refused {
            if !self.refused.contains(&field) {
                self.refused.push(field);
            }
        }
        self.uncascade();
        for ((document, code), tally) in other.tally {
            let mine = self.tally.entry((document, code)).or_default();
            // Its counted ones stay counted (it kept what it could); its kept ones are pushed
            // below, counted again there.
            mine.seen += tally.seen - tally.kept;
            mine.summarised += tally.summarised;
        }
        let followers = other.followers;
        for d in other.kept {
            if self.follows(&d) || self.reads_refused(d.code) {
                continue;
            }
            let refuses = d.code == Code::E0105 && self.refuse_fields(&d);
            self.keep_or_count(d, refuses);
        }
        self.followers.extend(followers);
        self.uncascade();
    }

    /// Drops the kept follow-ons whose cause is known now, and uncounts those beyond the
    /// bound; drops and uncounts every diagnostic of a code whose check reads a refused field.
    fn uncascade(&mut self) {
        if !self.refused.is_empty() {
            let refused = &self.refused;
            let reads_refused = |code: Code| code.reads().iter().any(|f| refused.contains(f));
            self.kept.retain(|d| !reads_refused(d.code));
            self.followers.retain(|(_, code, _)| !reads_refused(*code));
            self.tally.retain(|(_, code), _| !reads_refused(*code));
        }
        if self.causes.is_empty() {
            return;
        }
        let causes = &self.causes;
        let follows = |subject: &Arc<str>, code: Code| {
            code.follows_from()
                .iter()
                .any(|cause| causes.contains(&(Arc::clone(subject), *cause)))
        };
        let tally = &mut self.tally;
        self.kept.retain(|d| {
            let cascade = d.subject.as_ref().is_some_and(|s| follows(s, d.code));
            if cascade && let Some(t) = tally.get_mut(&(d.document, d.code)) {
                t.seen -= 1;
                t.kept -= 1;
            }
            !cascade
        });
        self.followers.retain(|(subject, code, document)| {
            let cascade = follows(subject, *code);
            if cascade && let Some(t) = tally.get_mut(&(*document, *code)) {
                t.seen -= 1;
            }
            !cascade
        });
    }

    /// The diagnostics kept so far.
    pub fn kept(&self) -> &[Diagnostic] {
        &self.kept
    }

    /// The diagnostics kept so far, to amend one.
    pub fn kept_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.kept
    }

    /// Whether nothing was pushed that is reported (kept or counted).
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.tally.values().all(|t| t.seen + t.summarised == 0)
    }

    /// The diagnostics kept, then one summary for each code of a document that had more than
    /// were kept: [`summary`].
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.uncascade();
        let mut more: Vec<_> = self
            .tally
            .iter()
            .filter(|(_, t)| t.seen + t.summarised > t.kept)
            .map(|(&(document, code), t)| (document, code, t.kept, t.seen + t.summarised))
            .collect();
        more.sort_by_key(|&(document, code, _, _)| (document, code));
        let per_code = self.bound.per_code;
        let mut out = self.kept;
        out.extend(
            more.into_iter()
                .map(|(document, code, kept, all)| summary(document, code, kept, all, per_code)),
        );
        out
    }
}

impl Extend<Diagnostic> for Sink<'_> {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, diagnostics: I) {
        for d in diagnostics {
            self.push(d);
        }
    }
}

/// A diagnostic with its texts cut to [`MAX_TEXT_BYTES`] and at most
/// [`MAX_RELATED`](crate::diagnostic::MAX_RELATED) related places and the one that counts the
/// others (the checks that name more count them themselves; this bounds any other).
fn bounded_texts(mut d: Diagnostic) -> Diagnostic {
    let most = crate::diagnostic::MAX_RELATED + 1;
    if d.related.len() > most {
        d.related.truncate(most);
        d.related.shrink_to_fit();
    }
    cut(&mut d.message);
    if let Some(help) = &mut d.help
        && help.len() > MAX_TEXT_BYTES
    {
        cut(help.to_mut());
    }
    for r in &mut d.related {
        if r.message.len() > MAX_TEXT_BYTES {
            cut(r.message.to_mut());
        }
    }
    d
}

/// Cuts a shared text (a subject's id, a hex's name) as [`cut`]: a long one is a copy in each
/// diagnostic about it. Cut before it is compared (causes, follow-ons), so alike everywhere.
fn cut_shared(text: &mut Option<Arc<str>>) {
    if let Some(shared) = text
        && shared.len() > MAX_TEXT_BYTES
    {
        let mut owned = shared.to_string();
        cut(&mut owned);
        *shared = owned.into();
    }
}

/// Cuts a text to at most [`MAX_TEXT_BYTES`] (on a character boundary), ending it with `…`.
fn cut(text: &mut String) {
    if text.len() <= MAX_TEXT_BYTES {
        return;
    }
    let mut end = MAX_TEXT_BYTES - '…'.len_utf8();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push('…');
    text.shrink_to_fit();
}
