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
    &["numeric", "parse_error", "text"],
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
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

// File circles: within a module, files that import each other in a ring.
//
// An import is resolved to the file that defines the name (a re-export in a
// `mod.rs` is followed to its source), so `use super::ErrorCode` in
// `error/body_code.rs` is an arrow to `error/code.rs`. A `pub use` line is a
// module's face, not an import of the file that writes it, unless the file's
// own code uses the name. `#[cfg(test)]` modules are left out.

/// A file's module path: `error/code.rs` is `error::code`, `error/mod.rs` is
/// `error`, `lib.rs` is the crate.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last).to_owned();
        if stem != "mod" && stem != "lib" {
            parts.push(stem);
        }
    }
    parts
}

/// The code without its inline `#[cfg(test)] mod … { … }` blocks.
fn without_test_modules(code: &str) -> String {
    let mut code = code.to_owned();
    while let Some(at) = code.find("#[cfg(test)]") {
        let after = &code[at..];
        let Some(open) = after.find('{') else { break };
        let head = &after[..open];
        if !head.contains("mod ") || head.contains(';') {
            // `#[cfg(test)] mod tests;` or an item that is not a module.
            code.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0usize;
        let mut end = code.len();
        for (offset, c) in code[at + open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + open + offset + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..end, "");
    }
    code
}

/// The identifiers of `code`, in order.
fn words(code: &str) -> Vec<&str> {
    code.split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The names a file defines: items and `macro_rules!` macros.
fn definitions(code: &str) -> std::collections::BTreeSet<String> {
    const ITEMS: &[&str] = &[
        "struct",
        "enum",
        "fn",
        "const",
        "static",
        "type",
        "trait",
        "union",
        "mod",
        "macro_rules",
    ];
    let words = words(code);
    words
        .windows(2)
        .filter(|pair| ITEMS.contains(&pair[0]))
        .map(|pair| pair[1].to_owned())
        .collect()
}

/// A path of a `use` tree: its segments, and the name it is used by (the
/// last segment, or its `as` alias).
struct UsePath {
    segments: Vec<String>,
    alias: String,
}

/// Every path of a `use` tree: `super::{a::X, Y as Z}` gives `super::a::X`
/// and `super::Y` (used as `Z`).
fn expand(tree: &str) -> Vec<UsePath> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path.trim(), alias.trim()),
            None => (tree, tree.rsplit("::").next().unwrap_or(tree).trim()),
        };
        let segments = path
            .split("::")
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect();
        return vec![UsePath {
            segments,
            alias: alias.to_owned(),
        }];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    let mut paths = Vec::new();
    for item in items.into_iter().filter(|item| !item.trim().is_empty()) {
        for mut path in expand(item) {
            let mut segments = prefix.clone();
            segments.append(&mut path.segments);
            if path.alias == "self" {
                path.alias = segments.last().cloned().unwrap_or_default();
            }
            paths.push(UsePath {
                segments,
                alias: path.alias,
            });
        }
    }
    paths
}

/// The `use` statements of `code`: whether each is `pub` (any visibility),
/// and its tree.
fn use_statements(code: &str) -> Vec<(bool, String)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use ") {
        let start = from + at;
        from = start + 4;
        if code[..start].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let Some(end) = code[from..].find(';') else {
            break;
        };
        let before = code[..start].trim_end();
        let public = before.ends_with("pub") || (before.ends_with(')') && before.contains("pub("));
        found.push((public, code[from..from + end].to_owned()));
        from += end;
    }
    found
}

