//! What a new item starts with, so that a new battle fits without fixing (issue 21): each
//! army a colour family and its corps shades of it; a unit "free in a zone" in its own zone;
//! a new zone named after its owner.

use bataille_schema::Colour;
use bataille_schema::scenario::{Owner, Scenario, Unit, Zone};

/// The colour families of armies, one per army in order (blue, red, green, ochre, violet),
/// each as shades its corps take in turn: two armies never look alike, and a corps' counters
/// tell their army at a glance. None is the pure red or amber of the map's broken-rule
/// outlines.
pub const ARMY_COLOUR_FAMILIES: [[&str; 4]; 5] = [
    ["#2e5fb4", "#5f8fdc", "#1d3f7a", "#8fb4ea"],
    ["#b83a3a", "#de7464", "#7c2424", "#eaa08e"],
    ["#2f8a4a", "#6cbf7c", "#1d5a30", "#a4d9a8"],
    ["#b8902a", "#e0c060", "#7a5c14", "#ecd898"],
    ["#7446a0", "#a67fd0", "#4b2a6d", "#cdb4e6"],
];

/// The colour of the `corps`-th corps of the `army`-th army: a shade of its army's family.
pub fn corps_colour(army: usize, corps: usize) -> Colour {
    let family = &ARMY_COLOUR_FAMILIES[army % ARMY_COLOUR_FAMILIES.len()];
    Colour::from(family[corps % family.len()])
}

/// The zone a unit deploys in when its placement becomes "free in a zone": the first zone of
/// its own corps, else of its army, else one shared with them (E0501, E0510 otherwise: the
/// file's first zone may be the enemy's).
pub fn own_zone<'s>(s: &'s Scenario, a: usize, unit: &Unit) -> Option<&'s Zone> {
    let army = &s.armies.get(a)?.id;
    let mine = |owner: &Owner, corps_only: bool| match owner {
        Owner::Corps(id) => unit.corps.as_ref() == Some(id),
        Owner::Army(id) => !corps_only && id == army,
    };
    s.zones
        .iter()
        .find(|z| mine(&z.owner, true))
        .or_else(|| s.zones.iter().find(|z| mine(&z.owner, false)))
        .or_else(|| {
            s.zones
                .iter()
                .find(|z| z.shared_with.iter().any(|o| mine(o, false)))
        })
}

/// A new zone's name: its owner's ("France's deployment zone"), numbered when the owner has
/// one already ("France's deployment zone 2"), so that messages about zones tell them apart.
pub fn zone_name(s: &Scenario, owner_name: &str) -> String {
    let base = format!("{owner_name}'s deployment zone");
    let taken = |name: &str| s.zones.iter().any(|z| z.name == name);
    if !taken(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base} {n}"))
        .find(|name| !taken(name))
        .unwrap_or(base)
}
