//! The one way every crate reads and writes user files: only regular files are read (a FIFO,
//! device, socket or folder is refused before a byte is read, and opening never blocks), never
//! more than the caller's limit + 1 byte; writes go to an exclusive, randomly named temporary
//! file beside the target (through symbolic links), keep the target's permissions and owner, and
//! are renamed over it. A scenario's `map:` is confined to a root folder ([`resolve_map`]).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Component, Path, PathBuf};

/// Why a file's bytes were not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Missing, no permission, an I/O failure.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file: what it is instead ("a FIFO (named pipe)", "a folder", ...).
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// Larger than the limit: its size as far as known (at least `limit + 1`).
    #[error("it is {bytes} bytes or more; the largest accepted is {limit} bytes")]
    TooLarge { bytes: u64, limit: u64 },
}

impl ReadError {
    /// The error as an `std::io::Error` (for callers whose errors are I/O errors).
    pub fn into_io(self) -> std::io::Error {
        match self {
            ReadError::Io(error) => error,
            ReadError::NotRegular(_) => {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, self.to_string())
            }
            ReadError::TooLarge { .. } => {
                std::io::Error::new(std::io::ErrorKind::FileTooLarge, self.to_string())
            }
        }
    }
}

/// What a non-regular file is, in words.
pub fn kind_of(meta: &Metadata) -> &'static str {
    let file_type = meta.file_type();
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens a regular file for reading without blocking (a FIFO with no writer would block a plain
/// open forever): opened non-blocking, then its type checked on the open handle, so it cannot
/// be swapped between the check and the read. Symbolic links are followed.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    Ok((file, meta)) // O_NONBLOCK changes nothing for a regular file's reads.
}

/// Reads a regular file's bytes, at most `limit`: the limit is enforced on what is read, not
/// only on the size the file system reports (which is 0 for `/proc` files), so at most
/// `limit + 1` bytes are ever read.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_regular(path)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            bytes: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            bytes: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Reads a regular file as UTF-8 text, at most `limit` bytes.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, ReadError> {
    let bytes = read_limited(path, limit)?;
    String::from_utf8(bytes).map_err(|_| {
        ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the file is not UTF-8 text",
        ))
    })
}

/// The file a path finally names, following symbolic links (up to 40, as the kernel does), each
/// relative to the folder of the link; the path itself when it is not a link. A link to a
/// missing file gives the missing file's path (a write creates it).
pub fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// Writes text to a file atomically, refusing text over `limit` bytes (so nothing is written
/// that the readers would refuse). The text goes to a temporary file created exclusively with a
/// random name beside the file (never a predictable name a link could be planted at), is
/// flushed, given the old file's permissions and (where the process may) owner, and renamed
/// over the file; on any failure the temporary file is removed and the file is untouched. A
/// symbolic link is written through: its target is replaced, the link stays (inside a
/// repository, only when the target is in it too).
pub fn write_atomic_limited(path: &Path, text: &str, limit: u64) -> std::io::Result<()> {
    write_atomic_bytes(path, text.as_bytes(), limit)
}

/// [`write_atomic_limited`] for bytes (a PNG, say).
pub fn write_atomic_bytes(path: &Path, text: &[u8], limit: u64) -> std::io::Result<()> {
    if text.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "the text is {} bytes; the largest file the readers accept is {limit} bytes, so it is not written",
                text.len()
            ),
        ));
    }
    let mut outputs = Outputs::new();
    outputs
        .stage(path, text)
        .and_then(|()| outputs.commit())
        .map_err(WriteError::into_io)
}

/// Why an output was not written. Whatever the reason, the file that was there is untouched.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("cannot write {}: {source}", crate::source::display_path(path))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "will not write {}: the command reads that file (choose another output)",
        crate::source::display_path(path)
    )]
    WouldOverwriteInput { path: PathBuf },
    #[error(
        "will not write {} twice: two outputs of this command have that name",
        crate::source::display_path(path)
    )]
    Twice { path: PathBuf },
    #[error(
        "cannot write {}: it is {kind}, not a regular file",
        crate::source::display_path(path)
    )]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error(
        "will not write {}: it leads (through a link) outside its repository {}; write to a file inside it, or remove the link",
        crate::source::display_path(path),
        crate::source::display_path(root)
    )]
    OutsideRepository { path: PathBuf, root: PathBuf },
    #[error(
        "will not write {}: it is a {kind} file, and this output is not one (choose another output)",
        crate::source::display_path(path)
    )]
    WouldReplaceDocument { path: PathBuf, kind: &'static str },
}

