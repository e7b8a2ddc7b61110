//! The command line: --help, refusals, and a database that cannot be
//! reached (exit 1, and the password in its URL is never printed).

use std::process::Command;

use crate::common::TempDir;

fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_swaproute-server"))
        .args(args)
        .env_remove("SWAPROUTE_DATABASE")
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn help_names_every_flag() {
    let (status, out, _) = run(&["--help"]);
    assert_eq!(status, 0);
    for flag in [
        "--listen",
        "--database",
        "--rates",
        "--now",
        "--max-connections",
        "--header-timeout",
        "--body-timeout",
        "--request-timeout",
        "--db-pool",
        "--shutdown-grace",
        "--assets",
        "--cpu-jobs",
    ] {
        assert!(out.contains(flag), "{flag}");
    }
}

#[test]
fn bad_flags_exit_1_with_a_message() {
    for (args, message) in [
        (&["--bogus"][..], "unknown argument \"--bogus\""),
        (&["--listen"][..], "--listen needs a value"),
        (
            &["--max-connections", "0"][..],
            "--max-connections: must be at least 1",
        ),
        (
            &["--header-timeout", "soon"][..],
            "--header-timeout: \"soon\" is not a number",
        ),
        (&["--db-pool", "0"][..], "--db-pool: must be at least 1"),
    ] {
        let (status, out, err) = run(args);
        assert_eq!((status, out.as_str()), (1, ""), "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // A 60 KB flag is echoed cut short.
    let long = format!("--{}", "x".repeat(60_000));
    let (status, _, err) = run(&[&long]);
    assert_eq!(status, 1);
    assert!(err.len() < 200, "{}", err.len());
}

#[test]
fn an_unreachable_database_exits_1_without_printing_its_password() {
    // Port 1 on loopback: nothing listens there.
    let url = "postgres://swaproute:s3cret-pw@127.0.0.1:1/orders";
    let (status, out, err) = run(&["--database", url, "--listen", "127.0.0.1:0"]);
    assert_eq!((status, out.as_str()), (1, ""));
    assert!(err.contains("PostgreSQL at 127.0.0.1:1"), "{err}");
    assert!(!err.contains("s3cret-pw"), "{err}");
    // A SQLite path in a directory that does not exist.
    let dir = TempDir::new();
    let path = dir.0.join("missing/orders.sqlite3").display().to_string();
    let (status, _, err) = run(&["--database", &path, "--listen", "127.0.0.1:0"]);
    assert_eq!(status, 1);
    assert!(err.contains("SQLite at"), "{err}");
}
