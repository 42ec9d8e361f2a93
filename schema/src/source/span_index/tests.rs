//! The scanner against the oracle it replaced (ron's own parser on every value): every RON
//! file of the repository, every kind of RON value, and broken text (no panic, no hang).

/// The index as it was built before the one-pass scanner: ron's own parser re-run on every
/// value (`RawValue`), depth × size. Kept as the oracle the scanner is compared with.
#[cfg(test)]
mod oracle {
    use std::collections::HashSet;
    use std::fmt;
    use std::ops::Range;

    use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

    use super::super::{SpanIndex, push_pointer, skip_blanks};

    pub fn walk(text: &str, wanted: Option<&HashSet<String>>) -> SpanIndex {
        let mut index = SpanIndex::default();
        index.spans.insert(String::new(), 0..text.len());
        let options = crate::io::ron_options();
        let result = options.from_str_seed(
            text,
            Walker {
                whole: text,
                pointer: String::new(),
                index: &mut index,
                wanted,
            },
        );
        drop(result);
        index
    }

    struct Walker<'i, 'a> {
        whole: &'a str,
        pointer: String,
        index: &'i mut SpanIndex,
        /// Only these pointers are indexed (and only they are descended into); `None`: all.
        wanted: Option<&'i HashSet<String>>,
    }

    /// The span of a raw value inside the whole text, with leading blanks and comments skipped.
    fn span_in(whole: &str, raw: &str) -> Range<usize> {
        let start = (raw.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize);
        let skipped = skip_blanks(raw);
        let trimmed = raw[skipped..].trim_end();
        let start = (start + skipped).min(whole.len());
        start..(start + trimmed.len()).min(whole.len())
    }

    impl<'de, 'i, 'a> DeserializeSeed<'de> for Walker<'i, 'a>
    where
        'de: 'a,
    {
        type Value = ();

        fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }
    }

    impl<'de, 'i, 'a> Walker<'i, 'a> {
        fn wants(&self, pointer: &str) -> bool {
            self.wanted.is_none_or(|wanted| wanted.contains(pointer))
        }

        fn descend(&mut self, pointer: String, raw: &'de ron::value::RawValue) {
            if !self.wants(&pointer) {
                return;
            }
            let span = span_in(self.whole, raw.get_ron());
            self.index.spans.insert(pointer.clone(), span);
            let text = raw.get_ron();
            // Only structures hold further values worth indexing.
            let body = text[skip_blanks(text)..].trim_start();
            let first = body.chars().next().unwrap_or(' ');
            // An enum variant with content (`Free(zone: "a")`, `Hex("1518")`) is one level deeper
            // in JSON (`{"Free": {"zone": "a"}}`): index it under the variant's name too.
            let ident: String = body
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let pointer = if !ident.is_empty()
                && ident != "Some"
                && body[ident.len()..].trim_start().starts_with('(')
            {
                // The variant's content: what lies between its parentheses.
                let open = text.find('(').map_or(0, |i| i + 1);
                let close = text.rfind(')').unwrap_or(text.len()).max(open);
                let span = span_in(self.whole, &text[open..close]);
                let inner = push_pointer(&pointer, &ident);
                self.index.spans.insert(inner.clone(), span);
                inner
            } else {
                pointer
            };
            if matches!(first, '(' | '[' | '{') || first.is_alphabetic() && body.contains('(') {
                let options = crate::io::ron_options();
                let _ = options.from_str_seed(
                    text,
                    Walker {
                        whole: self.whole,
                        pointer,
                        index: self.index,
                        wanted: self.wanted,
                    },
                );
            }
        }
    }

    impl<'de, 'i, 'a> Visitor<'de> for Walker<'i, 'a>
    where
        'de: 'a,
    {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any RON value")
        }

        fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
            while let Some(name) = map.next_key::<String>()? {
                let pointer = push_pointer(&self.pointer, &name);
                let value = map.next_value::<&'de ron::value::RawValue>()?;
                self.descend(pointer, value);
            }
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
            let mut i = 0usize;
            while let Some(value) = seq.next_element::<&'de ron::value::RawValue>()? {
                let pointer = push_pointer(&self.pointer, &i.to_string());
                self.descend(pointer, value);
                i += 1;
            }
            Ok(())
        }

        fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }

        fn visit_newtype_struct<D: serde::Deserializer<'de>>(
            self,
            deserializer: D,
        ) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }

        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_i128<E>(self, _: i128) -> Result<(), E> {
            Ok(())
        }
        fn visit_u128<E>(self, _: u128) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_char<E>(self, _: char) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_none<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_bytes<E>(self, _: &[u8]) -> Result<(), E> {
            Ok(())
        }
    }
}

#[cfg(test)]
mod scan_tests {
    use std::path::{Path, PathBuf};

    use super::super::SpanIndex;
    use super::oracle;

    fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    ron_files(&path, out);
                }
            } else if name.ends_with(".ron") {
                out.push(path);
            }
        }
    }

    fn sorted(index: &SpanIndex) -> Vec<(String, std::ops::Range<usize>)> {
        let mut spans: Vec<_> = index
            .spans
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        spans.sort_by(|a, b| a.0.cmp(&b.0));
        spans
    }

    #[track_caller]
    fn same_as_the_oracle(text: &str) {
        let scanned = SpanIndex::build(text);
        let oracle = oracle::walk(text, None);
        assert_eq!(sorted(&scanned), sorted(&oracle), "index of {text:?}");
        // A few wanted pointers: the same answers as the whole index.
        let pointers: Vec<&str> = oracle.pointers().step_by(7).collect();
        let some = SpanIndex::build_for(text, pointers.iter().copied());
        let some_oracle = oracle::walk(
            text,
            Some(
                &pointers
                    .iter()
                    .flat_map(|p| {
                        let mut all = vec![p.to_string()];
                        let mut q = *p;
                        while let Some(cut) = q.rfind('/') {
                            q = &q[..cut];
                            all.push(q.to_owned());
                        }
                        all
                    })
                    .collect(),
            ),
        );
        assert_eq!(
            sorted(&some),
            sorted(&some_oracle),
            "index for {pointers:?}"
        );
        for p in pointers {
            assert_eq!(some.resolve(p), scanned.resolve(p), "{p}");
        }
    }

    #[test]
    fn the_scanner_indexes_every_file_of_the_repository_as_ron_does() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        ron_files(&root, &mut files);
        assert!(files.len() > 50, "{} files", files.len());
        let mut compared = 0;
        for file in files {
            // Files that are not UTF-8 are fixtures of that error.
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let text = text.trim_start_matches('\u{feff}');
            // Only texts that ron reads (others are syntax-error fixtures).
            let parsed: Result<ron::Value, _> = crate::io::ron_options().from_str(text);
            if parsed.is_err() {
                continue;
            }
            same_as_the_oracle(text);
            compared += 1;
        }
        assert!(compared > 50, "{compared} compared");
    }

    #[test]
    fn the_scanner_follows_every_kind_of_ron_value() {
        for text in [
            "Scenario(a: Hex(\"1518\"), b: (1), c: Foo(1, 2), d: Some(Hex(\"x\")), e: {\"k\": 1, \"a/b\": [3], \"t~\": 2}, f: [1,2], g: (x: 1), h: Some((x: 1)), i: Free(zone: \"z\"), j: Some(5), k: Bar, l: (1, (y: 2)), m: Baz((q: 1)), n: Foo(1, 2) /* c */ , o: // hi\n 4, p: [], q: Foo(), r: ())",
            "Scenario(r#a: 1, b: r#Foo(x: 1), c: {\"a\\\"b\": 1, \"\\u{e9}\": 2, r\"raw\": 3, r#\"r\"aw\"#: 4})",
            "#![enable(implicit_some)]\nScenario(a: 1)",
            "Scenario(a: [1,2,],)",
            "Scenario(a: (b: 1,), c: 0x1F, d: -inf, e: 'x', f: b\"x(\", g: (1, 2,), h: '\\'', i: \"(\\\"\", j: 1.5e-3, k: NaN)",
            "Scenario(a: {1: (x: 2), \"b\": 3}, c: {\"d\": 4})",
            "Scenario(a: Some((x: 1),), b: Some(Some(3)), c: [Hex(\"a\"), Free(zone: \"z\")])",
            "Map(\n  // the legend\n  legend: {\n    \"c\": (name: \"Clear\", colour: \"#fff\"), // clear\n  },\n  rows: [\"cc\", \"cé\"],\n)\n",
            "Scenario(a: \"é\", b: 1)",
        ] {
            let parsed: Result<ron::Value, _> = crate::io::ron_options().from_str(text);
            assert!(parsed.is_ok(), "{text}: {parsed:?}");
            same_as_the_oracle(text);
        }
    }

    #[test]
    fn broken_text_neither_panics_nor_hangs() {
        let text = "Scenario(a: [1, (b: \"x\", c: {\"k\": r#\"y\"#}), /* z */ Hex(\"0101\")], d: 'q', e: b\"w\")";
        for cut in 0..=text.len() {
            let _ = SpanIndex::build(&text[..cut]);
        }
        for bad in [
            "Scenario(a: /* open",
            "(((((",
            "Scenario(a: \"open",
            "Scenario(a: r##\"x\"#)",
            "Scenario(a: 'x",
            "{\"a\": }",
            "Scenario(a: Some(1 2))",
            "Scenario(a: ~)",
        ] {
            let _ = SpanIndex::build(bad);
        }
        let deep = "[".repeat(10_000);
        assert!(!SpanIndex::build(&deep).is_empty());
    }
}
