//! An output written as it is made ([`Outputs::begin`]): a module of a hundred megabytes goes
//! straight into its temporary file, never held whole in memory first, with every guarantee of
//! [`Outputs::stage`] (the same checks before, an exclusive temporary file, the old file's mode
//! and owner, flushed to disk, renamed only by [`Outputs::commit`]; on any failure, the
//! temporary file is removed and the file that was there is untouched).

use std::fs::Metadata;
use std::io::{BufWriter, Read as _, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::{
    FileKey, Outputs, Staged, WriteError, document_kind, existing_document, settle,
    temporary_beside,
};

/// What an output's writes go through while it is made: its temporary file (behind a buffer).
/// [`Staging::finish`] stages it; dropping it instead (an error while making the output)
/// deletes the temporary file and leaves the target as it was.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use std::io::Write as _;
/// use bataille_schema::files::Outputs;
/// let out = dir.path().join("battle.vmod");
/// std::fs::write(&out, "the old module").unwrap();
/// let mut outputs = Outputs::new();
/// let mut staging = outputs.begin(&out).unwrap();
/// staging.write_all(b"half a module").unwrap();
/// drop(staging); // making the module failed
/// assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old module");
/// let mut staging = outputs.begin(&out).unwrap();
/// staging.write_all(b"a module").unwrap();
/// assert_eq!(staging.finish().unwrap(), 8);
/// outputs.commit().unwrap();
/// assert_eq!(std::fs::read_to_string(&out).unwrap(), "a module");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
/// ```
pub struct Staging<'o> {
    outputs: &'o mut Outputs,
    key: FileKey,
    shown: PathBuf,
    target: PathBuf,
    old: Option<Metadata>,
    /// The kind of document the target is now (only a document of that kind replaces it).
    replaces: Option<&'static str>,
    file: BufWriter<tempfile::NamedTempFile>,
    /// Where the next byte goes (kept here: asking the buffer would flush it).
    position: u64,
}

/// The buffer between an output's writer and its temporary file.
const BUFFER: usize = 1 << 20;

impl Outputs {
    /// Begins an output written as it is made, after the checks [`Outputs::stage`] makes
    /// (refused before a byte is written): write it through the [`Staging`] (it is also
    /// `Seek`, for archives that patch their headers), then [`Staging::finish`].
    pub fn begin(&mut self, path: &Path) -> Result<Staging<'_>, WriteError> {
        let (key, target, old) = self.check(path)?;
        let replaces = old.as_ref().and_then(|_| existing_document(&target));
        let temporary = temporary_beside(&target).map_err(|source| WriteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Staging {
            outputs: self,
            key,
            shown: path.to_path_buf(),
            target,
            old,
            replaces,
            file: BufWriter::with_capacity(BUFFER, temporary),
            position: 0,
        })
    }
}

impl Staging<'_> {
    /// Stages what was written (renamed over the target by [`Outputs::commit`]): refused when
    /// the target is a document and this output is not one of its kind; the output's size in
    /// bytes.
    pub fn finish(self) -> Result<u64, WriteError> {
        let Staging {
            outputs,
            key,
            shown,
            target,
            old,
            replaces,
            file,
            ..
        } = self;
        let io = |source| WriteError::Io {
            path: shown.clone(),
            source,
        };
        let mut temporary = file.into_inner().map_err(|error| io(error.into_error()))?;
        let bytes = temporary.as_file().metadata().map_err(io)?.len();
        // A module, a picture or a schema never replaces a map, scenario, system or variant
        // (`--out` naming another battle's file by a slip of the completion): only a document
        // of the same kind replaces a document (fmt, the editor, digitize's map).
        if let Some(kind) = replaces {
            temporary.seek(SeekFrom::Start(0)).map_err(io)?;
            let mut head = Vec::with_capacity(64 << 10);
            temporary
                .as_file()
                .take(64 << 10)
                .read_to_end(&mut head)
                .map_err(io)?;
            if document_kind(&head) != Some(kind) {
                return Err(WriteError::WouldReplaceDocument { path: shown, kind });
            }
        }
        settle(&temporary, old.as_ref()).map_err(io)?;
        outputs.staged.push((
            key,
            Staged {
                shown,
                target,
                temporary,
            },
        ));
        Ok(bytes)
    }
}

impl Write for Staging<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.file.write(buf)?;
        self.position += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Seek for Staging<'_> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        self.position = self.file.seek(to)?;
        Ok(self.position)
    }

    fn stream_position(&mut self) -> std::io::Result<u64> {
        Ok(self.position)
    }
}