impl WriteError {
    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            WriteError::Io { path, .. }
            | WriteError::WouldOverwriteInput { path }
            | WriteError::Twice { path }
            | WriteError::NotRegular { path, .. }
            | WriteError::OutsideRepository { path, .. }
            | WriteError::WouldReplaceDocument { path, .. } => path,
        }
    }

    /// As an `std::io::Error` (for callers whose errors are I/O errors), saying why without
    /// the path, as the I/O error does: the caller names the file (`fmt` said "cannot write
    /// X: will not write X: …").
    pub fn into_io(self) -> std::io::Error {
        let reason = match self {
            WriteError::Io { source, .. } => return source,
            WriteError::WouldOverwriteInput { .. } => {
                "the command reads that file (choose another output)".to_owned()
            }
            WriteError::Twice { .. } => "two outputs of this command have that name".to_owned(),
            WriteError::NotRegular { kind, .. } => format!("it is {kind}, not a regular file"),
            WriteError::OutsideRepository { root, .. } => format!(
                "it leads (through a link) outside its repository {}; write to a file inside it, or remove the link",
                crate::source::display_path(&root)
            ),
            WriteError::WouldReplaceDocument { kind, .. } => {
                format!("it is a {kind} file, and this output is not one (choose another output)")
            }
        };
        std::io::Error::new(std::io::ErrorKind::InvalidInput, reason)
    }
}

/// What identifies a file: its device and inode when it exists (so a hard link or another
/// spelling of the same file is the same file), its real path always.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileKey {
    real: PathBuf,
    inode: Option<(u64, u64)>,
}

impl FileKey {
    fn of(path: &Path) -> FileKey {
        let target = follow_links(path).unwrap_or_else(|_| path.to_path_buf());
        #[cfg(unix)]
        let inode = std::fs::metadata(&target).ok().map(|meta| {
            use std::os::unix::fs::MetadataExt as _;
            (meta.dev(), meta.ino())
        });
        #[cfg(not(unix))]
        let inode = None;
        FileKey {
            real: absolute(&target),
            inode,
        }
    }

    fn same(&self, other: &FileKey) -> bool {
        self.real == other.real || (self.inode.is_some() && self.inode == other.inode)
    }
}

struct Staged {
    shown: PathBuf,
    target: PathBuf,
    temporary: tempfile::NamedTempFile,
}

/// The one door out: every file a command writes. Each output is staged in an exclusive,
/// randomly named temporary file beside its target (through symbolic links), flushed to disk
/// with the old file's permissions and (where allowed) owner, and only when every output of
/// the command is staged are they renamed over their targets: a failure at any point (a full
/// disk, a folder that cannot be written) leaves every previous output as it was and no
/// temporary file behind. An output that is a file the command reads ([`Outputs::guard`]),
/// or that another output of the same command already names, or that lies in a repository
/// but leads outside it (through a link, of the file or of a folder on its way), or that is a
/// document (map, scenario, system, variant) the output is not a document of the same kind
/// to replace, is refused before anything is written.
///
/// ```
/// # let dir = tempfile::tempdir().unwrap();
/// use bataille_schema::files::Outputs;
/// let input = dir.path().join("scenario.ron");
/// std::fs::write(&input, "Scenario()").unwrap();
/// let mut outputs = Outputs::guarding([&input]);
/// assert!(outputs.stage(&input, b"a zip").is_err()); // never over what the command reads
/// outputs.stage(&dir.path().join("battle.vmod"), b"a zip").unwrap();
/// outputs.commit().unwrap();
/// assert_eq!(std::fs::read_to_string(&input).unwrap(), "Scenario()");
/// ```
#[derive(Default)]
pub struct Outputs {
    inputs: Vec<FileKey>,
    staged: Vec<(FileKey, Staged)>,
}

impl Outputs {
    /// No output yet, nothing guarded.
    pub fn new() -> Self {
        Self::default()
    }

    /// Guards the files a command reads: none of them is ever written over.
    pub fn guarding<P: AsRef<Path>>(inputs: impl IntoIterator<Item = P>) -> Self {
        let mut outputs = Self::new();
        for input in inputs {
            outputs.guard(input.as_ref());
        }
        outputs
    }

    /// Guards one more file the command reads.
    pub fn guard(&mut self, input: &Path) {
        self.inputs.push(FileKey::of(input));
    }

