//! The registry of diagnostic codes: each code's severity, group, the rule it comes from, its
//! title and the check that raises it (file and function: a newcomer goes from a code to its
//! check in one jump; a test keeps the names true).
//! `docs/diagnostics.md` lists the same table (a test keeps them in step).

use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file breaks a rule: `bataille validate` exits 1.
    Error,
    /// Worth a look (exits 0 unless `--deny-warnings`).
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($($code:ident, $severity:ident, $group:literal, $rule:literal, $title:literal, $check:literal;)*) => {
        /// A stable diagnostic code. The letter gives the severity (E error, W warning), the
        /// first two digits the group: 01 structure, 02 references, 03 stacking (rule 3, and
        /// opposing counters never in one hex), 04 corps and command chain (1, 5, 8.1),
        /// 05 deployment (Fontenoy 0.2, Denain 13.1, 13.2), 06 map, 07 the rules' data against
        /// the map (Denain 11.1), 08 command of line leaders (8.2), 09 command of units (9.1,
        /// 9.3), 10 miniatures systems (Age of Honor, the Louis XIV rules), 11 scenario variants.
        /// A retired code (W0502, now E0510) is never reused.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($code,)*
        }

        impl Code {
            /// Every code, in order.
            pub const ALL: &'static [Code] = &[$(Code::$code,)*];

            /// The code as written (`"E0301"`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }

            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$code => Severity::$severity,)*
                }
            }

            /// The group the code belongs to (`"stacking"`).
            pub fn group(self) -> &'static str {
                match self {
                    $(Code::$code => $group,)*
                }
            }

            /// The rules it comes from, game by game since the two rulebooks number differently
            /// (`"Fontenoy 0.2; Denain 13.1"`), or what it checks when no rule says.
            pub fn rule(self) -> &'static str {
                match self {
                    $(Code::$code => $rule,)*
                }
            }

            /// Where the validator raises it: a file of `validator/src` and the function in it
            /// (`"references.rs: unique_ids"`), one function per code or tight family of codes,
            /// in the file of its group. docs/diagnostics.md links each code to it.
            pub fn check(self) -> &'static str {
                match self {
                    $(Code::$code => $check,)*
                }
            }

            /// A short title (`"stack over a limit"`).
            pub fn title(self) -> &'static str {
                match self {
                    $(Code::$code => $title,)*
                }
            }
        }
    };
}

