//! The words of a variant's change sentences, in the scenario's language (`Scenario::language`,
//! as the kit's own words are): a French kit says "Douglas : PC 3 (publié : 2)."
//! beside its French set-up, never an English sentence in a French kit. English when the
//! scenario names no language or one the kit does not know. `{…}` marks what is filled in.

pub(super) struct Phrases {
    pub not_placed: &'static str,
    /// `{hex}`
    pub starts_at: &'static str,
    /// `{at}`, `{zone}`
    pub starts_at_free: &'static str,
    /// `{zone}`
    pub starts_free: &'static str,
    /// `{turn}`, `{entry}` (joined with `or`)
    pub enters: &'static str,
    pub or: &'static str,
    pub none: &'static str,
    /// `{new}`, `{old}`: a new value beside the published one.
    pub published: &'static str,
    /// `{turns}`, `{old}`
    pub turns: &'static str,
    pub cp: &'static str,
    pub mp: &'static str,
    pub morale: &'static str,
    /// `{value}`
    pub fire_modifier: &'static str,
    /// `{corps}`
    pub in_corps: &'static str,
    pub always_in_command: &'static str,
    pub no_longer_always_in_command: &'static str,
    /// `{name}`
    pub replaced_by: &'static str,
    /// `{value}`
    pub activation: &'static str,
    /// `{value}`
    pub radius: &'static str,
    /// `{name}`, `{parts}` (joined with `; `)
    pub counter: &'static str,
    /// `{army}`, `{name}`, `{kind}`, `{placement}`
    pub added: &'static str,
    /// `{name}`
    pub removed: &'static str,
    /// `{name}`, `{hexes}`
    pub zone_hexes: &'static str,
    /// `{name}`
    pub zone_changed: &'static str,
    /// `{name}`, `{owner}`, `{hexes}`
    pub new_zone: &'static str,
    /// `{text}`: a victory condition.
    pub victory: &'static str,
    /// `{kind}`, `{side}`
    pub no_condition: &'static str,
    /// `{hex}`, `{name}`, `{points}`
    pub victory_hex: &'static str,
    /// `{hex}`
    pub victory_hex_removed: &'static str,
    /// `{points}`, `{old}`
    pub per_cp: &'static str,
    /// `{points}`, `{old}`
    pub per_routed: &'static str,
    pub holds: &'static str,
    /// `{list}`
    pub units_worth: &'static str,
    pub no_unit_worth: &'static str,
    /// `{name}`, `{points}`
    pub unit_points: &'static str,
    /// `{list}`
    pub leader_losses: &'static str,
    pub no_leader_loss: &'static str,
    /// `{name}`, `{winner}`
    pub leader_lost: &'static str,
    /// `{notes}`
    pub victory_notes: &'static str,
    /// `{radius}`, `{old}`
    pub commander_radius: &'static str,
    /// `{radius}`, `{old}`
    pub leader_radius: &'static str,
    pub blocked: &'static str,
    pub not_blocked: &'static str,
    pub lines: &'static str,
    pub no_lines: &'static str,
    /// `{how}`, `{old}`
    pub reinforcements: &'static str,
    pub in_column: &'static str,
    pub stacked: &'static str,
    /// `{side}`, `{what}`, `{hexes}`, `{by}`, `{result}`
    pub exit: &'static str,
    /// `{units}`
    pub exit_units: &'static str,
    /// `{strength}`
    pub exit_strength: &'static str,
    /// `{turn}`
    pub by_turn: &'static str,
    /// `{side}`, `{strength}`, `{result}`
    pub first_to_destroy: &'static str,
    /// `{side}`, `{strength}`, `{effect}`
    pub loss_threshold: &'static str,
    /// `{side}`, `{points}`
    pub points_per_strength: &'static str,
}

