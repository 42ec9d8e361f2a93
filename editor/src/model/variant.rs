//! A scenario opened from a variant (issue 25): what the editor keeps of the variant and its
//! base, to save only the changes and to mark them; the variant files found beside a base.
//! A changed counter's base values are `model::variant_base`'s.

use std::path::PathBuf;

use bataille_schema::Scenario;

/// Where a scenario opened from a variant comes from: the variant as read (its name, notes,
/// sources and `base` as written) and its base scenario. The document's scenario is the variant
/// resolved over the base; saving writes only what differs from the base, by id
/// (`bataille_schema::variant::rediff`), into the variant's file.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantOrigin {
    pub variant: bataille_schema::Variant,
    /// The base scenario as opened.
    pub base: Scenario,
    /// The base's file.
    pub base_path: PathBuf,
}

impl VariantOrigin {
    /// The variant the edited scenario makes of the base (what a save writes).
    pub fn changes(&self, edited: &Scenario) -> bataille_schema::Variant {
        bataille_schema::variant::rediff(&self.base, edited, &self.variant)
    }

    /// The ids of the units, leaders and zones the edited scenario changes from the base (for
    /// the order of battle's marks).
    pub fn changed_ids(&self, edited: &Scenario) -> std::collections::HashSet<String> {
        let v = self.changes(edited);
        v.units
            .keys()
            .chain(v.leaders.keys())
            .chain(v.zones.keys())
            .map(|id| id.as_str().to_owned())
            .chain(v.add_units.iter().map(|a| a.unit.id.as_str().to_owned()))
            .chain(v.add_zones.iter().map(|z| z.id.as_str().to_owned()))
            .collect()
    }
}

/// A variant file of a base scenario, found beside it (what "Open variant ▸" offers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantFile {
    pub path: PathBuf,
    /// The variant's name.
    pub name: String,
}