    /// Whether `path` may be written, by the checks [`Outputs::stage`] makes: for a command
    /// to refuse its outputs before its work, when it cannot begin them yet.
    pub fn admits(&self, path: &Path) -> Result<(), WriteError> {
        self.check(path).map(|_| ())
    }

    /// Writes `bytes` into a temporary file beside `path` (renamed over it by
    /// [`Outputs::commit`]).
    pub fn stage(&mut self, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        let mut staging = self.begin(path)?;
        staging.write_all(bytes).map_err(|source| WriteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        staging.finish().map(|_| ())
    }

    /// The checks before an output is staged (never over an input, not twice, no link leading
    /// out of its repository, a regular file): where it goes, and what is there now.
    fn check(&self, path: &Path) -> Result<(FileKey, PathBuf, Option<Metadata>), WriteError> {
        let io = |source| WriteError::Io {
            path: path.to_path_buf(),
            source,
        };
        let key = FileKey::of(path);
        if self.inputs.iter().any(|input| input.same(&key)) {
            return Err(WriteError::WouldOverwriteInput {
                path: path.to_path_buf(),
            });
        }
        if self.staged.iter().any(|(other, _)| other.same(&key)) {
            return Err(WriteError::Twice {
                path: path.to_path_buf(),
            });
        }
        let target = follow_links(path).map_err(io)?;
        // A link planted in a stranger's pull request (the output, or a folder on its way,
        // leading to `~/.bashrc` or another checkout) is not written through.
        if let Some(root) = repository_of(path)
            && !absolute(&target).starts_with(&root)
        {
            return Err(WriteError::OutsideRepository {
                path: path.to_path_buf(),
                root,
            });
        }
        let old = match std::fs::metadata(&target) {
            Ok(meta) if !meta.is_file() => {
                return Err(WriteError::NotRegular {
                    path: path.to_path_buf(),
                    kind: kind_of(&meta),
                });
            }
            Ok(meta) => Some(meta),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(io(error)),
        };
        Ok((key, target, old))
    }

    /// Renames every staged output over its target.
    pub fn commit(self) -> Result<(), WriteError> {
        for (_, staged) in self.staged {
            staged
                .temporary
                .persist(&staged.target)
                .map_err(|error| WriteError::Io {
                    path: staged.shown,
                    source: error.error,
                })?;
        }
        Ok(())
    }
}

/// A written temporary file given the old file's mode and owner, and flushed to disk.
fn settle(temporary: &tempfile::NamedTempFile, old: Option<&Metadata>) -> std::io::Result<()> {
    if let Some(old) = old {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            // Keep the owner where allowed (root, or a group the user is in); not an error
            // otherwise, as any editor that saves by renaming does.
            let _ =
                std::os::unix::fs::fchown(temporary.as_file(), Some(old.uid()), Some(old.gid()));
        }
        temporary.as_file().set_permissions(old.permissions())?;
    }
    temporary.as_file().sync_all()
}

/// Where a file a document names (a scenario's `map:`, its systems' `file`, a map's
/// `background.image`) may point: relative to the naming file's folder, inside a root folder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapPathError {
    #[error("the path is empty")]
    Empty,
    #[error("the path is absolute; write it relative to the folder of the file that names it")]
    Absolute,
    #[error(
        "the path leads outside {} (the root: the repository of the file named on the command line, or the folder above that file's; `--root` sets another)",
        root.display()
    )]
    OutsideRoot { root: PathBuf },
}

/// The error of a reference from one document to another file: [`MapPathError`] (its first
/// use) under its general name.
pub type ReferenceError = MapPathError;

/// Removes `.` and `name/..` from a path without touching the file system.
pub fn clean_path(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// The real path of a path: links followed for the part that exists, the rest appended as
/// written (so a missing file is judged by where it would be).
fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let lexical = std::path::absolute(path)
        .map(|p| clean_path(&p))
        .unwrap_or_else(|_| path.to_path_buf());
    for ancestor in lexical.ancestors() {
        if let Ok(real) = std::fs::canonicalize(ancestor) {
            let rest = lexical.strip_prefix(ancestor).unwrap_or(Path::new(""));
            return clean_path(&real.join(rest));
        }
    }
    lexical
}

