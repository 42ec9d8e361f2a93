//! The map's legend edited as the model sees it, with no UI: adding, editing, renaming and
//! deleting an entry of any of the three legends (terrain types by code, overlay types and
//! hexside types by id), each use of a renamed or deleted entry following it on the map (hexes
//! recoded, overlays and hexside features moved to the new id, or removed), in one list of
//! changes for one undo step.

use bataille_schema::map::{HexsideType, OverlayType, TerrainType};
use bataille_schema::{HexIndex, Id};

use crate::model::document::Document;
use crate::model::history::{CellChange, Change};

/// One of the three kinds of legend entry.
pub trait LegendEntry: Clone {
    /// The entry under `key` in the document's legend.
    fn current(doc: &Document, key: &str) -> Option<Self>;
    /// The change that sets the entry under `key` from `before` to `after`.
    fn change(key: &str, before: Option<Self>, after: Option<Self>) -> Change;
    /// Every use of `old` on the map moved to `new`, or removed.
    fn reassign(doc: &Document, old: &str, new: Option<&str>) -> Vec<Change>;
}

impl LegendEntry for TerrainType {
    fn current(doc: &Document, key: &str) -> Option<Self> {
        doc.map.terrain.get(key).cloned()
    }

    fn change(key: &str, before: Option<Self>, after: Option<Self>) -> Change {
        Change::TerrainType {
            code: key.to_owned(),
            before,
            after,
        }
    }

    /// Every hex of the old code recoded to the new one (a terrain with no replacement has
    /// no hex left: the editor asks for one while the code is in use).
    fn reassign(doc: &Document, old: &str, new: Option<&str>) -> Vec<Change> {
        let (Some(old), Some(new)) = (old.chars().next(), new.and_then(|n| n.chars().next()))
        else {
            return Vec::new();
        };
        vec![Change::Terrain(
            doc.hexes_with_code(old)
                .into_iter()
                .map(|hex: HexIndex| CellChange {
                    hex,
                    before: old,
                    after: new,
                })
                .collect(),
        )]
    }
}

impl LegendEntry for OverlayType {
    fn current(doc: &Document, key: &str) -> Option<Self> {
        doc.map.overlay_types.get(key).cloned()
    }

    fn change(key: &str, before: Option<Self>, after: Option<Self>) -> Change {
        Change::OverlayType {
            id: Id::from(key),
            before,
            after,
        }
    }

    /// The overlay moved to the new id (or removed) on every hex that has it, and its paths
    /// (a road's) with it: left behind, they would name an overlay the legend lacks (E0604).
    fn reassign(doc: &Document, old: &str, new: Option<&str>) -> Vec<Change> {
        let (old, new) = (Id::from(old), new.map(Id::from));
        let mut changes = Vec::new();
        if let Some(paths) = doc.map.paths.get(&old) {
            changes.push(Change::Paths {
                overlay: old.clone(),
                before: paths.clone(),
                after: Vec::new(),
            });
            if let Some(new) = &new {
                let before = doc.map.paths.get(new).cloned().unwrap_or_default();
                let after = [before.clone(), paths.clone()].concat();
                changes.push(Change::Paths {
                    overlay: new.clone(),
                    before,
                    after,
                });
            }
        }
        for (hex, list) in &doc.map.overlays {
            if list.contains(&old) {
                changes.push(Change::Overlay {
                    hex: hex.clone(),
                    overlay: old.clone(),
                    present: false,
                });
                if let Some(new) = &new
                    && !list.contains(new)
                {
                    changes.push(Change::Overlay {
                        hex: hex.clone(),
                        overlay: new.clone(),
                        present: true,
                    });
                }
            }
        }
        changes
    }
}

impl LegendEntry for HexsideType {
    fn current(doc: &Document, key: &str) -> Option<Self> {
        doc.map.hexside_types.get(key).cloned()
    }

    fn change(key: &str, before: Option<Self>, after: Option<Self>) -> Change {
        Change::HexsideType {
            id: Id::from(key),
            before,
            after,
        }
    }

    /// The feature moved to the new id (or removed) on every hexside that has it.
    fn reassign(doc: &Document, old: &str, new: Option<&str>) -> Vec<Change> {
        let (old, new) = (Id::from(old), new.map(Id::from));
        let mut changes = Vec::new();
        for side in doc.map.hexsides.get(&old).into_iter().flatten() {
            changes.push(Change::Hexside {
                feature: old.clone(),
                side: side.clone(),
                present: false,
            });
            if let Some(new) = &new
                && !doc.has_hexside(new, side)
            {
                changes.push(Change::Hexside {
                    feature: new.clone(),
                    side: side.clone(),
                    present: true,
                });
            }
        }
        changes
    }
}

/// Adds the entry under `key`, or edits it; `renamed_from` another key, that entry goes and
/// its uses on the map follow to `key`.
pub fn put_entry<E: LegendEntry>(
    doc: &Document,
    key: &str,
    entry: E,
    renamed_from: Option<&str>,
) -> Vec<Change> {
    let before = match renamed_from {
        Some(_) => None,
        None => E::current(doc, key),
    };
    let mut changes = vec![E::change(key, before, Some(entry))];
    if let Some(old) = renamed_from {
        changes.extend(E::reassign(doc, old, Some(key)));
        changes.push(E::change(old, E::current(doc, old), None));
    }
    changes
}

