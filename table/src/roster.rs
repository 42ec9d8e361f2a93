//! Printable rosters: per army, its commanders, then each corps (brigade) with its leader and
//! its units — troop type, how many battalions, regiments or stands, bases and figures, the
//! ratings the system uses — and a box to tick for every base or stand lost. One A4 page per
//! army (more when an army needs more), as SVG pages.

use std::fmt::Write as _;

use bataille_schema::Scenario;
use bataille_schema::system::{System, TableName, Values, expand_leader, expand_unit};

use crate::svg::{esc, wrap};
use crate::{PlanError, used};

/// A4 portrait, mm.
pub const PAGE_MM: [f64; 2] = [210.0, 297.0];
const MARGIN: f64 = 12.0;
const LINE: f64 = 5.2;
/// Ratings shown in the columns (the rest in the notes column).
const SKIP: [&str; 1] = ["troop_type"];

struct Row {
    text: String,
    indent: f64,
    bold: bool,
    boxes: usize,
    notes: String,
}

/// The roster pages of every army, each an SVG document of A4 size.
pub fn roster_pages(scenario: &Scenario, system: &System) -> Result<Vec<String>, PlanError> {
    let used = used(scenario, system)?;
    let mut pages = Vec::new();
    for army in &scenario.armies {
        let mut rows = Vec::new();
        for c in &army.commanders {
            let ratings = expand_leader(&c.id, &c.name, true, used, Some(system));
            rows.push(Row {
                text: format!("Commander: {}", c.name),
                indent: 2.0,
                bold: false,
                boxes: 0,
                notes: join(&ratings, system),
            });
        }
        let mut corps_ids: Vec<Option<&bataille_schema::Id>> =
            army.corps.iter().map(|c| Some(&c.id)).collect();
        corps_ids.push(None);
        for corps_id in corps_ids {
            let members: Vec<_> = army
                .units
                .iter()
                .filter(|u| u.corps.as_ref() == corps_id)
                .collect();
            if members.is_empty() {
                continue;
            }
            // Units the system has no troop type for (baggage) are not on the roster: a
            // heading with nothing under it is left out.
            let members: Vec<_> = members
                .into_iter()
                .filter(|unit| {
                    expand_unit(army, unit, used, Some(system))
                        .text("troop_type")
                        .is_some()
                })
                .collect();
            if members.is_empty() {
                continue;
            }
            let corps = corps_id.and_then(|id| army.corps.iter().find(|c| &c.id == id));
            let title = match corps {
                Some(c) => match &c.leader {
                    Some(l) => {
                        let ratings = expand_leader(&l.id, &l.name, false, used, Some(system));
                        let r = join(&ratings, system);
                        format!(
                            "{} — {}{}",
                            c.name,
                            l.name,
                            if r.is_empty() {
                                String::new()
                            } else {
                                format!(" ({r})")
                            }
                        )
                    }
                    None => c.name.clone(),
                },
                None => "Outside the corps".to_owned(),
            };
            rows.push(Row {
                text: title,
                indent: 2.0,
                bold: true,
                boxes: 0,
                notes: String::new(),
            });
            for unit in members {
                let e = expand_unit(army, unit, used, Some(system));
                let Some(troop_id) = e.text("troop_type") else {
                    continue;
                };
                let troop = system.troop_types.get(troop_id);
                let troop_name = troop.map_or(troop_id, |t| t.name.as_str());
                let count = match (troop.and_then(|t| t.bases_per_unit), e.number("units")) {
                    (Some(_), Some(n)) => {
                        let name = troop.map_or("unit", |t| t.unit_name.as_str());
                        format!(
                            "{n} {}",
                            if n == 1 {
                                name.to_owned()
                            } else {
                                plural(name)
                            }
                        )
                    }
                    _ => {
                        let n = e.number("stands").unwrap_or(0);
                        format!("{n} {}", if n == 1 { "stand" } else { "stands" })
                    }
                };
                let bases = e
                    .number("bases")
                    .or_else(|| e.number("stands"))
                    .unwrap_or(0);
                let figures = e
                    .number("figures")
                    .map_or(String::new(), |f| format!(", {f} figures"));
                // What the tables give this unit: National Army Table line, fire points.
                let mut table_notes = Vec::new();
                if let Some(entry) = e
                    .text("nation")
                    .and_then(|n| system.national_tables.get(n))
                    .and_then(|t| t.entries.get(troop_id))
                {
                    table_notes.push(format!(
                        "{} a figure ordered, {} disordered, morale {}",
                        entry.ordered, entry.disordered, entry.morale
                    ));
                }
                if let Some(fire) = e.text("fire_type").and_then(|f| system.fire_types.get(f)) {
                    table_notes.push(format!("{} fire points a stand", fire.fire_points));
                }
                let mut ratings = e.ratings.clone();
                for k in SKIP
                    .iter()
                    .chain(["units", "stands", "bases", "figures"].iter())
                {
                    ratings.remove(*k);
                }
                rows.push(Row {
                    text: format!("{} — {troop_name}, {count}{figures}", unit.name),
                    indent: 6.0,
                    bold: false,
                    boxes: bases.clamp(0, 60) as usize,
                    notes: [join(&ratings, system)]
                        .into_iter()
                        .chain(table_notes)
                        .filter(|n| !n.is_empty())
                        .collect::<Vec<_>>()
                        .join("; "),
                });
            }
        }
        // Paginate.
        let usable = PAGE_MM[1] - 2.0 * MARGIN - 18.0;
        let mut page: Vec<&Row> = Vec::new();
        let mut height = 0.0;
        let mut army_pages = Vec::new();
        for row in &rows {
            let h = row_height(row);
            if height + h > usable && !page.is_empty() {
                army_pages.push(std::mem::take(&mut page));
                height = 0.0;
            }
            page.push(row);
            height += h;
        }
        if !page.is_empty() {
            army_pages.push(page);
        }
        let total = army_pages.len();
        for (i, page) in army_pages.into_iter().enumerate() {
            pages.push(draw_page(scenario, system, &army.name, i + 1, total, &page));
        }
    }
    Ok(pages)
}

