//! Leader markers (line leaders round, commanders in chief as stars) and marker counters
//! (disorder, rout, out of command… in the rules' own words).

use tiny_skia::Transform;

use crate::drawing::{Drawing, fill, stroke};
use crate::symbols::{circle, polygon, star};
use crate::text::{Anchor, Face, TextStyle};
use crate::{luminance, opaque};

use super::{GOLD, INK, Leader, MarkerKind};

pub(crate) fn draw_leader(d: &mut Drawing, leader: &Leader, pos: [f32; 2], s: f32) {
    let t = Transform::identity();
    let ink = if luminance(leader.colour) > 0.3 {
        INK
    } else {
        [0xff, 0xff, 0xff, 0xff]
    };
    if leader.commander {
        let path = star(pos, 0.3 * s, 0.14 * s, 5);
        fill(d, path.clone(), GOLD, t);
        stroke(d, path, INK, (0.035 * s).max(0.8), t);
        fill(d, circle(pos, 0.08 * s), opaque(leader.colour), t);
    } else {
        let r = 0.2 * s;
        fill(d, circle(pos, r), opaque(leader.colour), t);
        stroke(
            d,
            circle(pos, r),
            [0xff, 0xff, 0xff, 0xff],
            (0.05 * s).max(1.0),
            t,
        );
        stroke(d, circle(pos, r + 0.03 * s), INK, (0.025 * s).max(0.6), t);
        let initial: String = leader
            .name
            .split_whitespace()
            .last()
            .and_then(|word| word.chars().next())
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_default();
        let style = TextStyle {
            face: Face::Bold,
            size_px: 0.26 * s,
            colour: ink,
            halo: None,
        };
        d.text(&initial, &style, pos, Anchor::CENTRE, t);
    }
}

/// A leader or marker as a square counter centred at the origin, `s` across.
pub(crate) fn draw_marker_counter(d: &mut Drawing, kind: &MarkerKind, s: f32, back: bool) {
    let t = Transform::identity();
    let back_face = back;
    let h = s / 2.0;
    let square = [[-h, -h], [h, -h], [h, h], [-h, h]];
    let (background, title): ([u8; 3], String) = match kind {
        MarkerKind::Leader { colour, name, .. } => (*colour, surname(name)),
        MarkerKind::Disorder if back => ([0xc0, 0x20, 0x20], "ROUT".to_owned()),
        MarkerKind::Disorder => ([0xf0, 0xc0, 0x30], "DISORDER".to_owned()),
        MarkerKind::OutOfCommand => ([0xe0, 0xe0, 0xe0], "NO CMD".to_owned()),
        MarkerKind::Turn => ([0xf7, 0xf3, 0xe8], "TURN".to_owned()),
        MarkerKind::Fired => ([0xd8, 0xd8, 0xd8], "FIRED".to_owned()),
        MarkerKind::AideDeCamp { colour, .. } => (*colour, "ADC".to_owned()),
        MarkerKind::Text { front, back } => match back {
            Some(back) if back_face => ([0xd0, 0xd0, 0xd0], back.to_uppercase()),
            _ => ([0xf7, 0xf3, 0xe8], front.to_uppercase()),
        },
    };
    let background = if back && matches!(kind, MarkerKind::Leader { .. }) {
        crate::shade(background, 0.55)
    } else {
        background
    };
    fill(d, polygon(&square), opaque(background), t);
    stroke(d, polygon(&square), INK, (0.035 * s).max(0.8), t);
    let ink = if luminance(background) > 0.3 {
        INK
    } else {
        [0xff, 0xff, 0xff, 0xff]
    };
    if let MarkerKind::Leader {
        name,
        colour,
        commander,
        activation,
    } = kind
    {
        let leader = Leader {
            name,
            colour: *colour,
            commander: *commander,
        };
        draw_leader(d, &leader, [0.0, -0.08 * s], s);
        if let Some(value) = activation {
            let style = TextStyle {
                face: Face::Bold,
                size_px: 0.22 * s,
                colour: ink,
                halo: None,
            };
            d.text(
                &value.to_string(),
                &style,
                [0.36 * s, -0.36 * s],
                Anchor::CENTRE,
                t,
            );
        }
        // The back (activated, Denain 4 C: "on retourne ensuite le ou les pions chef") is the
        // darker side: no word on it, so nothing overprints the activation value and nothing
        // is in another language than the game's.
    }
    if let MarkerKind::AideDeCamp { activation, .. } = kind {
        // The replacement bar across the top, and the activation value.
        let bar = [[-h, -h], [h, -h], [h, -0.7 * h], [-h, -0.7 * h]];
        fill(d, polygon(&bar), INK, t);
        let style = TextStyle {
            face: Face::Bold,
            size_px: 0.3 * s,
            colour: ink,
            halo: None,
        };
        d.text(
            &activation.to_string(),
            &style,
            [0.0, 0.3 * s],
            Anchor::CENTRE,
            t,
        );
    }
    // A long title of several words on two lines, in larger type than on one
    // ("HORS COMMANDEMENT").
    let lines = title_lines(&title);
    // As large as the widest line allows (its width measured, not guessed from its letters).
    let widest = lines
        .iter()
        .map(|l| crate::text::text_width(l, Face::Bold, 1.0))
        .fold(0.0f32, f32::max);
    let size = if widest > 0.0 {
        (0.84 * s / widest).min(0.2 * s)
    } else {
        0.2 * s
    };
    let style = TextStyle {
        face: Face::Bold,
        size_px: size,
        colour: ink,
        halo: None,
    };
    let y = if matches!(kind, MarkerKind::Leader { .. }) {
        0.33 * s
    } else {
        0.0
    };
    let pitch = 1.15 * size;
    let first = y - pitch * (lines.len() as f32 - 1.0) / 2.0;
    for (i, line) in lines.iter().enumerate() {
        d.text(
            line,
            &style,
            [0.0, first + pitch * i as f32],
            Anchor::CENTRE,
            t,
        );
    }
}

/// A marker's title on one line, or on two at the space that balances them best when it is
/// longer than 8 characters.
pub(super) fn title_lines(title: &str) -> Vec<String> {
    let count = title.chars().count();
    if count <= 8 || !title.contains(' ') {
        return vec![title.to_owned()];
    }
    let best = title
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| {
            let (a, b) = (&title[..i], &title[i + 1..]);
            (a.chars().count().max(b.chars().count()), i)
        })
        .min();
    match best {
        Some((_, i)) => vec![title[..i].to_owned(), title[i + 1..].to_owned()],
        None => vec![title.to_owned()],
    }
}

/// The last word of a name (`"Maréchal de Villars"` → `"Villars"`).
fn surname(name: &str) -> String {
    name.split_whitespace().last().unwrap_or(name).to_owned()
}
