//! How each counter of a scenario looks, worked out in one place for every output (the PNG
//! renderer, the editor's map and every export): a unit's colour (its corps', else its army's,
//! else grey), its symbol (from its kind), its values and back (from the game's counter layout)
//! and where its facing points; a leader's and a commander's colour.

use std::collections::BTreeMap;

use bataille_schema::geometry::facing_bearing;
use bataille_schema::map::Orientation;
use bataille_schema::scenario::{Army, Commander, Corps, CounterBack, Symbol, Unit};
use bataille_schema::{Grid, HexIndex, Scenario};

use super::NO_CORPS;
use super::look::CounterValues;
use crate::rgb_of;

/// How one unit's counter looks, wherever it is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CounterLook {
    /// Its corps' colour; a unit of no corps its army's (a nationality), else grey. A colour
    /// that does not read is magenta, as the renderer shows it.
    pub colour: [u8; 3],
    /// The symbol of its kind (`Other` for a kind the rules do not list).
    pub symbol: Symbol,
    /// What its front prints (the game's layout chooses which).
    pub values: CounterValues,
    /// What its back shows (`rules.counters.back`, or its kind's own).
    pub back: CounterBack,
    /// The bearing its front points to, degrees clockwise from north (the files' convention,
    /// [`facing_bearing`]); `None` for a unit with no facing.
    pub facing: Option<f32>,
}

/// The looks of one scenario's counters on a map of one orientation (cheap to make: a list
/// beside the map makes one per row).
#[derive(Debug, Clone, Copy)]
pub struct Looks<'a> {
    scenario: &'a Scenario,
    orientation: Orientation,
}

impl<'a> Looks<'a> {
    pub fn new(scenario: &'a Scenario, orientation: Orientation) -> Looks<'a> {
        Looks {
            scenario,
            orientation,
        }
    }

    /// The colour of a corps of the army (a unit or commander names its own army's corps).
    fn corps_colour(army: &Army, id: &str) -> Option<[u8; 3]> {
        army.corps
            .iter()
            .find(|corps| corps.id.as_str() == id)
            .map(|corps| rgb_of(&corps.colour))
    }

    /// The colour of a counter of no corps in this army: the army's, else grey.
    pub fn army_colour(army: &Army) -> [u8; 3] {
        army.colour.as_ref().map_or(NO_CORPS, rgb_of)
    }

    /// A unit's look (`army` is the army it belongs to).
    pub fn unit(&self, army: &Army, unit: &Unit) -> CounterLook {
        let rules = &self.scenario.rules;
        CounterLook {
            colour: unit
                .corps
                .as_ref()
                .and_then(|id| Looks::corps_colour(army, id.as_str()))
                .unwrap_or_else(|| Looks::army_colour(army)),
            symbol: rules
                .unit_kinds
                .get(&unit.kind)
                .map_or(Symbol::Other, |kind| kind.symbol),
            values: CounterValues::of(unit),
            back: rules.counters.back_of(unit.kind.as_str()),
            facing: unit
                .facing
                .map(|side| facing_bearing(self.orientation, side)),
        }
    }

    /// The look of the unit with this id, if the scenario has one.
    pub fn unit_by_id(&self, id: &str) -> Option<CounterLook> {
        self.scenario.armies.iter().find_map(|army| {
            let unit = army.units.iter().find(|u| u.id.as_str() == id)?;
            Some(self.unit(army, unit))
        })
    }

    /// A line leader's colour: his corps'.
    pub fn leader(&self, corps: &Corps) -> [u8; 3] {
        rgb_of(&corps.colour)
    }

    /// A commander's colour (`army` is his): the first corps he commands', else grey.
    pub fn commander(&self, army: &Army, commander: &Commander) -> [u8; 3] {
        commander
            .commands
            .first()
            .and_then(|id| Looks::corps_colour(army, id.as_str()))
            .unwrap_or(NO_CORPS)
    }

    /// The units placed on the map at set-up, by hex, bottom of each stack first (the files'
    /// order), with their looks: what the renderer draws and the editor shows.
    pub fn stacks(&self, grid: &Grid) -> BTreeMap<HexIndex, Vec<(&'a Unit, CounterLook)>> {
        let mut stacks: BTreeMap<HexIndex, Vec<(&Unit, CounterLook)>> = BTreeMap::new();
        for army in &self.scenario.armies {
            for unit in &army.units {
                if let Some(index) = unit.placement.hex().and_then(|hex| grid.lookup(hex)) {
                    stacks
                        .entry(index)
                        .or_default()
                        .push((unit, self.unit(army, unit)));
                }
            }
        }
        stacks
    }
}
