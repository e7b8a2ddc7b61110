//! The layering of `src/` (docs/ARCHITECTURE.md, "Layers"): every
//! `use crate::…` and every `crate::…` path in `src/**/*.rs` names a module
//! of a lower layer or the file's own module, never one of the same layer or
//! above. One direction for every import, so no module cycle either; and
//! only `lib.rs` re-exports another module's items (one home for each type).
//!
//! The order is written here once and in docs/ARCHITECTURE.md; the test
//! fails when the two disagree.
#![allow(clippy::arithmetic_side_effects)] // offsets into a file's text

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The layers of `src/`, lowest first. A module imports only from layers
/// below its own (and from itself); modules of one layer do not import each
/// other. `lib` is `src/lib.rs`; `axum` and `convert` sit beside it.
const LAYERS: &[&[&str]] = &[
    &["numeric", "text"],
    &["decimal", "ids", "swap_mode", "time"],
    &["wire"],
    &["error"],
    &["caip", "client", "screening"],
    &["rate"],
    &["route"],
    &["discovery", "quote", "slippage"],
    &["order"],
    &["v4"],
    &["axum", "convert", "lib"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level module a file of `src/` belongs to (`lib` for `lib.rs`).
fn module_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

/// The text without `//` comments (doc comments included: an intra-doc link
/// may point anywhere), `/* … */` comments and the contents of strings.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
        } else if rest.starts_with("//") {
            rest = rest.find('\n').map_or("", |end| &rest[end..]);
        } else if rest.starts_with("'\"'") {
            // The character `"`, not a string.
            rest = &rest[3..];
        } else if let Some(after) = rest.strip_prefix("r#\"") {
            // A raw string: left out.
            rest = after.find("\"#").map_or("", |end| &after[end + 2..]);
        } else if let Some(after) = rest.strip_prefix('"') {
            // A string literal: left out, so neither a `//` nor a `crate::`
            // inside it counts.
            let bytes = after.as_bytes();
            let mut end = 0;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            rest = after.get(end + 1..).unwrap_or("");
            out.push_str("\"\"");
        } else {
            let ch = rest.chars().next().unwrap();
            out.push(ch);
            rest = &rest[ch.len_utf8()..];
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first segment of every `crate::…` path in `text`: `crate::a::b` gives
/// `a`; `crate::{a::x, b}` gives `a` and `b`. `$crate::` (a macro's own
/// crate) is not a path of this crate's file.
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("crate::") {
        let start = from + at;
        from = start + "crate::".len();
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == '$') {
            continue;
        }
        let rest = &text[from..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            found.push(first_segment(&item));
        } else {
            found.push(first_segment(rest));
        }
    }
    found.retain(|segment| !segment.is_empty() && segment != "self");
    found
}

fn first_segment(path: &str) -> String {
    path.trim_start()
        .chars()
        .take_while(|&c| is_ident(c))
        .collect()
}

/// The names `lib.rs` re-exports (`pub use rate::{Rate, …}`), each with the
/// module it comes from: `crate::Rate` is an import from `rate`.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in strip_comments(lib).split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let module = first_segment(path);
        let items = path.find('{').map_or_else(
            || path.rsplit("::").next().unwrap_or_default().to_owned(),
            |open| path[open + 1..].trim_end_matches('}').to_owned(),
        );
        for item in items.split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or_default().trim();
            if !name.is_empty() {
                names.insert(name.to_owned(), module.clone());
            }
        }
    }
    names
}

