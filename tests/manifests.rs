//! The workspace's manifests agree: the library under test (tests/library,
//! package swaproute-under-test) is the root package's source with the root
//! package's features and dependencies, and the root package keeps its one
//! light dev-dependency (anything more would be built by
//! `cargo run --example route`). Cargo.toml and tests/library/Cargo.toml
//! say why.

const ROOT: &str = include_str!("../Cargo.toml");
const UNDER_TEST: &str = include_str!("library/Cargo.toml");

/// The lines of `[name]` up to the next table, comments and blank lines
/// left out.
fn table<'a>(manifest: &'a str, name: &str) -> Vec<&'a str> {
    let header = format!("[{name}]");
    manifest
        .lines()
        .skip_while(|line| line.trim() != header)
        .skip(1)
        .take_while(|line| !line.starts_with('['))
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

#[test]
fn the_library_under_test_has_the_root_packages_features_and_dependencies() {
    for name in ["features", "dependencies"] {
        let root = table(ROOT, name);
        assert!(!root.is_empty(), "no [{name}] in Cargo.toml");
        assert_eq!(
            table(UNDER_TEST, name),
            root,
            "tests/library/Cargo.toml's [{name}] differs from Cargo.toml's: copy it"
        );
    }
    assert!(UNDER_TEST.contains("path = \"../../src/lib.rs\""));
    assert!(UNDER_TEST.contains("name = \"swaproute\""));
}

#[test]
fn the_root_package_has_one_light_dev_dependency() {
    assert_eq!(
        table(ROOT, "dev-dependencies"),
        ["serde_json = { version = \"1\", features = [\"preserve_order\"] }"],
        "a test or bench dependency goes in tests/Cargo.toml or benches/Cargo.toml"
    );
    assert!(
        !ROOT.contains("[target."),
        "target-specific dependencies: check them here"
    );
}