/// Ratings as a player reads them: each rating's name in words and its value by the name the
/// system's table gives it ("fire type: Platoon fire / linear foot", not "platoon-fire").
fn join(ratings: &bataille_schema::system::Ratings, system: &System) -> String {
    ratings
        .iter()
        .map(|(k, v)| {
            let value = v.to_string();
            let table = system
                .ratings
                .get(k)
                .or_else(|| system.leader_ratings.get(k))
                .and_then(|spec| match spec.values {
                    Values::Table(table) => Some(table),
                    _ => None,
                });
            let named = match table {
                Some(TableName::TroopTypes) => {
                    system.troop_types.get(value.as_str()).map(|t| &t.name)
                }
                Some(TableName::FireTypes) => {
                    system.fire_types.get(value.as_str()).map(|t| &t.name)
                }
                Some(TableName::ArtilleryClasses) => system
                    .artillery_classes
                    .get(value.as_str())
                    .map(|t| &t.name),
                Some(TableName::CavalryTypes) => {
                    system.cavalry_types.get(value.as_str()).map(|t| &t.name)
                }
                Some(TableName::NationalTables) => {
                    system.national_tables.get(value.as_str()).map(|t| &t.name)
                }
                None => None,
            };
            let value = named.cloned().unwrap_or(value);
            format!("{}: {value}", k.as_str().replace('_', " "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// An English noun's plural ("battery" → "batteries", "battalion" → "battalions", "battery
/// group" → "battery groups"): the names of the systems' units are English.
pub(crate) fn plural(noun: &str) -> String {
    let consonant_y =
        noun.ends_with('y') && !noun[..noun.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    if consonant_y {
        format!("{}ies", &noun[..noun.len() - 1])
    } else if noun.ends_with(['s', 'x', 'z']) || noun.ends_with("ch") || noun.ends_with("sh") {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

fn note_lines(row: &Row) -> Vec<String> {
    if row.notes.is_empty() {
        Vec::new()
    } else {
        wrap(&row.notes, 95)
    }
}

fn row_height(row: &Row) -> f64 {
    let boxes_rows = row.boxes.div_ceil(30) as f64;
    LINE * (1.0 + note_lines(row).len() as f64 + boxes_rows) + 1.0
}

fn draw_page(
    scenario: &Scenario,
    system: &System,
    army: &str,
    number: usize,
    total: usize,
    rows: &[&Row],
) -> String {
    let [w, h] = PAGE_MM;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" font-family="DejaVu Sans" font-size="3.4">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{}" font-size="5" font-weight="bold">{}</text>"#,
        MARGIN + 2.0,
        esc(army)
    );
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{}" font-size="3.4">{}</text>"#,
        MARGIN + 7.0,
        esc(&scenario.title)
    );
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{}" font-size="3">Roster for {} — page {number} of {total}; tick a box for each base or stand lost</text>"#,
        MARGIN + 11.5,
        esc(&system.name)
    );
    let mut y = MARGIN + 20.0;
    for row in rows {
        let x = MARGIN + row.indent;
        let weight = if row.bold {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{y:.1}"{weight}>{}</text>"#,
            esc(&row.text)
        );
        y += LINE;
        for line in note_lines(row) {
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{y:.1}" font-size="2.9" fill="#333">{}</text>"##,
                x + 4.0,
                esc(&line)
            );
            y += LINE;
        }
        if row.boxes > 0 {
            for i in 0..row.boxes {
                let bx = x + 4.0 + (i % 30) as f64 * 5.5;
                let by = y - 3.6 + (i / 30) as f64 * LINE;
                let _ = writeln!(
                    s,
                    r##"<rect class="loss-box" x="{bx:.1}" y="{by:.1}" width="4" height="4" fill="none" stroke="#000" stroke-width="0.3"/>"##
                );
            }
            y += LINE * row.boxes.div_ceil(30) as f64;
        }
        y += 1.0;
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// The roster as one SVG document: the pages one under another (for viewing), each A4.
pub fn roster_svg(pages: &[String]) -> String {
    let [w, h] = PAGE_MM;
    let total = h * pages.len().max(1) as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{total}mm\" viewBox=\"0 0 {w} {total}\">\n"
    );
    for (i, page) in pages.iter().enumerate() {
        // Each page is an <svg> of its own, placed at its offset.
        let inner = page.replacen(
            &format!("width=\"{w}mm\" height=\"{h}mm\""),
            &format!(
                "x=\"0\" y=\"{}\" width=\"{w}\" height=\"{h}\"",
                h * i as f64
            ),
            1,
        );
        s.push_str(&inner);
    }
    s.push_str("</svg>\n");
    s
}

/// The roster as a PDF of one A4 page per SVG page, through svg2pdf.
pub fn roster_pdf(pages: &[String]) -> Result<Vec<u8>, PlanError> {
    crate::pdf_pages(pages)
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn plurals_of_the_systems_units() {
        assert_eq!(plural("battery"), "batteries");
        assert_eq!(plural("battalion"), "battalions");
        assert_eq!(plural("regiment"), "regiments");
        assert_eq!(plural("battery group"), "battery groups");
        assert_eq!(plural("day"), "days");
    }
}
