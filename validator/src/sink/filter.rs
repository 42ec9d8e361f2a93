//! The `allow` lists as the sink applies them at the push: each list read once as a set of
//! codes.

use foldhash::{HashMap, HashMapExt};

use bataille_schema::{DocumentKind, Map, Scenario};

use crate::codes::Code;
use crate::diagnostic::Diagnostic;

/// A set of codes, one bit each (there are fewer than 128).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Codes(u128);

const _: () = assert!(Code::ALL.len() <= 128);

impl Codes {
    /// The codes an `allow` list names (what is no code names nothing: W0107 says so).
    pub fn of<S: AsRef<str>>(list: &[S]) -> Self {
        list.iter()
            .filter_map(|c| c.as_ref().parse::<Code>().ok())
            .fold(Self(0), |set, code| Self(set.0 | bit(code)))
    }

    pub fn has(self, code: Code) -> bool {
        self.0 & bit(code) != 0
    }

    fn with(self, other: Codes) -> Self {
        Self(self.0 | other.0)
    }
}

fn bit(code: Code) -> u128 {
    1u128 << (code as usize)
}

/// The `allow` lists, read once as sets of codes: a scenario's `allow` covers its
/// diagnostics, a map's `allow` the map's; a counter's covers those whose subject it is, and a
/// corps' those whose subject is the corps, its line leader or one of its units; `--allow`
/// covers all.
#[derive(Debug, Default)]
pub(crate) struct Filter<'a> {
    options: Codes,
    map: Codes,
    /// `None` without a scenario: only `--allow` applies to its documents then.
    scenario: Option<Codes>,
    /// The lists covering each subject (unit, commander, line leader, corps), when any is
    /// not empty.
    subjects: HashMap<&'a str, Codes>,
}

impl<'a> Filter<'a> {
    /// `--allow` alone: for what the door says about files.
    pub fn options(allow: &[String]) -> Self {
        Self {
            options: Codes::of(allow),
            ..Self::default()
        }
    }

    pub fn new(scenario: Option<&'a Scenario>, map: Option<&'a Map>, allow: &[String]) -> Self {
        let mut filter = Self::options(allow);
        filter.map = map.map_or_else(Codes::default, |m| Codes::of(&m.allow));
        let Some(s) = scenario else {
            return filter;
        };
        filter.scenario = Some(Codes::of(&s.allow));
        let mut add = |id: &'a str, codes: Codes| {
            if codes != Codes::default() {
                let entry = filter.subjects.entry(id).or_default();
                *entry = entry.with(codes);
            }
        };
        let mut corps_allow: HashMap<&str, Codes> = HashMap::new();
        for army in &s.armies {
            for corps in &army.corps {
                let codes = Codes::of(&corps.allow);
                corps_allow.insert(corps.id.as_str(), codes);
                add(corps.id.as_str(), codes);
                if let Some(l) = &corps.leader {
                    add(l.id.as_str(), Codes::of(&l.allow).with(codes));
                }
            }
        }
        for army in &s.armies {
            for c in &army.commanders {
                add(c.id.as_str(), Codes::of(&c.allow));
            }
            for u in &army.units {
                let corps = u
                    .corps
                    .as_ref()
                    .and_then(|c| corps_allow.get(c.as_str()).copied())
                    .unwrap_or_default();
                add(u.id.as_str(), Codes::of(&u.allow).with(corps));
            }
        }
        filter
    }

    /// Whether an `allow` list covers the diagnostic.
    pub fn allows(&self, d: &Diagnostic) -> bool {
        if self.options.has(d.code) {
            return true;
        }
        if d.document == DocumentKind::Map {
            return self.map.has(d.code);
        }
        let Some(scenario) = self.scenario else {
            return false;
        };
        scenario.has(d.code)
            || d.subject
                .as_deref()
                .and_then(|id| self.subjects.get(id))
                .is_some_and(|codes| codes.has(d.code))
    }
}
