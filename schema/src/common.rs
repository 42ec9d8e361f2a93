//! Small value types shared by maps and scenarios: ids, hex names, colours, compass sides.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Longest `notes` text accepted, in characters, wherever a file has one (a map's, a
/// scenario's, a chart's, the victory's, a miniatures conversion's, a system's, a variant's):
/// the JSON Schema gives each `notes` this `maxLength`, so a longer one is refused at load with
/// its place, before a renderer, the kit or the module copies it. The longest notes in the
/// bundled battles are about 1,300 characters.
pub const MAX_NOTES_CHARS: u32 = 20_000;

/// Most entries of an `allow` list (a map's, a scenario's, a corps', a counter's, a variant
/// change's): more than there are diagnostic codes (fewer than 100, retired ones included), so
/// a list naming each code once fits, while a list of 500,000 entries (issue 19: one W0107
/// each) is refused with its place (E0105, `maxItems`).
pub const MAX_ALLOW_CODES: u32 = 128;

/// The start of the error message of a list longer than its limit (an `allow` list beyond
/// [`MAX_ALLOW_CODES`]); the loader turns it into
/// [`crate::LoadError::TooMany`], located at the first entry too many.
pub const TOO_MANY: &str = "the list holds more than ";

/// A diagnostic code as an `allow` list names it (`"W0601"`, or any text: an unknown one is
/// reported), read and written as a string: a 16-byte [`ShortStr`](crate::short::ShortStr)
/// (a code is 5 bytes, held inline). Issue 19: as a heap string a code took 56 bytes, ten
/// times the file for a file of them; as a `SmolStr`, 24 (nine units of 128 two-character
/// codes a kilobyte: a file of them peaked at 8.7 times its size).
pub type Code = crate::short::ShortStr;

/// Reads an `allow` list, refusing it at its entry past
/// [`MAX_ALLOW_CODES`]: no list of 500,000 codes is ever held
/// (issue 19: a 66 MB file of them was half a GB of strings before any check, and twice that
/// in the JSON Schema pass). `#[serde(deserialize_with = "crate::common::allow_list")]`.
pub fn allow_list<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<Code>, D::Error> {
    struct Codes;
    impl<'de> serde::de::Visitor<'de> for Codes {
        type Value = Vec<Code>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of diagnostic codes")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut access: A,
        ) -> Result<Self::Value, A::Error> {
            let max = MAX_ALLOW_CODES as usize;
            let mut codes = Vec::new();
            while let Some(code) = access.next_element::<Code>()? {
                if codes.len() == max {
                    return Err(serde::de::Error::custom(format!(
                        "{TOO_MANY}{max} codes: an `allow` list names each code at most once"
                    )));
                }
                codes.push(code);
            }
            // Moved into a list of its length, not shrunk: the allocator would keep the room
            // cut off where no later list fits (see `crate::unique::Fitted`).
            let mut fitted = Vec::with_capacity(codes.len());
            fitted.append(&mut codes);
            Ok(fitted)
        }
    }
    deserializer.deserialize_seq(Codes)
}

/// Most miniatures systems a scenario names (`miniatures`): the games have two.
pub const MAX_MINIATURES: u32 = 16;

/// The JSON Schema pattern of a hex name: column digits then row digits, with an optional
/// separator (`1518`, `015018`, `15.18`). The map's `hex_names` says which form it uses.
pub const HEX_NAME_PATTERN: &str = r"^[0-9]{2,3}[.\-]?[0-9]{2,3}$";
/// The JSON Schema pattern of a hexside reference: a hex name, `/`, a compass side (`2213/SE`).
pub const HEXSIDE_PATTERN: &str = r"^[0-9]{2,3}[.\-]?[0-9]{2,3}/(N|NE|E|SE|S|SW|W|NW)$";
/// The JSON Schema pattern of a stable id: lower-case ASCII letters, digits, `-`, `_`, `.`.
pub const ID_PATTERN: &str = r"^[a-z0-9][a-z0-9_.\-]*$";
/// The JSON Schema pattern of a colour: `#rrggbb`.
pub const COLOUR_PATTERN: &str = r"^#[0-9a-fA-F]{6}$";

