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
/// symbolic link is written through: its target is replaced, the link stays.
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
    let target = follow_links(path)?;
    let old = match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_file() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("it is {}, not a regular file", kind_of(&meta)),
            ));
        }
        Ok(meta) => Some(meta),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(error),
    };
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // A new file gets the usual rw-rw-rw- less the umask; an old file's mode is set below.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // Dropping the temporary file (every early return below) deletes it.
    let mut temporary = builder.tempfile_in(dir)?;
    temporary.write_all(text)?;
    if let Some(old) = &old {
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
    temporary.as_file().sync_all()?;
    temporary.persist(&target).map_err(|error| error.error)?;
    Ok(())
}

/// Where a scenario's `map:` may point: inside a root folder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapPathError {
    #[error("the map path is empty")]
    Empty,
    #[error("the map path is absolute; write it relative to the scenario's folder")]
    Absolute,
    #[error(
        "the map path leads outside {} (the root: the scenario's repository, or the folder above the scenario's; `--root` sets another)",
        root.display()
    )]
    OutsideRoot { root: PathBuf },
}

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

/// The path of a scenario's map (its `map:` relative to the scenario's folder), refused when
/// absolute or when it leads, after following links, outside `root` (default:
/// [`default_root`]). A map that does not exist is judged by its path as written.
pub fn resolve_map(
    scenario_path: &Path,
    map: &str,
    root: Option<&Path>,
) -> Result<PathBuf, MapPathError> {
    if map.is_empty() {
        return Err(MapPathError::Empty);
    }
    let written = Path::new(map);
    if written.is_absolute() || written.has_root() {
        return Err(MapPathError::Absolute);
    }
    let joined = scenario_path
        .parent()
        .unwrap_or_else(|| Path::new(""))
        .join(written);
    let root = match root {
        Some(root) => absolute(root),
        None => default_root(scenario_path),
    };
    let real = absolute(&joined);
    if !real.starts_with(&root) {
        return Err(MapPathError::OutsideRoot { root });
    }
    Ok(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_folder_and_reads_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_limited(dir.path(), 10),
            Err(ReadError::NotRegular("a folder"))
        ));
        let file = dir.path().join("a.ron");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_limited(&file, 10).unwrap().len(), 10);
        assert!(matches!(
            read_limited(&file, 9),
            Err(ReadError::TooLarge { bytes: 10, .. })
        ));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn reads_no_more_than_the_limit_from_a_device() {
        assert!(matches!(
            read_limited(Path::new("/dev/zero"), 10),
            Err(ReadError::NotRegular("a character device"))
        ));
        // /proc files report 0 bytes: the limit holds on what is read.
        let read = read_limited(Path::new("/proc/self/maps"), 3);
        assert!(matches!(read, Err(ReadError::TooLarge { bytes: 4, .. })));
    }

    #[test]
    fn maps_stay_under_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("scenarios")).unwrap();
        let scenario = root.join("scenarios/s.ron");
        assert!(resolve_map(&scenario, "../maps/m.ron", Some(root)).is_ok());
        assert_eq!(
            resolve_map(&scenario, "/etc/passwd", Some(root)),
            Err(MapPathError::Absolute)
        );
        assert!(matches!(
            resolve_map(&scenario, "../../etc/passwd", Some(root)),
            Err(MapPathError::OutsideRoot { .. })
        ));
        // With no repository, the folder above the scenario's is the root.
        assert!(resolve_map(&scenario, "../maps/m.ron", None).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn writes_through_links_and_keeps_the_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.ron");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.ron");
        std::os::unix::fs::symlink("target.ron", &link).unwrap();
        write_atomic_limited(&link, "new", 100).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert!(write_atomic_limited(&target, "too long", 3).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file is left behind");
    }
}