codes! {
    E0101, Error, "structure", "file format", "RON syntax error", "door.rs: refusal";
    E0102, Error, "structure", "file format", "file is not UTF-8 text", "door.rs: refusal";
    E0103, Error, "structure", "file format", "file is neither a Map nor a Scenario", "door.rs: refusal";
    E0104, Error, "structure", "file format", "format_version newer than this build", "door.rs: refusal";
    E0105, Error, "structure", "JSON Schema", "value breaks the JSON Schema", "lib.rs: schema_diagnostic";
    E0106, Error, "structure", "file format", "file too large", "door.rs: refusal";
    W0107, Warning, "structure", "suppressions", "allow names an unknown code", "suppressions.rs: unknown_code";
    E0120, Error, "structure", "file format", "a key given twice in a map", "door.rs: refusal";
    E0121, Error, "structure", "map grid", "grid beyond the size limit", "door.rs: refusal";
    E0122, Error, "structure", "file format", "number that is not finite", "door.rs: refusal";
    E0123, Error, "structure", "file format", "text holding a control character", "door.rs: refusal";
    E0201, Error, "references", "ids", "duplicate id", "references.rs: unique_ids";
    E0202, Error, "references", "Fontenoy 1, 5; Denain 1, 5", "unknown corps", "references.rs: corps_named";
    E0203, Error, "references", "Fontenoy 0.2; Denain 13.1", "unknown deployment zone", "references.rs: zones_named";
    E0204, Error, "references", "Fontenoy 1, 9; Denain 1, 9", "unknown unit kind", "references.rs: unit_kinds_named";
    E0205, Error, "references", "Fontenoy 8.4, 13; Denain 8.4", "unknown leader", "references/sides.rs: victory";
    E0206, Error, "references", "ids", "unknown army", "references.rs: armies_named";
    E0207, Error, "references", "Denain 13.3", "unknown unit", "references/sides.rs: victory";
    E0208, Error, "references", "map file", "the scenario's map cannot be loaded", "door/scenario.rs: open_scenario";
    E0209, Error, "references", "sides", "army on two sides", "references/sides.rs: sides_and_layout";
    E0210, Error, "references", "map file", "the map's background scan is refused (outside the repository, not a file)", "door/background.rs: background_of";
    E0301, Error, "stacking", "Fontenoy 3; Denain 3", "stack over a limit at set-up", "stacking.rs: describe";
    E0302, Error, "stacking", "Fontenoy 3; Denain 3", "stack mixes kinds no composition allows", "stacking.rs: describe";
    E0303, Error, "stacking", "Fontenoy 3; Denain 3, 13.2", "reinforcements entering together break stacking", "stacking.rs: stacking";
    E0304, Error, "stacking", "Fontenoy 3, 7.3; Denain 3, 7, 10.4, 11.6", "opposing counters share a hex", "stacking.rs: opposing";
    E0401, Error, "corps", "Fontenoy 1, 5; Denain 1, 5", "combat unit without a corps", "corps.rs: corps_membership";
    E0402, Error, "corps", "Fontenoy 1, 5; Denain 1, 5", "unit in a corps of another army", "corps.rs: corps_membership";
    E0403, Error, "corps", "Fontenoy 9; Denain 9", "corps without a line leader", "corps.rs: corps_membership";
    E0404, Error, "corps", "Fontenoy 8.1; Denain 8.1", "corps commanded by no commander in chief", "corps.rs: corps_membership";
    E0405, Error, "corps", "Fontenoy 8.1; Denain 8.1", "commander commands a corps of another army", "corps.rs: commanders_own_corps";
    E0406, Error, "corps", "Fontenoy 1, 10", "unit kind fielded by an army it is restricted from", "corps.rs: corps_membership";
    E0501, Error, "deployment", "Fontenoy 0.2; Denain 13.1", "unit outside its deployment zone", "deployment.rs: free_in_zone";
    E0503, Error, "deployment", "Fontenoy 0.2; Denain 13.1", "counter placed off the map", "deployment.rs: placed_on_the_map";
    E0504, Error, "deployment", "Fontenoy 7.1; Denain 7.1; terrain table", "unit on terrain it cannot enter", "deployment.rs: placed_on_the_map";
    E0505, Error, "deployment", "Fontenoy 0.2; Denain 13.1", "deployment zone hex off the map", "deployment.rs: zones";
    W0506, Warning, "deployment", "Fontenoy 0.2; Denain 13.1", "deployment zones of opposing armies overlap", "deployment.rs: zones";
    E0507, Error, "deployment", "Denain 13.2", "reinforcement entry hex off the map", "deployment/reinforcements.rs: reinforcement";
    E0508, Error, "deployment", "Denain 13.2", "reinforcement arrives after the last turn", "deployment/reinforcements.rs: reinforcement";
    E0509, Error, "deployment", "Fontenoy 13; Denain 13.3", "victory hex off the map", "deployment.rs: victory_hexes";
    E0510, Error, "deployment", "Fontenoy 0.2; Denain 13.1", "counter placed free in another corps' or army's zone", "deployment.rs: free_in_zone";
    E0511, Error, "deployment", "Fontenoy 7.4, 9; Denain 7.4, 9; terrain table", "leader on terrain it cannot enter", "deployment.rs: placed_on_the_map";
    E0512, Error, "deployment", "Denain 13.2", "reinforcements cannot all enter in column by the last turn", "deployment/reinforcements.rs: column_entry";
    E0513, Error, "deployment", "Denain 13.2; terrain table", "reinforcement enters by terrain it cannot enter", "deployment/reinforcements.rs: reinforcement";
    E0514, Error, "deployment", "victory conditions", "exit hex not on the map's edge", "deployment.rs: exits_on_the_edge";
    E0601, Error, "map", "map grid", "wrong number of terrain rows", "map_checks.rs: rows";
    E0602, Error, "map", "map grid", "terrain row of the wrong length", "map_checks.rs: rows";
    E0603, Error, "map", "terrain table", "terrain code not in the legend", "map_checks.rs: rows";
    E0604, Error, "map", "terrain table", "unknown overlay type", "map_checks.rs: overlays";
    E0605, Error, "map", "map grid", "map entry on a hex off the map", "map_checks.rs: off_map";
    E0606, Error, "map", "map grid", "hexside not between two hexes of the map", "map_checks.rs: hexsides";
    E0607, Error, "map", "terrain table", "unknown hexside type", "map_checks.rs: hexsides";
    E0608, Error, "map", "Denain 7.5", "bridge hexside not on a water hexside", "map_checks.rs: hexsides";
    E0609, Error, "map", "Denain 7.5", "bridge overlay away from water", "map_checks.rs: overlays";
    E0610, Error, "map", "map grid", "terrain code not one character", "map_checks.rs: terrain_codes";
    E0611, Error, "map", "map grid", "half-hex not on the edge of the map", "map_checks.rs: half_hexes";
    E0612, Error, "map", "map grid", "road path that does not run from hex to neighbouring hex", "map_checks.rs: path_break";
    E0701, Error, "rules", "Denain 11.1", "fire restriction names a terrain code the map lacks", "rules.rs: rules_against_map";
    E0702, Error, "rules", "charts", "chart row without one result per column", "rules.rs: charts";
    E0703, Error, "rules", "charts", "chart rolls do not cover the die once each", "rules.rs: charts";
    W0801, Warning, "command", "Fontenoy 8.2; Denain 8.2", "line leader out of its commander's radius at set-up", "command.rs: leader_out_of_command";
    W0901, Warning, "command", "Fontenoy 9.1-9.3; Denain 9.1, 9.3", "unit out of command at set-up", "command.rs: units_out_of_command";
    E1001, Error, "miniatures", "system file", "a miniatures system file cannot be loaded", "door/scenario.rs: open_systems";
    E1002, Error, "miniatures", "Age of Honor, Louis XIV troop types", "unit lacks a rating its system needs", "miniatures.rs: units";
    E1003, Error, "miniatures", "Age of Honor, Louis XIV tables", "rating out of the system's range or tables", "miniatures.rs: units";
    E1004, Error, "miniatures", "Age of Honor movement chart, Louis XIV National Army Tables", "troop type the system does not have", "miniatures.rs: units";
    E1005, Error, "miniatures", "Louis XIV scale: 2 figures a base", "figures not a whole number of bases", "miniatures.rs: composition";
    E1006, Error, "miniatures", "Louis XIV scale: battalion 5 bases, regiment 3 squadrons", "unit's bases break its organisation", "miniatures.rs: composition";
    E1007, Error, "miniatures", "Age of Honor brigades", "brigade with too few or too many stands", "miniatures.rs: composition";
    E1008, Error, "miniatures", "Age of Honor reserve movement modifiers", "commander's modifier disagrees with the named table", "miniatures.rs: leaders";
    E1009, Error, "miniatures", "Louis XIV National Army Tables", "nation's table has no line for the troop type", "miniatures.rs: composition";
    W1010, Warning, "miniatures", "system ratings", "rating the system does not define", "miniatures.rs: units";
    E1011, Error, "miniatures", "system file", "the system's own tables contradict each other", "system_data.rs: system_data";
    E1101, Error, "variant", "scenario variants", "variant change names an id its base lacks", "door/variant.rs: problem_diagnostic";
    W1102, Warning, "variant", "scenario variants", "variant change that changes nothing", "door/variant.rs: problem_diagnostic";
    E1103, Error, "variant", "scenario variants", "two variant changes contradict each other", "door/variant.rs: problem_diagnostic";
    E1104, Error, "variant", "scenario variants", "the variant's base scenario cannot be loaded", "door/variant.rs: e1104";
    E1105, Error, "variant", "scenario variants", "variant change that does not fit what it names", "door/variant.rs: problem_diagnostic";
}

