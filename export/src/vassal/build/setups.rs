//! Predefined setups: the scenario's own (the at-start stacks, as "New Game") and each
//! variant's saved game (its counters where the variant places them, stacked per hex).

use std::collections::BTreeMap;

use bataille_schema::HexIndex;
use bataille_schema::scenario::Placement;

use super::{Body, Module};
use crate::ExportError;
use crate::counters::Counter;
use crate::vassal::pieces::{MAIN_MAP, SequenceEncoder, piece_command};
use crate::vassal::{back_name, image_stem};

/// The predefined setups in the build file (none without variants), and each variant's saved
/// game (its file name in the module, its bytes).
pub(super) fn predefined_setups(
    body: &mut Body,
    m: &Module<'_>,
) -> Result<Vec<(String, Vec<u8>)>, ExportError> {
    let mut setup_files: Vec<(String, Vec<u8>)> = Vec::new();
    if m.setups.is_empty() {
        return Ok(setup_files);
    }
    body.xml.empty(
        "VASSAL.build.module.PredefinedSetup",
        &[
            ("name", m.scenario.title.clone()),
            ("description", "The published set-up".to_owned()),
            ("isMenu", "false".to_owned()),
            ("useFile", "false".to_owned()),
            ("file", String::new()),
        ],
    );
    for (n, setup) in m.setups.iter().enumerate() {
        let commands = saved_commands(body, m, n, &m.setup_counters[n]);
        let file = crate::variants::setup_file(n);
        body.xml.empty(
            "VASSAL.build.module.PredefinedSetup",
            &[
                ("name", setup.name.to_owned()),
                ("description", format!("A variant of {}", m.scenario.title)),
                ("isMenu", "false".to_owned()),
                ("useFile", "true".to_owned()),
                ("file", file.clone()),
            ],
        );
        setup_files.push((file, crate::variants::saved_game(&commands)?));
    }
    Ok(setup_files)
}

/// The commands of setup `n`'s saved game: a piece added where each counter stands, then a
/// stack per hex holding more than one.
fn saved_commands(body: &mut Body, m: &Module<'_>, n: usize, counters: &[Counter]) -> Vec<String> {
    let (grid, vg) = (&m.map.grid, m.vg);
    let mut commands = Vec::new();
    let mut stacks: BTreeMap<HexIndex, Vec<String>> = BTreeMap::new();
    for counter in counters {
        let Some(index) = counter
            .placement
            .and_then(Placement::hex)
            .and_then(|hex| grid.lookup(hex))
        else {
            continue;
        };
        let (col, row) = vg.raw(grid, index);
        let (px, py) = vg.centre(col, row);
        let gpid = body.next();
        let piece = format!("{}", 1_000_000 * (n + 1) + gpid as usize);
        let stem = m.setup_stems[n]
            .get(&counter.id)
            .cloned()
            .unwrap_or_else(|| image_stem(counter));
        let back_image = crate::image_name(&stem, &["back"]);
        commands.push(piece_command(
            &piece,
            &crate::image_name(&stem, &[]),
            counter
                .has_back()
                .then_some((back_image.as_str(), back_name(counter))),
            &counter.name,
            counter
                .facing
                .map(|bearing| ((bearing / 30.0).round() as i64).rem_euclid(12) as u32),
            gpid,
            Some((MAIN_MAP, px, py)),
        ));
        stacks.entry(index).or_default().push(piece);
    }
    for (index, pieces) in &stacks {
        if pieces.len() < 2 {
            continue;
        }
        let (col, row) = vg.raw(grid, *index);
        let (px, py) = vg.centre(col, row);
        let mut state = SequenceEncoder::new(';')
            .append(MAIN_MAP)
            .append(&px.to_string())
            .append(&py.to_string());
        for piece in pieces {
            state = state.append(piece);
        }
        let id = format!("{}", 1_000_000 * (n + 1) + body.next() as usize);
        commands.push(format!(
            "+/{}",
            SequenceEncoder::new('/')
                .append(&id)
                .append("stack")
                .append(&state.value())
                .value()
        ));
    }
    commands
}