/// The code with its `use` statements left out.
fn without_uses(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let starts_word = !rest[..at].chars().next_back().is_some_and(is_ident);
        let end = rest[at..].find(';').map_or(rest.len(), |end| at + end + 1);
        if starts_word {
            out.push_str(&rest[..at]);
        } else {
            out.push_str(&rest[..at + 4]);
            rest = &rest[at + 4..];
            continue;
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `segments` made absolute from the module `own`, for a path that starts
/// with `crate`, `self` or `super`.
fn absolute(segments: &[String], own: &[String]) -> Option<Vec<String>> {
    let mut base = own.to_vec();
    let mut rest = segments;
    match segments.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &segments[1..];
        }
        Some("self") => rest = &segments[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

struct SourceFile {
    module: Vec<String>,
    code: String,
    defines: std::collections::BTreeSet<String>,
}

/// The file an absolute path names: the deepest file module on it, or the
/// file its name is re-exported from. `None` for a path outside `files`.
fn resolve(files: &[SourceFile], path: &[String], depth: usize) -> Option<usize> {
    if depth > 8 {
        return None;
    }
    let (file, taken) = (0..=path.len()).rev().find_map(|k| {
        files
            .iter()
            .position(|f| f.module == path[..k])
            .map(|i| (i, k))
    })?;
    let Some(name) = path.get(taken) else {
        return Some(file);
    };
    if name == "*" || name == "self" || files[file].defines.contains(name) {
        return Some(file);
    }
    for (_, tree) in use_statements(&files[file].code) {
        for used in expand(&tree) {
            if used.alias != *name {
                continue;
            }
            let own = &files[file].module;
            let target = absolute(&used.segments, own).unwrap_or_else(|| {
                let mut child = own.clone();
                child.extend(used.segments.iter().cloned());
                child
            });
            return resolve(files, &target, depth + 1);
        }
    }
    None
}

/// Every path of `file` that names an item of the crate, made absolute.
fn imported_paths(files: &[SourceFile], file: &SourceFile) -> Vec<Vec<String>> {
    let own = &file.module;
    let is_child = |name: &str| {
        let mut child = own.clone();
        child.push(name.to_owned());
        files.iter().any(|f| f.module == child)
    };
    let body = without_uses(&file.code);
    let used: std::collections::BTreeSet<&str> = words(&body).into_iter().collect();
    let mut paths = Vec::new();
    for (public, tree) in use_statements(&file.code) {
        for path in expand(&tree) {
            // A re-export is the module's face; it is an import of this file
            // only where the file's own code uses the name.
            if public && !used.contains(path.alias.as_str()) {
                continue;
            }
            if let Some(full) = absolute(&path.segments, own) {
                paths.push(full);
            } else if path.segments.first().is_some_and(|s| is_child(s)) {
                let mut full = own.clone();
                full.extend(path.segments);
                paths.push(full);
            }
        }
    }
    // Paths written in the code: `crate::a::B`, `super::B`, `child::f`.
    let mut at = 0;
    while at < body.len() {
        let starts = !body[..at]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == '$' || c == ':');
        let word_len = body[at..]
            .find(|c: char| !is_ident(c))
            .unwrap_or(body.len() - at);
        if starts && word_len > 0 && body[at + word_len..].starts_with("::") {
            let mut end = at + word_len;
            while body[end..].starts_with("::") {
                let next = body[end + 2..]
                    .find(|c: char| !is_ident(c))
                    .unwrap_or(body.len() - end - 2);
                if next == 0 {
                    break;
                }
                end += 2 + next;
            }
            let segments: Vec<String> = body[at..end].split("::").map(str::to_owned).collect();
            if let Some(full) = absolute(&segments, own) {
                paths.push(full);
            } else if is_child(&segments[0]) {
                let mut full = own.clone();
                full.extend(segments);
                paths.push(full);
            }
            at = end;
        } else {
            at += word_len.max(1);
            while at < body.len() && !body.is_char_boundary(at) {
                at += 1;
            }
        }
    }
    paths
}

/// The file circles of `files` (relative path, text): each ring's files,
/// sorted, with the arrows that tie it (`a.rs -> b.rs`).
fn file_circles(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut files = files.to_vec();
    files.sort();
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|(path, text)| {
            let code = without_test_modules(&strip_comments(text));
            SourceFile {
                module: module_path(path),
                defines: definitions(&code),
                code,
            }
        })
        .collect();
    let arrows: Vec<std::collections::BTreeSet<usize>> = sources
        .iter()
        .enumerate()
        .map(|(index, file)| {
            imported_paths(&sources, file)
                .iter()
                .filter_map(|path| resolve(&sources, path, 0))
                .filter(|&target| target != index)
                .collect()
        })
        .collect();
    // Which files each file reaches.
    let reach: Vec<std::collections::BTreeSet<usize>> = (0..sources.len())
        .map(|start| {
            let mut seen = std::collections::BTreeSet::new();
            let mut stack = vec![start];
            while let Some(at) = stack.pop() {
                for &next in &arrows[at] {
                    if seen.insert(next) {
                        stack.push(next);
                    }
                }
            }
            seen
        })
        .collect();
    let mut rings: Vec<String> = Vec::new();
    for start in 0..sources.len() {
        let ring: Vec<usize> = (0..sources.len())
            .filter(|&other| {
                other == start || (reach[start].contains(&other) && reach[other].contains(&start))
            })
            .collect();
        if ring.len() < 2 || ring[0] != start {
            continue;
        }
        let name = |i: usize| files[i].0.display().to_string();
        let mut line = ring.iter().map(|&i| name(i)).collect::<Vec<_>>().join(", ");
        for &from in &ring {
            for &to in arrows[from].iter().filter(|to| ring.contains(to)) {
                write!(line, "; {} -> {}", name(from), name(to)).unwrap();
            }
        }
        rings.push(line);
    }
    rings
}

#[test]
fn no_file_circle() {
    let src = std::env::var("ARCH_SRC").map_or_else(|_| repository().join("src"), PathBuf::from);
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    let circles = file_circles(&files);
    assert!(
        circles.is_empty(),
        "files that import each other in a ring (docs/ARCHITECTURE.md: an item two files share lives in the lower one):\n{}",
        circles.join("\n")
    );
}

/// The circle checker itself: a ring through a `mod.rs` re-export, a ring of
/// `crate::` paths in code and a `use child::…` are seen; a re-export the
/// file does not use, a test module and a one-way import are not circles.
#[test]
fn the_checker_sees_a_planted_file_circle() {
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_owned());
    let files = [
        file("lib.rs", "mod error;\nmod rate;\n"),
        file(
            "error/mod.rs",
            "mod body_code;\nmod code;\npub use body_code::{BodyCode, LegacyCode};\npub use code::ErrorCode;\n",
        ),
        file(
            "error/code.rs",
            "use super::LegacyCode;\npub enum ErrorCode { A }\n",
        ),
        file(
            "error/body_code.rs",
            "use super::ErrorCode;\npub enum LegacyCode { B }\npub enum BodyCode { K(ErrorCode) }\n",
        ),
        file(
            "rate/mod.rs",
            "mod list;\nmod response;\npub use list::RateList;\npub use response::RatesResponse;\nfn f() { list::g(); }\n",
        ),
        file(
            "rate/list.rs",
            "pub trait RateList {}\npub fn g() {}\n#[cfg(test)]\nmod tests { use crate::rate::RatesResponse; }\n",
        ),
        file(
            "rate/response.rs",
            "pub struct RatesResponse;\nimpl super::RateList for RatesResponse {}\n",
        ),
    ];
    assert_eq!(
        file_circles(&files),
        ["error/body_code.rs, error/code.rs; error/body_code.rs -> error/code.rs; error/code.rs -> error/body_code.rs"],
    );
    let mut ring = files.to_vec();
    ring[5] = file(
        "rate/list.rs",
        "pub trait RateList { fn all(&self) -> &crate::rate::RatesResponse; }\npub fn g() {}\n",
    );
    assert_eq!(file_circles(&ring).len(), 2, "{:?}", file_circles(&ring));
}

