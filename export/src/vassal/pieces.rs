//! VASSAL's pieces as text: the `SequenceEncoder`, the traits of a counter (its front, the
//! flip layer, the rotator, "Eliminate"), a piece's definition and its AddPiece command.

/// VASSAL's `SequenceEncoder`: tokens joined by a delimiter, a backslash before a delimiter
/// inside a token, a token that starts with a backslash (or is quoted) wrapped in quotes.
#[derive(Debug, Clone)]
pub struct SequenceEncoder {
    delim: char,
    buffer: Option<String>,
}

impl SequenceEncoder {
    pub fn new(delim: char) -> Self {
        Self {
            delim,
            buffer: None,
        }
    }

    /// Starts with a first token taken as it is (VASSAL's `new SequenceEncoder(value, delim)`).
    pub fn with(value: &str, delim: char) -> Self {
        Self {
            delim,
            buffer: Some(value.to_owned()),
        }
    }

    pub fn append(mut self, token: &str) -> Self {
        let buffer = match &mut self.buffer {
            Some(buffer) => {
                buffer.push(self.delim);
                buffer
            }
            None => self.buffer.insert(String::new()),
        };
        if token.is_empty() {
            return self;
        }
        let quote = token.starts_with('\\')
            || (token.len() > 1 && token.starts_with('\'') && token.ends_with('\''));
        if quote {
            buffer.push('\'');
        }
        for c in token.chars() {
            if c == self.delim {
                buffer.push('\\');
            }
            buffer.push(c);
        }
        if quote {
            buffer.push('\'');
        }
        self
    }

    pub fn value(self) -> String {
        self.buffer.unwrap_or_default()
    }
}

pub(super) fn seq(delim: char, tokens: &[&str]) -> String {
    tokens
        .iter()
        .fold(SequenceEncoder::new(delim), |se, t| se.append(t))
        .value()
}

/// The `BasicPiece` type: `piece;` clone key, delete key, image, name.
pub(super) fn basic_type(image: &str, name: &str) -> String {
    format!("piece;{}", seq(';', &["", "", image, name]))
}

/// An `Embellishment` (layer) of one level, off at the start, turned on and off with Ctrl+F:
/// the counter's other side drawn over it.
pub(super) fn flip_layer_type(back_image: &str, layer: &str) -> String {
    let tokens = [
        "Flip",  // activate command
        "130",   // activate modifiers (unused from version 1)
        "F",     // activate key (unused from version 1)
        "",      // up command
        "130",   // up modifiers
        "",      // up key
        "",      // down command
        "130",   // down modifiers
        "",      // down key
        "",      // reset command
        "",      // reset key
        "1",     // reset level
        "false", // draw underneath when selected
        "0",     // x offset
        "0",     // y offset
        back_image, "",       // level names
        "true",   // loop levels
        layer,    // name
        "",       // random key
        "",       // random text
        "false",  // follow property
        "",       // property name
        "1",      // first level value
        "1",      // version
        "false",  // always active
        "70,130", // activate key stroke: Ctrl+F
        "",       // increase key stroke
        "",       // decrease key stroke
        layer,    // description
        "1.0",    // scale
        "",       // only when property
        "true",   // only when state
    ];
    format!("emb2;{}", seq(';', &tokens))
}

/// A `FreeRotator` of 12 facings (30° apart), Ctrl+] clockwise and Ctrl+[ anticlockwise.
pub(super) fn rotator_type() -> String {
    let tokens = [
        "12",
        "93,130",
        "91,130",
        "Rotate clockwise",
        "Rotate anticlockwise",
        "",
        "",
        "Facing",
        "Facing",
        "",
        "",
        "",
        "true",
    ];
    format!("rotate;{}", seq(';', &tokens))
}

/// The main map's name, which a saved game's pieces name as their map.
pub(super) const MAIN_MAP: &str = "Main Map";

/// The map that eliminated counters go to (a window of its own, opened from the toolbar).
pub const DEAD_PILE: &str = "Eliminated units";
/// Where on the dead pile's board they land, pixels.
pub(super) const DEAD_PILE_SPOT: (u32, u32) = (120, 120);

/// A `SendToLocation` trait: "Eliminate" (Ctrl+E) sends the counter to the dead pile, "Return
/// to the map" (Ctrl+R) brings it back where it was (VASSAL keeps the map and point it left).
pub(super) fn dead_pile_type() -> String {
    let (x, y) = DEAD_PILE_SPOT;
    let tokens = [
        "Eliminate",         // command name
        "69,130",            // key: Ctrl+E
        DEAD_PILE,           // map (its name, as VASSAL's editor writes it)
        DEAD_PILE,           // board
        &x.to_string(),      // x
        &y.to_string(),      // y
        "Return to the map", // back command name
        "82,130",            // back key: Ctrl+R
        "0",                 // x index
        "0",                 // y index
        "1",                 // x offset
        "1",                 // y offset
        "Eliminate",         // description
        "L",                 // destination: a location on the map
        "",                  // zone
        "",                  // region
        "",                  // property filter
        "",                  // grid location
    ];
    format!("sendto;{}", seq(';', &tokens))
}

/// A piece definition as a PieceSlot holds it: the AddPiece command `+/null/TYPE/STATE`.
/// `back`: the other side's image and the layer's name; `None` for a counter with a blank
/// back (one loss eliminates it: nothing to flip to).
pub fn piece_definition(
    front: &str,
    back: Option<(&str, &str)>,
    name: &str,
    facing_index: Option<u32>,
    gpid: u32,
) -> String {
    piece_command("null", front, back, name, facing_index, gpid, None)
}

/// The AddPiece command of a piece (`+/ID/TYPE/STATE`, as a saved game holds it): the piece
/// of [`piece_definition`], with its id and, `at`, the map (its name) and the point it stands
/// on.
pub fn piece_command(
    id: &str,
    front: &str,
    back: Option<(&str, &str)>,
    name: &str,
    facing_index: Option<u32>,
    gpid: u32,
    at: Option<(&str, i64, i64)>,
) -> String {
    let (map, x, y) = at.map_or(
        ("null".to_owned(), "0".to_owned(), "0".to_owned()),
        |(m, x, y)| (m.to_owned(), x.to_string(), y.to_string()),
    );
    let basic_state = seq(';', &[&map, &x, &y, &gpid.to_string(), "0"]);
    let basic = basic_type(front, name);
    let (mut piece_type, mut state) = match back {
        Some((back, back_name)) => (
            SequenceEncoder::with(&flip_layer_type(back, back_name), '\t')
                .append(&basic)
                .value(),
            SequenceEncoder::with("-1", '\t')
                .append(&basic_state)
                .value(),
        ),
        None => (basic, basic_state),
    };
    // Outside the layer: eliminate to the dead pile and back (no map or point to go back to
    // at the start).
    piece_type = SequenceEncoder::with(&dead_pile_type(), '\t')
        .append(&piece_type)
        .value();
    state = SequenceEncoder::with(";;", '\t').append(&state).value();
    if let Some(index) = facing_index {
        piece_type = SequenceEncoder::with(&rotator_type(), '\t')
            .append(&piece_type)
            .value();
        state = SequenceEncoder::with(&index.to_string(), '\t')
            .append(&state)
            .value();
    }
    format!(
        "+/{}",
        SequenceEncoder::new('/')
            .append(id)
            .append(&piece_type)
            .append(&state)
            .value()
    )
}
