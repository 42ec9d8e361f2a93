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
