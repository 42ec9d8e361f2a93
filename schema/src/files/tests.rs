//! The readers' and the writer's unit tests.

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

/// An output written as it is made: dropped half-written, the old file stays and no temporary
/// file is left; finished, it replaces the old file (seeking back to patch a header as a zip
/// does); never over a document of another kind, nor over an input.
#[test]
fn a_streamed_output_is_all_or_nothing() {
    use std::io::{Seek as _, SeekFrom};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("battle.vmod");
    std::fs::write(&out, "the old module").unwrap();
    let files = || std::fs::read_dir(dir.path()).unwrap().count();

    let mut outputs = Outputs::new();
    let mut staging = outputs.begin(&out).unwrap();
    staging.write_all(&[7u8; 3 << 20]).unwrap(); // past the buffer: on disk already
    assert_eq!(files(), 2, "the temporary file is beside the output");
    drop(staging);
    outputs.commit().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old module");
    assert_eq!(files(), 1, "no temporary file is left behind");

    let mut outputs = Outputs::new();
    let mut staging = outputs.begin(&out).unwrap();
    staging.write_all(b"HEAD body").unwrap();
    assert_eq!(staging.stream_position().unwrap(), 9);
    staging.seek(SeekFrom::Start(0)).unwrap();
    staging.write_all(b"head").unwrap();
    assert_eq!(staging.stream_position().unwrap(), 4);
    staging.seek(SeekFrom::End(0)).unwrap();
    staging.write_all(b"!").unwrap();
    assert_eq!(staging.finish().unwrap(), 10);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old module");
    outputs.commit().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "head body!");
    assert_eq!(files(), 1);

    // Over a scenario: only a scenario replaces it.
    let scenario = dir.path().join("s.ron");
    std::fs::write(&scenario, "Scenario()").unwrap();
    let mut outputs = Outputs::new();
    let mut staging = outputs.begin(&scenario).unwrap();
    staging.write_all(b"PK\x03\x04 a zip").unwrap();
    assert!(matches!(
        staging.finish(),
        Err(WriteError::WouldReplaceDocument { .. })
    ));
    let mut staging = outputs.begin(&scenario).unwrap();
    staging.write_all(b"Scenario(title: \"new\")").unwrap();
    staging.finish().unwrap();
    outputs.commit().unwrap();
    assert_eq!(
        std::fs::read_to_string(&scenario).unwrap(),
        "Scenario(title: \"new\")"
    );
    // Never over a file the command reads, refused before anything is written.
    let mut outputs = Outputs::guarding([&scenario]);
    assert!(matches!(
        outputs.begin(&scenario).map(|_| ()),
        Err(WriteError::WouldOverwriteInput { .. })
    ));
    assert_eq!(files(), 2);
}

#[test]
fn a_file_of_the_longest_legal_name_is_written_beside_itself() {
    let dir = tempfile::tempdir().unwrap();
    // 255 bytes, the most a file system allows, some of them two-byte characters.
    let name = format!("{}{}.ron", "é".repeat(100), "k".repeat(51));
    assert_eq!(name.len(), 255);
    let target = dir.path().join(&name);
    write_atomic_bytes(&target, b"Map()", 16).unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"Map()");
    write_atomic_bytes(&target, b"Map(x)", 16).unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"Map(x)");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );
}

/// A refusal as an I/O error says why, not the path again: the caller names the file (`fmt`
/// said "cannot write X: will not write X: …").
#[test]
fn a_refusal_as_an_io_error_does_not_name_the_file_again() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("a-folder.ron");
    std::fs::create_dir(&folder).unwrap();
    let error = write_atomic_bytes(&folder, b"Map()", 16).unwrap_err();
    let said = error.to_string();
    assert!(said.contains("not a regular file"), "{said}");
    assert!(!said.contains("a-folder"), "{said}");
}