macro_rules! string_newtype {
    ($(#[$meta:meta])* $name:ident, $pattern:expr, $max:expr) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
        #[serde(transparent)]
        pub struct $name(
            #[schemars(with = "String", length(min = 1, max = $max), pattern($pattern))]
            pub crate::short::ShortStr,
        );

        impl $name {
            /// The most characters the JSON Schema accepts (its `maxLength`).
            pub const MAX_CHARS: usize = $max;

            /// The text as written in the file.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// Whether the JSON Schema accepts this text: from 1 to [`Self::MAX_CHARS`]
            /// characters, matching the pattern the schema is given (the same constant,
            /// compiled once). A check that reads such a value leaves alone a text this
            /// refuses: the schema's E0105 says it, at its place, before any bound is
            /// applied (issue 19: 23 placements at `Hex("nope-x")` counted 13 E0503 that
            /// were then dropped as following from the E0105s).
            pub fn conforms(text: &str) -> bool {
                // A pattern that did not compile refuses nothing: the checks then say all
                // they see (the unit tests fail on it).
                static PATTERN: std::sync::OnceLock<Option<regex::Regex>> =
                    std::sync::OnceLock::new();
                let chars = text.chars().take($max + 1).count();
                (1..=$max).contains(&chars)
                    && PATTERN
                        .get_or_init(|| regex::Regex::new($pattern).ok())
                        .as_ref()
                        .is_none_or(|pattern| pattern.is_match(text))
            }

            /// Whether the JSON Schema refuses this value (see [`Self::conforms`]).
            pub fn is_refused(&self) -> bool {
                !Self::conforms(&self.0)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                Self(text.into())
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                Self(text.into())
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }
    };
}

string_newtype!(
    /// A stable identifier (`"aile-droite"`, `"navarre-1"`): unique in its file, never shown
    /// to players, never renamed by the editor behind the user's back.
    Id,
    ID_PATTERN,
    64
);
string_newtype!(
    /// A hex named as printed on the map (`"1518"`: column 15, row 18).
    HexName,
    HEX_NAME_PATTERN,
    7
);
string_newtype!(
    /// A hexside: a hex name and the side of that hex (`"2213/SE"`).
    HexsideRef,
    HEXSIDE_PATTERN,
    10
);
string_newtype!(
    /// A colour as `#rrggbb`.
    Colour,
    COLOUR_PATTERN,
    7
);

impl Colour {
    /// The colour's red, green and blue bytes, or `None` when it is not `#rrggbb`.
    pub fn rgb(&self) -> Option<[u8; 3]> {
        let hex = self.0.strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some([byte(0)?, byte(2)?, byte(4)?])
    }

    /// A colour from its bytes, written `#rrggbb` in lower case.
    pub fn from_rgb([r, g, b]: [u8; 3]) -> Self {
        Self(format!("#{r:02x}{g:02x}{b:02x}").into())
    }
}

/// A compass side of a hex. Flat-topped hexes have N, NE, SE, S, SW, NW; pointy-topped hexes
/// have NE, E, SE, SW, W, NW. Used for hexsides and for a unit's facing (the side its front
/// points through).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Side {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Side {
    /// Every side name, in compass order.
    pub const ALL: [Side; 8] = [
        Side::N,
        Side::NE,
        Side::E,
        Side::SE,
        Side::S,
        Side::SW,
        Side::W,
        Side::NW,
    ];

    /// The name as written in files (`"SE"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Side::N => "N",
            Side::NE => "NE",
            Side::E => "E",
            Side::SE => "SE",
            Side::S => "S",
            Side::SW => "SW",
            Side::W => "W",
            Side::NW => "NW",
        }
    }

    /// Parses a side name (`"se"` or `"SE"`).
    pub fn parse(text: &str) -> Option<Side> {
        let upper = text.to_ascii_uppercase();
        Side::ALL.into_iter().find(|side| side.as_str() == upper)
    }

    /// The nominal compass bearing of the name in degrees, clockwise from north (NE is 45).
    /// A hex side's true bearing depends on the orientation (a flat hex's NE side faces 60°):
    /// use `geometry::side_bearing` for drawing.
    pub fn bearing_degrees(self) -> f32 {
        match self {
            Side::N => 0.0,
            Side::NE => 45.0,
            Side::E => 90.0,
            Side::SE => 135.0,
            Side::S => 180.0,
            Side::SW => 225.0,
            Side::W => 270.0,
            Side::NW => 315.0,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A map edge, for the direction a side's routed units flee (Denain 12.3).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum MapEdge {
    North,
    East,
    South,
    West,
}

pub(crate) fn is_false(value: &bool) -> bool {
    !*value
}

pub(crate) fn is_zero_u8(value: &u8) -> bool {
    *value == 0
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]
mod conform_tests {
    use super::{Colour, HexName, HexsideRef, Id};

    /// What the JSON Schema of a type says of a text.
    fn schema_accepts<T: schemars::JsonSchema>(text: &str) -> bool {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
        jsonschema::validator_for(&schema)
            .unwrap()
            .is_valid(&serde_json::Value::from(text))
    }

    /// `conforms` says what the JSON Schema says, text for text: names, lengths, characters
    /// near the pattern's edges.
    #[test]
    fn conforms_agrees_with_the_json_schema() {
        let texts = [
            "",
            "1518",
            "015018",
            "15.18",
            "15-18",
            "15_18",
            "nope-x",
            "1",
            "1518/SE",
            "2213/SE",
            "2213/XX",
            "2213/",
            "22.13/NW",
            "aile-droite",
            "navarre-1",
            "Navarre",
            "-a",
            "a b",
            "#cc0000",
            "#CC00zz",
            "#cc0000\"",
            "1518\n",
            "١٥١٨",
        ];
        let long_id = "a".repeat(64);
        let too_long_id = "a".repeat(65);
        for text in texts
            .iter()
            .copied()
            .chain([long_id.as_str(), too_long_id.as_str()])
        {
            assert_eq!(
                HexName::conforms(text),
                schema_accepts::<HexName>(text),
                "hex {text:?}"
            );
            assert_eq!(
                HexsideRef::conforms(text),
                schema_accepts::<HexsideRef>(text),
                "hexside {text:?}"
            );
            assert_eq!(
                Id::conforms(text),
                schema_accepts::<Id>(text),
                "id {text:?}"
            );
            assert_eq!(
                Colour::conforms(text),
                schema_accepts::<Colour>(text),
                "colour {text:?}"
            );
        }
        assert!(HexName::conforms("1518") && !HexName::conforms("nope-x"));
        assert!(Id::from(too_long_id.as_str()).is_refused());
    }
}