/// Deletes the entry under `key`; its uses on the map go to `replacement`, or are removed.
pub fn delete_entry<E: LegendEntry>(
    doc: &Document,
    key: &str,
    replacement: Option<&str>,
) -> Vec<Change> {
    let mut changes = E::reassign(doc, key, replacement);
    changes.push(E::change(key, E::current(doc, key), None));
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::NewMapSettings;

    /// Denain's map in a document.
    fn denain() -> Document {
        let (name, text) = crate::model::templates::BUNDLED_MAPS[0];
        let map = bataille_schema::io::parse_map(&bataille_schema::SourceFile::new(
            name,
            text.to_owned(),
        ))
        .expect("Denain's map parses");
        let mut doc = Document::new_map(&NewMapSettings::default());
        doc.map = map;
        doc
    }

    /// Applies the changes, returns the map after them, and checks undoing them (in reverse)
    /// gives the map back.
    fn apply_and_undo(doc: &mut Document, changes: &[Change]) -> bataille_schema::Map {
        let before = doc.map.clone();
        for change in changes {
            change.apply(doc, true);
        }
        let after = doc.map.clone();
        for change in changes.iter().rev() {
            change.apply(doc, false);
        }
        // As saved: the canonical text (a feature's hexsides are a set, written in order).
        let text =
            |map: &bataille_schema::Map| bataille_schema::io::map_to_string(map).expect("writes");
        assert!(text(&doc.map) == text(&before), "undo gives the map back");
        after
    }

    #[test]
    fn a_renamed_entry_takes_its_uses_on_the_map_with_it() {
        let mut doc = denain();
        // The camp's line (Denain 7.6) renamed: every hexside drawn with it follows.
        let drawn = doc.map.hexsides[&Id::from("ligne-du-camp")].len();
        assert!(drawn > 5);
        let entry = HexsideType::current(&doc, "ligne-du-camp").expect("the camp line");
        let changes = put_entry(&doc, "camp", entry.clone(), Some("ligne-du-camp"));
        let map = apply_and_undo(&mut doc, &changes);
        assert_eq!(map.hexsides[&Id::from("camp")].len(), drawn);
        assert!(!map.hexsides.contains_key(&Id::from("ligne-du-camp")));
        assert_eq!(map.hexside_types.get("camp"), Some(&entry));
        assert!(!map.hexside_types.contains_key("ligne-du-camp"));
        // An overlay (the redoubts) and a terrain code (the Escaut) likewise.
        let redoubts = doc
            .map
            .overlays
            .values()
            .filter(|l| l.contains(&Id::from("redoute")))
            .count();
        assert!(redoubts > 0);
        let entry = OverlayType::current(&doc, "redoute").expect("redoubts");
        let changes = put_entry(&doc, "redoubt", entry, Some("redoute"));
        let map = apply_and_undo(&mut doc, &changes);
        let count = |id: &str| {
            map.overlays
                .values()
                .filter(|l| l.contains(&Id::from(id)))
                .count()
        };
        assert_eq!((count("redoubt"), count("redoute")), (redoubts, 0));
        // A road's paths follow it, renamed or deleted.
        doc.map
            .paths
            .insert(Id::from("route"), vec!["0101 0102 0103".to_owned()]);
        let entry = OverlayType::current(&doc, "route").expect("the roads");
        let changes = put_entry(&doc, "road", entry, Some("route"));
        let map = apply_and_undo(&mut doc, &changes);
        assert_eq!(map.paths[&Id::from("road")], ["0101 0102 0103"]);
        assert!(!map.paths.contains_key(&Id::from("route")));
        let changes = delete_entry::<OverlayType>(&doc, "route", None);
        let map = apply_and_undo(&mut doc, &changes);
        assert!(map.paths.is_empty());
        let river = doc.hexes_with_code('~').len();
        assert!(river > 5);
        let entry = TerrainType::current(&doc, "~").expect("the Escaut");
        let changes = put_entry(&doc, "r", entry, Some("~"));
        let map = apply_and_undo(&mut doc, &changes);
        let codes = map.rows.concat();
        let before = doc.map.rows.concat();
        assert_eq!(
            codes.matches('r').count(),
            before.matches('r').count() + river
        );
        assert!(!codes.contains('~'));
    }

    #[test]
    fn a_deleted_entry_gives_its_uses_to_the_replacement_or_removes_them() {
        let mut doc = denain();
        let line = doc.map.hexsides[&Id::from("lignes-de-marchiennes-route")].clone();
        let changes = delete_entry::<HexsideType>(
            &doc,
            "lignes-de-marchiennes-route",
            Some("lignes-de-marchiennes"),
        );
        let map = apply_and_undo(&mut doc, &changes);
        assert!(
            !map.hexside_types
                .contains_key("lignes-de-marchiennes-route")
        );
        let lines = &map.hexsides[&Id::from("lignes-de-marchiennes")];
        assert!(line.iter().all(|side| lines.contains(side)));
        // Without a replacement, the redoubts go from every hex.
        let changes = delete_entry::<OverlayType>(&doc, "redoute", None);
        let map = apply_and_undo(&mut doc, &changes);
        assert!(
            !map.overlays
                .values()
                .any(|l| l.contains(&Id::from("redoute")))
        );
        assert!(!map.overlay_types.contains_key("redoute"));
        // An edit in place keeps the key and records what it was.
        let mut entry = TerrainType::current(&doc, "f").expect("forest");
        entry.name = "Bois".into();
        let changes = put_entry(&doc, "f", entry.clone(), None);
        assert_eq!(changes.len(), 1);
        let map = apply_and_undo(&mut doc, &changes);
        assert_eq!(map.terrain["f"], entry);
    }
}