impl Code {
    /// The unknown names this diagnostic follows from when one is reported about the same
    /// subject (a unit's id): a unit in a corps that does not exist (E0202) is not then said to
    /// stand in another corps' zone (E0510), to belong to another army's corps (E0402) or to be
    /// out of its leader's command (W0901); a unit of a kind that does not exist (E0204) is not
    /// then said to stand on terrain it cannot enter or to lack its system's ratings. The cause
    /// is reported once; what follows from it would change when it is corrected.
    /// the sink (`crate::sink`) drops the followers, whatever check raised them.
    pub fn follows_from(self) -> &'static [Code] {
        use Code::*;
        match self {
            E0402 | E0405 | E0510 | W0901 => &[E0202, E0206],
            E0501 => &[E0203],
            E0406 | E0504 | E0513 | E1002 | E1003 | E1004 | E1005 | E1006 | E1007 | E1009
            | W1010 => &[E0204],
            _ => &[],
        }
    }

    /// The fields this code's check reads beyond its subject, by document and JSON pointer.
    /// When the JSON Schema refuses one of them (an E0105 at that field or inside it), what
    /// the check would then say follows from the refused value and is not reported: a game of
    /// `turns: 0` does not make every reinforcement late (E0508), hex names of zero digits do
    /// not put every hex, zone, entry and placement off the map (one map gave 345 errors
    /// after its one E0105). The sink (`crate::sink`) drops them, as it drops the followers of
    /// an unknown name ([`Code::follows_from`]).
    pub fn reads(self) -> &'static [(bataille_schema::DocumentKind, &'static str)] {
        use Code::*;
        use bataille_schema::DocumentKind::{Map, Scenario};
        match self {
            E0508 | E0512 => &[(Scenario, "/turns")],
            E0503 | E0505 | E0507 | E0509 | E0514 | E0601 | E0602 | E0605 | E0606 | E0611
            | E0612 => &[(Map, "/grid")],
            _ => &[],
        }
    }
}

/// Codes no longer reported, with the code that replaced them. Their numbers are never reused.
pub const RETIRED: &[(&str, &str)] = &[(
    "W0502",
    "E0510: a counter placed free in another corps' or army's zone is an error",
)];

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Code {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        let text = text.trim();
        // Every code is five characters: anything else is none, without comparing it to each
        // (500,000 entries of an `allow` list are read, issue 19).
        if text.len() != 5 {
            return Err(());
        }
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str().eq_ignore_ascii_case(text))
            .ok_or(())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_matches_severity_and_codes_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let letter = &code.as_str()[..1];
            match code.severity() {
                Severity::Error => assert_eq!(letter, "E", "{code}"),
                Severity::Warning => assert_eq!(letter, "W", "{code}"),
            }
            assert!(seen.insert(&code.as_str()[1..]), "{code} number reused");
        }
        for (retired, _) in RETIRED {
            assert!(
                !seen.contains(&retired[1..]),
                "{retired} is retired: its number is never reused"
            );
        }
    }

    #[test]
    fn parses_codes_case_insensitively() {
        assert_eq!("e0301".parse::<Code>(), Ok(Code::E0301));
        assert_eq!("X9999".parse::<Code>(), Err(()));
    }
}