/// Every import of `files` (relative path, text) that breaks the layering,
/// one line each: `file: module (layer) imports target (layer)`.
fn violations(files: &[(PathBuf, String)]) -> Vec<String> {
    let lib = files
        .iter()
        .find(|(path, _)| path == Path::new("lib.rs"))
        .map_or_else(BTreeMap::new, |(_, text)| root_reexports(text));
    let mut found = Vec::new();
    for (path, text) in files {
        let module = module_of(path);
        let Some(own) = layer_of(&module) else {
            found.push(format!(
                "{}: module `{module}` is in no layer",
                path.display()
            ));
            continue;
        };
        let code = strip_comments(text);
        if module != "lib" {
            // One home for each type: only lib.rs re-exports another
            // module's items.
            for (at, prefix) in code.match_indices("pub use crate::") {
                let target = first_segment(&code[at + prefix.len()..]);
                if target != module {
                    found.push(format!(
                        "{}: `{module}` re-exports `{target}`'s items as its own",
                        path.display()
                    ));
                }
            }
        }
        for segment in crate_paths(&code) {
            let target = lib.get(&segment).cloned().unwrap_or(segment);
            if target == module {
                continue;
            }
            match layer_of(&target) {
                Some(layer) if layer < own => {}
                Some(layer) => found.push(format!(
                    "{}: `{module}` (layer {own}) imports `{target}` (layer {layer})",
                    path.display()
                )),
                None => found.push(format!(
                    "{}: `{module}` imports `{target}`, in no layer",
                    path.display()
                )),
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

fn read_tree(root: &Path, dir: &Path, files: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_tree(root, &path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            files.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

/// The repository root. `ARCH_SRC=<dir>` checks another `src/` (an old
/// tree, say) in `every_import_points_down_the_layers`.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_import_points_down_the_layers() {
    let src = std::env::var("ARCH_SRC").map_or_else(|_| repository().join("src"), PathBuf::from);
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    assert!(files.len() > 100, "src/ read: {} files", files.len());
    let modules: Vec<String> = files.iter().map(|(path, _)| module_of(path)).collect();
    for layer in LAYERS {
        for module in *layer {
            assert!(
                modules.iter().any(|m| m == module),
                "`{module}` is in LAYERS but not in src/"
            );
        }
    }
    let found = violations(&files);
    assert!(
        found.is_empty(),
        "imports against the layers (tests/architecture.rs, docs/ARCHITECTURE.md):\n{}",
        found.join("\n")
    );
}

/// The checker itself: an upward import, a same-layer import, a root
/// re-export resolved to its module, a grouped `use` and a module
/// re-exporting another's items are each seen; a comment, a string and
/// `$crate::` are not imports.
#[test]
fn the_checker_sees_a_planted_upward_import() {
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_owned());
    let files = [
        file("lib.rs", "pub use route::{Route, RouteRequest};\npub use rate::Rate;"),
        file("decimal/mod.rs", "use crate::numeric::pow10;\n"),
        file("rate/list.rs", "use crate::{decimal::Amount, Route};\n"),
        file("time.rs", "fn f() { crate::order::Timestamp::LATEST; }\n"),
        file("ids.rs", "use crate::swap_mode::SwapMode;\n"),
        file("v4/mod.rs", "pub use crate::slippage::Slippage;\n"),
        file(
            "text.rs",
            "// use crate::route::Route;\n/// [`x`](crate::order::X)\nconst S: &str = \"crate::v4\";\nmacro_rules! m { () => { $crate::order::X } }\n",
        ),
    ];
    let found = violations(&files);
    assert_eq!(
        found,
        [
            "ids.rs: `ids` (layer 1) imports `swap_mode` (layer 1)",
            "rate/list.rs: `rate` (layer 5) imports `route` (layer 6)",
            "time.rs: `time` (layer 1) imports `order` (layer 8)",
            "v4/mod.rs: `v4` re-exports `slippage`'s items as its own",
        ],
    );
}

/// docs/ARCHITECTURE.md draws the same layers, top first, one line each:
/// `N  a, b, c`.
#[test]
fn the_architecture_document_draws_these_layers() {
    let doc = std::fs::read_to_string(repository().join("docs/ARCHITECTURE.md")).unwrap();
    let start = doc
        .find("<!-- layers -->")
        .expect("docs/ARCHITECTURE.md has a `<!-- layers -->` block");
    let block = &doc[start..];
    let body = &block[block.find("```text\n").unwrap() + 8..];
    let body = &body[..body.find("```").unwrap()];
    let mut drawn = String::new();
    for line in body.lines() {
        let line = line.trim();
        if line.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            writeln!(drawn, "{line}").unwrap();
        }
    }
    let mut expected = String::new();
    for (index, layer) in LAYERS.iter().enumerate().rev() {
        writeln!(expected, "{index:<3}{}", layer.join(", ")).unwrap();
    }
    assert_eq!(drawn, expected, "docs/ARCHITECTURE.md's layers");
}