/// The other crates of the repository keep the same rule: the WebAssembly
/// bindings (`bindings/wasm/src`) and the reference server (`server/src`)
/// have no files importing each other in a ring either.
#[test]
fn no_file_circle_in_the_bindings_or_the_server() {
    for tree in ["bindings/wasm/src", "server/src"] {
        let src = repository().join(tree);
        let mut files = Vec::new();
        read_tree(&src, &src, &mut files);
        assert!(files.len() >= 5, "{tree} read: {} files", files.len());
        let circles = file_circles(&files);
        assert!(
            circles.is_empty(),
            "files of {tree} that import each other in a ring:\n{}",
            circles.join("\n")
        );
    }
}

/// Every file names an item by its module's path (`crate::rate::Rate`),
/// never by the crate root's re-export (`crate::Rate`): the root's
/// `pub use` lines are for users, and an import through them hides which
/// module a file depends on.
#[test]
fn no_item_imported_through_the_crate_root() {
    let src = repository().join("src");
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    let lib = files
        .iter()
        .find(|(path, _)| path == Path::new("lib.rs"))
        .map(|(_, text)| text.clone())
        .unwrap();
    let reexported = root_reexports(&lib);
    assert!(reexported.contains_key("RouteRequest"), "{reexported:?}");
    let mut found = Vec::new();
    for (path, text) in &files {
        if path == Path::new("lib.rs") {
            continue;
        }
        for segment in crate_paths(&strip_comments(text)) {
            if let Some(module) = reexported.get(&segment) {
                found.push(format!(
                    "{}: crate::{segment} (its path: crate::{module}::{segment})",
                    path.display()
                ));
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "imports through the crate root:\n{}",
        found.join("\n")
    );
}