const ENGLISH: Phrases = Phrases {
    not_placed: "not placed",
    starts_at: "starts at {hex}",
    starts_at_free: "starts at {at}, free in {zone}",
    starts_free: "starts free in {zone}",
    enters: "enters on turn {turn} by {entry}",
    or: " or ",
    none: "none",
    published: "{new} (published: {old})",
    turns: "The game lasts {turns} turns (published: {old}).",
    cp: "CP",
    mp: "MP",
    morale: "morale",
    fire_modifier: "fire modifier {value}",
    in_corps: "in corps {corps}",
    always_in_command: "always in command",
    no_longer_always_in_command: "no longer always in command",
    replaced_by: "replaced by {name}",
    activation: "activation {value}",
    radius: "command radius {value} hexes",
    counter: "{name}: {parts}.",
    added: "Added to {army}: {name} ({kind}), {placement}.",
    removed: "Removed: {name}.",
    zone_hexes: "Zone {name}: hexes {hexes}.",
    zone_changed: "Zone {name} changed.",
    new_zone: "New zone {name} ({owner}): hexes {hexes}.",
    victory: "Victory: {text}.",
    no_condition: "Victory: no {kind} condition for {side}.",
    victory_hex: "Victory hex {hex} ({name}): {points} points.",
    victory_hex_removed: "Victory hex {hex} no longer counts.",
    per_cp: "Victory: {points} points per enemy CP eliminated (published: {old}).",
    per_routed: "Victory: {points} points per enemy unit routed at the end (published: {old}).",
    holds: "Victory: the hexes to hold change (see the victory conditions).",
    units_worth: "Victory: units worth points: {list}.",
    no_unit_worth: "Victory: no unit is worth points.",
    unit_points: "{name} {points} points",
    leader_losses: "Victory: {list}.",
    no_leader_loss: "Victory: no leader's loss decides the game.",
    leader_lost: "{name} lost, {winner} wins",
    victory_notes: "Victory: {notes}",
    commander_radius: "Commanders in chief command within {radius} hexes (published: {old}).",
    leader_radius: "Line leaders command within {radius} hexes (published: {old}).",
    blocked: "Command paths are blocked by enemy front and flank hexes.",
    not_blocked: "Command paths are not blocked by enemy front and flank hexes.",
    lines: "Units out of radius are commanded through lines of battle.",
    no_lines: "No lines of battle: a unit out of its leader's radius is out of command.",
    reinforcements: "Reinforcements enter {how} (published: {old}).",
    in_column: "in column",
    stacked: "stacked",
    exit: "{side} exits {what} by {hexes}{by}: {result}",
    exit_units: "{units} units",
    exit_strength: "{strength} combat points",
    by_turn: " by turn {turn}",
    first_to_destroy: "{side}: first to destroy {strength} enemy combat points: {result}",
    loss_threshold: "{side}: after losing {strength} combat points, {effect}",
    points_per_strength: "{side}: {points} points per enemy combat point destroyed",
};

const FRENCH: Phrases = Phrases {
    not_placed: "non placé",
    starts_at: "commence en {hex}",
    starts_at_free: "commence en {at}, libre dans {zone}",
    starts_free: "commence libre dans {zone}",
    enters: "entre au tour {turn} par {entry}",
    or: " ou ",
    none: "aucun",
    published: "{new} (publié : {old})",
    turns: "La partie dure {turns} tours (publié : {old}).",
    cp: "PC",
    mp: "PM",
    morale: "moral",
    fire_modifier: "modificateur de tir {value}",
    in_corps: "dans la formation {corps}",
    always_in_command: "toujours commandé",
    no_longer_always_in_command: "n’est plus toujours commandé",
    replaced_by: "remplacé par {name}",
    activation: "activation {value}",
    radius: "rayon de commandement {value} hexagones",
    counter: "{name} : {parts}.",
    added: "Ajouté à {army} : {name} ({kind}), {placement}.",
    removed: "Retiré : {name}.",
    zone_hexes: "Zone {name} : hexagones {hexes}.",
    zone_changed: "Zone {name} modifiée.",
    new_zone: "Nouvelle zone {name} ({owner}) : hexagones {hexes}.",
    victory: "Victoire : {text}.",
    no_condition: "Victoire : plus de condition {kind} pour {side}.",
    victory_hex: "Hexagone de victoire {hex} ({name}) : {points} points.",
    victory_hex_removed: "L’hexagone {hex} ne compte plus pour la victoire.",
    per_cp: "Victoire : {points} points par PC ennemi éliminé (publié : {old}).",
    per_routed: "Victoire : {points} points par unité ennemie en déroute à la fin (publié : {old}).",
    holds: "Victoire : les hexagones à tenir changent (voir les conditions de victoire).",
    units_worth: "Victoire : unités valant des points : {list}.",
    no_unit_worth: "Victoire : aucune unité ne vaut de points.",
    unit_points: "{name} {points} points",
    leader_losses: "Victoire : {list}.",
    no_leader_loss: "Victoire : la perte d’aucun chef ne décide de la partie.",
    leader_lost: "{name} perdu, {winner} gagne",
    victory_notes: "Victoire : {notes}",
    commander_radius: "Les commandants en chef commandent à {radius} hexagones (publié : {old}).",
    leader_radius: "Les chefs de ligne commandent à {radius} hexagones (publié : {old}).",
    blocked: "Les hexagones de front et de flanc ennemis bloquent le commandement.",
    not_blocked: "Les hexagones de front et de flanc ennemis ne bloquent pas le commandement.",
    lines: "Les unités hors rayon sont commandées par les lignes de bataille.",
    no_lines: "Pas de lignes de bataille : une unité hors du rayon de son chef n’est pas commandée.",
    reinforcements: "Les renforts entrent {how} (publié : {old}).",
    in_column: "en colonne",
    stacked: "empilés",
    exit: "{side} sort {what} par {hexes}{by} : {result}",
    exit_units: "{units} unités",
    exit_strength: "{strength} points de combat",
    by_turn: " avant la fin du tour {turn}",
    first_to_destroy: "{side} : le premier à détruire {strength} points de combat ennemis : {result}",
    loss_threshold: "{side} : après la perte de {strength} points de combat, {effect}",
    points_per_strength: "{side} : {points} points par point de combat ennemi détruit",
};

/// The phrases for a language tag (`"fr"`, `"fr-FR"`, `"en"`); English when unknown (the kit's
/// own words choose the same way).
pub(super) fn phrases(language: Option<&str>) -> &'static Phrases {
    if crate::language::is_french(language) {
        &FRENCH
    } else {
        &ENGLISH
    }
}
