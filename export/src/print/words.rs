//! The kit's own words, in the scenario's language (`Scenario::language`): a kit in French
//! prints "Table des effets du terrain" beside the legend's French names, never a mix of two
//! languages. English when the scenario names none or one the kit does not know.

/// Every word the kit writes that does not come from the scenario or its map. `{…}` marks
/// what [`fill`] puts in.
pub(crate) struct Words {
    /// The facings' names in compass order (N, NE, E, SE, S, SW, W, NW).
    pub sides: [&'static str; 8],
    /// `{date} · {turns} turns of {minutes} minutes from {start} · map {map}`
    pub subtitle: &'static str,
    /// `{sections}`: the map's sections (`3×2`).
    pub assembly: &'static str,
    pub map_section: &'static str,
    pub sheet_fronts: &'static str,
    pub sheet_backs: &'static str,
    /// `Counters {size} mm. Backs: {backs}.`
    pub fronts_note: &'static str,
    /// A `Reduced(n)` back: `{n}` combat points less.
    pub back_reduced: &'static str,
    /// A unit that a first loss eliminates: its back is blank.
    pub back_reduced_blank: &'static str,
    pub back_blank: &'static str,
    pub back_same: &'static str,
    pub back_fired: &'static str,
    /// `{kind}: {back}`
    pub back_of_kind: &'static str,
    pub back_leaders: &'static str,
    pub back_replacement: &'static str,
    pub back_disorder: &'static str,
    pub fronts_note_one_sided: &'static str,
    pub backs_note: &'static str,
    pub tec: &'static str,
    pub tec_note: &'static str,
    pub terrain: &'static str,
    pub overlay: &'static str,
    pub hexside: &'static str,
    pub protection: &'static str,
    pub sight: &'static str,
    pub zoc: &'static str,
    pub other: &'static str,
    pub blocks: &'static str,
    pub all: &'static str,
    pub built_up: &'static str,
    pub elevated: &'static str,
    pub redoubt: &'static str,
    pub road_bonus: &'static str,
    pub breach: &'static str,
    pub bridge: &'static str,
    pub water: &'static str,
    pub setup: &'static str,
    pub variant: &'static str,
    pub variant_of: &'static str,
    pub variant_changes: &'static str,
    pub variant_sources: &'static str,
    pub facing: &'static str,
    pub free_in: &'static str,
    pub anywhere: &'static str,
    pub reinforcements: &'static str,
    pub turn: &'static str,
    pub enters: &'static str,
    pub or: &'static str,
    pub victory: &'static str,
    pub points: &'static str,
    pub unit_objective: &'static str,
    pub per_cp: &'static str,
    pub per_rout: &'static str,
    pub holds_all: &'static str,
    pub holds_some: &'static str,
    pub leader_loss: &'static str,
    pub defence_multiplier: &'static str,
    pub blocks_fire: &'static str,
    pub exit_units: &'static str,
    pub exit_strength: &'static str,
    pub by_turn: &'static str,
    pub first_to_destroy: &'static str,
    pub loss_threshold: &'static str,
    pub per_strength: &'static str,
    pub die: &'static str,
}

const ENGLISH: Words = Words {
    sides: ["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
    subtitle: "{date} · {turns} turns of {minutes} minutes from {start} · map {map}",
    assembly: "Print at 100 % (no scaling). The map is {sections} sections: trim each along its trim marks, lay neighbours over each other until their red marks coincide, and tape.",
    map_section: "{map} — map section {name} of {sections} (row {row}, column {column}) · overlap {overlap} mm",
    sheet_fronts: "{title} — counter sheet {n} of {of}: fronts",
    sheet_backs: "{title} — counter sheet {n} of {of}: BACKS",
    fronts_note: "Counters {size} mm. Backs: {backs}.",
    back_reduced: "units {n} combat point less",
    back_reduced_blank: "blank for a unit of {n} (its first loss eliminates it)",
    back_blank: "blank",
    back_same: "the same values",
    back_fired: "fired",
    back_of_kind: "{kind}: {back}",
    back_leaders: "leaders activated (darker)",
    back_replacement: "replacement counters for units of {n} combat points or more (two less, then three)",
    back_disorder: "Disorder → Rout",
    fronts_note_one_sided: "Counters {size} mm. Units are printed on one side: their backs are blank.",
    backs_note: "Print on the back of the fronts page, flipped on the long edge: each back lands on its front.",
    tec: "Terrain effects chart — {map}",
    tec_note: "Movement points to enter a hex or cross a hexside (— impassable, all: the whole move, ½: half the move), protection added against fire at a unit there, and what blocks line of sight and zones of control.",
    terrain: "Terrain",
    overlay: "On the hex",
    hexside: "Hexside (cost to cross)",
    protection: "Protection",
    sight: "Line of sight",
    zoc: "Zones of control",
    other: "Other",
    blocks: "blocks",
    all: "all",
    built_up: "built-up",
    elevated: "elevated",
    redoubt: "redoubt",
    road_bonus: "+{n} MP on road",
    breach: "breach needed",
    bridge: "bridge",
    water: "water",
    setup: "Set-up — {title}",
    variant: "Variant — {name}",
    variant_of: "A variant of the published set-up of {title}, not the game's own scenario: the set-up, reinforcements and victory conditions that follow are the variant's.",
    variant_changes: "What the variant changes",
    variant_sources: "What it rests on",
    facing: "facing {facing}",
    free_in: "zone: {zone}",
    anywhere: "anywhere",
    reinforcements: "Reinforcement schedule",
    turn: "Turn {turn} — {time}",
    enters: "{name} ({army}) enters at {hexes}",
    or: " or ",
    victory: "Victory conditions",
    points: "{name} ({hex}): {points} points",
    unit_objective: "{name} (eliminated or routed): {points} points",
    per_cp: "Each enemy combat point eliminated: {points} points",
    per_rout: "Each enemy unit routed: {points} points",
    holds_all: "{result}: {army} holds {hexes}",
    holds_some: "{result}: {army} holds at least {n} of {hexes}",
    leader_loss: "If {leader} is lost: {winner} wins",
    defence_multiplier: "defence ×{n}",
    blocks_fire: "blocks artillery fire",
    exit_units: "{result}: {n} units of {side} leave the map by {hexes}{by}",
    exit_strength: "{result}: units of {side} worth {n} combat points leave the map by {hexes}{by}",
    by_turn: " by the end of turn {turn}",
    first_to_destroy: "{result}: {side} first to destroy {n} enemy combat points",
    loss_threshold: "{side}, once it has lost {n} combat points: {effect}",
    per_strength: "{side}: {points} points per enemy combat point destroyed",
    die: "Die ({die})",
};

const FRENCH: Words = Words {
    sides: ["N", "NE", "E", "SE", "S", "SO", "O", "NO"],
    subtitle: "{date} · {turns} tours de {minutes} minutes à partir de {start} · carte {map}",
    assembly: "Imprimez à 100 % (sans mise à l’échelle). La carte tient en {sections} sections : découpez chacune le long de ses traits de coupe, posez les voisines l’une sur l’autre jusqu’à ce que leurs repères rouges coïncident, et collez.",
    map_section: "{map} — section de carte {name} sur {sections} (rangée {row}, colonne {column}) · recouvrement {overlap} mm",
    sheet_fronts: "{title} — planche de pions {n} sur {of} : recto",
    sheet_backs: "{title} — planche de pions {n} sur {of} : VERSO",
    fronts_note: "Pions de {size} mm. Versos : {backs}.",
    back_reduced: "unités à {n} point de combat de moins",
    back_reduced_blank: "blanc pour une unité de {n} (sa première perte l’élimine)",
    back_blank: "blanc",
    back_same: "mêmes valeurs",
    back_fired: "a tiré",
    back_of_kind: "{kind} : {back}",
    back_leaders: "chefs activés (plus sombres)",
    back_replacement: "pions de remplacement pour les unités de {n} points de combat ou plus (deux de moins, puis trois)",
    back_disorder: "Désordre → Déroute",
    fronts_note_one_sided: "Pions de {size} mm. Les unités sont imprimées d'un seul côté : leur verso est vide.",
    backs_note: "Imprimez au dos de la page des rectos, en retournant la feuille sur le bord long : chaque verso tombe sur son recto.",
    tec: "Table des effets du terrain — {map}",
    tec_note: "Points de mouvement pour entrer dans un hex ou franchir un côté d’hex (— infranchissable, tout : tout le mouvement, ½ : la moitié du mouvement), protection ajoutée contre le tir sur une unité qui s’y trouve, et ce qui bloque les lignes de vue et les zones de contrôle.",
    terrain: "Terrain",
    overlay: "Sur l’hex",
    hexside: "Côté d’hex (coût pour le franchir)",
    protection: "Protection",
    sight: "Ligne de vue",
    zoc: "Zones de contrôle",
    other: "Autres effets",
    blocks: "bloque",
    all: "tout",
    built_up: "zone bâtie",
    elevated: "élevé",
    redoubt: "redoute",
    road_bonus: "+{n} PM sur route",
    breach: "brèche obligatoire",
    bridge: "pont",
    water: "eau",
    setup: "Mise en place — {title}",
    variant: "Variante — {name}",
    variant_of: "Une variante de la mise en place publiée de {title}, non le scénario du jeu : la mise en place, les renforts et les conditions de victoire qui suivent sont ceux de la variante.",
    variant_changes: "Ce que la variante change",
    variant_sources: "Sur quoi elle repose",
    facing: "orienté {facing}",
    free_in: "zone : {zone}",
    anywhere: "au choix",
    reinforcements: "Calendrier des renforts",
    turn: "Tour {turn} — {time}",
    enters: "{name} ({army}) entre par {hexes}",
    or: " ou ",
    victory: "Conditions de victoire",
    points: "{name} ({hex}) : {points} points",
    unit_objective: "{name} (éliminé ou en déroute) : {points} points",
    per_cp: "Chaque point de combat ennemi éliminé : {points} points",
    per_rout: "Chaque unité ennemie en déroute : {points} points",
    holds_all: "{result} : {army} tient {hexes}",
    holds_some: "{result} : {army} tient au moins {n} de ces hex : {hexes}",
    leader_loss: "{leader} perdu : {winner} gagne",
    defence_multiplier: "défense ×{n}",
    blocks_fire: "bloque le tir d'artillerie",
    exit_units: "{result} : {n} unités de {side} sortent de la carte par {hexes}{by}",
    exit_strength: "{result} : des unités de {side} valant {n} points de combat sortent de la carte par {hexes}{by}",
    by_turn: " avant la fin du tour {turn}",
    first_to_destroy: "{result} : {side} détruit le premier {n} points de combat ennemis",
    loss_threshold: "{side}, après la perte de {n} points de combat : {effect}",
    per_strength: "{side} : {points} points par point de combat ennemi détruit",
    die: "Dé ({die})",
};

/// The words for a language tag (`"fr"`, `"fr-FR"`, `"en"`); English when unknown.
pub(crate) fn words(language: Option<&str>) -> &'static Words {
    if crate::language::is_french(language) {
        &FRENCH
    } else {
        &ENGLISH
    }
}

impl Words {
    /// A facing's name (`SO` for south-west in French).
    pub fn side(&self, side: bataille_schema::Side) -> &'static str {
        use bataille_schema::Side;
        let at = match side {
            Side::N => 0,
            Side::NE => 1,
            Side::E => 2,
            Side::SE => 3,
            Side::S => 4,
            Side::SW => 5,
            Side::W => 6,
            Side::NW => 7,
        };
        self.sides[at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::fill;

    #[test]
    fn french_for_french_tags_english_otherwise() {
        assert_eq!(words(Some("fr")).victory, "Conditions de victoire");
        assert_eq!(words(Some("fr-BE")).victory, "Conditions de victoire");
        assert_eq!(words(Some("en")).victory, "Victory conditions");
        assert_eq!(words(Some("de")).victory, "Victory conditions");
        assert_eq!(words(None).victory, "Victory conditions");
    }

    #[test]
    fn every_placeholder_is_filled() {
        let s = fill(ENGLISH.turn, &[("turn", "3"), ("time", "13:00")]);
        assert_eq!(s, "Turn 3 — 13:00");
    }
}