/// The kind of document `bytes` begin (`Map(`, `Scenario(`, `System(`, `Variant(` after
/// blanks and comments), judged on their first 64 KiB.
fn document_kind(bytes: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(64 << 10)]);
    let (_, name) = crate::source::leading_name(text.trim_start_matches('\u{feff}'));
    match name {
        "Map" => Some("map"),
        "Scenario" => Some("scenario"),
        "System" => Some("miniatures system"),
        "Variant" => Some("scenario variant"),
        _ => None,
    }
}

/// The kind of document an existing file is, from its first 64 KiB (a regular file only):
/// `"map"`, `"scenario"`, `"miniatures system"`, `"scenario variant"`.
pub fn existing_document(path: &Path) -> Option<&'static str> {
    let (Head::Kind(kind), _) = document_head(path)? else {
        return None;
    };
    Some(kind)
}

/// What the first 64 KiB of an existing file say of the document it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    Kind(&'static str), // `Other`: no document
    /// Only blanks and comments, and more after them (a long licence before the name).
    Undecided,
    Other,
}

/// [`existing_document`] telling only comments (`Undecided`) from no document; and the size.
pub fn document_head(path: &Path) -> Option<(Head, u64)> {
    const HEAD: u64 = 64 << 10;
    let (file, meta) = open_regular(path).ok()?;
    let mut head = Vec::with_capacity(HEAD as usize);
    file.take(HEAD).read_to_end(&mut head).ok()?;
    let blanks_to_the_end = || {
        let text = String::from_utf8_lossy(&head);
        let text = text.trim_start_matches('\u{feff}'); // a `//` cut in two leaves a `/`:
        text.len() - crate::source::skip_blanks(text) <= 1
    };
    Some(match document_kind(&head) {
        Some(kind) => (Head::Kind(kind), meta.len()),
        None if meta.len() > HEAD && blanks_to_the_end() => (Head::Undecided, meta.len()),
        None => (Head::Other, meta.len()),
    })
}

/// The repository an output path lies in as written: the nearest folder above it holding
/// `.git` that is not itself a link (a folder link is what it is checked against), as a real
/// path; `None` outside any repository (then links are written through wherever they lead).
fn repository_of(path: &Path) -> Option<PathBuf> {
    let lexical = clean_path(&std::path::absolute(path).ok()?);
    lexical
        .ancestors()
        .skip(1)
        .filter(|a| std::fs::symlink_metadata(a).is_ok_and(|m| !m.file_type().is_symlink()))
        .find(|a| a.join(".git").exists())
        .map(absolute)
}

/// The default root of a scenario's map: the nearest folder above the scenario holding `.git`
/// (its repository); with none, the folder above the scenario's folder (the usual
/// `scenarios/` beside `maps/` layout).
pub fn default_root(scenario_path: &Path) -> PathBuf {
    let dir = absolute(scenario_path.parent().unwrap_or(Path::new("")));
    if let Some(repository) = dir.ancestors().find(|a| a.join(".git").exists()) {
        return repository.to_path_buf();
    }
    dir.parent().map_or(dir.clone(), Path::to_path_buf)
}

/// The path of a scenario's map (its `map:` relative to the scenario's folder): see
/// [`resolve_reference`].
pub fn resolve_map(
    scenario_path: &Path,
    map: &str,
    root: Option<&Path>,
) -> Result<PathBuf, MapPathError> {
    resolve_reference(scenario_path, map, root)
}

/// The path of a file that the document `from` names as `written` (relative to `from`'s
/// folder), refused when empty, absolute, or leading, after following links, outside `root`
/// (default: [`default_root`] of `from`). A file that does not exist is judged by its path as
/// written. The path is not read here: the bounded reader ([`read_limited`], [`open_regular`])
/// then refuses anything but a regular file.
pub fn resolve_reference(
    from: &Path,
    written: &str,
    root: Option<&Path>,
) -> Result<PathBuf, ReferenceError> {
    if written.is_empty() {
        return Err(MapPathError::Empty);
    }
    let path = Path::new(written);
    if path.is_absolute() || path.has_root() || written.starts_with(['/', '\\']) {
        return Err(MapPathError::Absolute);
    }
    let joined = from.parent().unwrap_or_else(|| Path::new("")).join(path);
    let root = match root {
        Some(root) => absolute(root),
        None => default_root(from),
    };
    let real = absolute(&joined);
    if !real.starts_with(&root) {
        return Err(MapPathError::OutsideRoot { root });
    }
    Ok(joined)
}

mod folders;
mod staging;
pub use folders::create_output_folder;
use folders::temporary_beside;
pub use staging::Staging;

#[cfg(test)]
mod tests;
