//! The layer rule of `src/lib.rs`: each layer reaches only down.
//!
//! Every `.rs` file under `src/` belongs to the layer named by its first path
//! component (`src/board/threat.rs` to `board`, `src/eval/mod.rs` to
//! `eval`); the binary's `src/main.rs` stands above them all and `src/lib.rs`
//! only declares them. Each path through the crate root in code (`crate::x`,
//! `crate::{x, …}`, or `super::` climbing out to the root) may name the
//! file's own layer or one listed below it in [`LAYERS`]. Comments (doc
//! links included) and string literals are not dependencies and are skipped.

use std::path::{Path, PathBuf};

/// The layers, lowest first, with their level. A layer may use those of a
/// lower level; layers of one level stand side by side and may not use each
/// other. A new layer is one more line here (`web`, the browser board, stands
/// on `cli`, whose game referee, records and engine driver it serves).
const LAYERS: &[(&str, u32)] = &[
    ("types", 0),
    ("eval", 1),
    ("board", 2),
    ("rules", 3),
    ("search", 4),
    ("levels", 5),
    ("protocol", 6),
    ("cli", 7),
    ("web", 8),
];

/// Files outside the layers: the crate root (module declarations only) and
/// the binary, which may use every layer.
const ABOVE_ALL: &[&str] = &["lib.rs", "main.rs"];

fn level(layer: &str) -> Option<u32> {
    LAYERS.iter().find(|(l, _)| *l == layer).map(|&(_, n)| n)
}

/// The source with comments and string and character literals blanked out
/// (line breaks kept, so line numbers stay right).
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    blank(&mut out, ' ');
                    i += 1;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    blank(&mut out, ' ');
                    i += 1;
                    if depth == 0 {
                        blank(&mut out, ' ');
                        i += 1;
                        break;
                    }
                }
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == 'r'
            && matches!(next, Some('"') | Some('#'))
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
        {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let closing: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            let rest: String = chars[j + 1..].iter().collect();
            let end = rest.find(&closing).map_or(chars.len(), |k| {
                j + 1 + rest[..k].chars().count() + closing.chars().count()
            });
            for &ch in &chars[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else if c == '"' {
            blank(&mut out, c);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            if i < chars.len() {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\''), not a lifetime.
            let mut j = i + 1;
            if chars[j] == '\\' {
                j += 2;
            }
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            for &ch in &chars[i..=j.min(chars.len() - 1)] {
                blank(&mut out, ch);
            }
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// A token: an identifier, `::`, or one other character (whitespace dropped).
fn tokens(code: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((chars[start..i].iter().collect(), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(("::".into(), line));
            i += 2;
        } else {
            out.push((c.to_string(), line));
            i += 1;
        }
    }
    out
}

/// The module path of a file under `src/` (`board/threat.rs` is
/// `[board, threat]`, `board/mod.rs` is `[board]`).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().unwrap_or_default();
    let stem = file.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The top-level modules (layers) a file's code reaches through the crate
/// root, with their line numbers.
fn layers_used(relative: &Path, source: &str) -> Vec<(String, usize)> {
    let toks = tokens(&code_only(source));
    let file_depth = module_path(relative).len();
    let mut used = Vec::new();
    // Inline `mod name {` blocks: the brace depth each opened at.
    let mut inline_mods: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    let tok = |k: usize| toks.get(k).map_or("", |(t, _)| t.as_str());
    let mut i = 0;
    while i < toks.len() {
        let (t, line) = (&toks[i].0, toks[i].1);
        match t.as_str() {
            "{" => braces += 1,
            "}" => {
                braces = braces.saturating_sub(1);
                if inline_mods.last() == Some(&braces) {
                    inline_mods.pop();
                }
            }
            "mod" if tok(i + 2) == "{" => {
                inline_mods.push(braces);
            }
            _ => {}
        }
        // Where a path reaches the crate root, `root` is the index of its
        // first token after the root.
        let mut root = None;
        if t == "crate" && tok(i + 1) == "::" && tok(i.wrapping_sub(1)) != "::" {
            root = Some(i + 2);
        } else if t == "super" && tok(i.wrapping_sub(1)) != "::" {
            let mut k = i;
            let mut ups = 0;
            while tok(k) == "super" && tok(k + 1) == "::" {
                ups += 1;
                k += 2;
            }
            if ups >= file_depth + inline_mods.len() {
                root = Some(k);
            }
        }
        if let Some(r) = root {
            if tok(r) == "{" {
                // `crate::{a::…, b, …}`: the first name of each item.
                let mut depth = 0;
                let mut k = r;
                let mut expect_name = true;
                while k < toks.len() {
                    match tok(k) {
                        "{" => {
                            depth += 1;
                            expect_name = depth == 1;
                        }
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        "," if depth == 1 => expect_name = true,
                        name if expect_name && depth == 1 => {
                            used.push((name.to_string(), toks[k].1));
                            expect_name = false;
                        }
                        _ => {}
                    }
                    k += 1;
                }
            } else if !tok(r).is_empty() {
                used.push((tok(r).to_string(), line));
            }
        }
        i += 1;
    }
    used
}

/// The layer rule's violations in one file, as messages.
fn violations(relative: &Path, source: &str) -> Vec<String> {
    let name = relative.to_string_lossy();
    if ABOVE_ALL.iter().any(|f| Path::new(f) == relative) {
        return Vec::new();
    }
    let Some(layer) = module_path(relative).first().cloned() else {
        return vec![format!("src/{name}: not in a layer")];
    };
    let Some(own) = level(&layer) else {
        return vec![format!(
            "src/{name}: layer {layer:?} is not in LAYERS (tests/layers.rs)"
        )];
    };
    layers_used(relative, source)
        .into_iter()
        .filter(|(used, _)| used != &layer)
        .filter_map(|(used, line)| match level(&used) {
            Some(l) if l < own => None,
            Some(_) => Some(format!(
                "src/{name}:{line}: layer {layer} uses {used}, which is not below it"
            )),
            None => Some(format!(
                "src/{name}:{line}: crate::{used} is not a layer in LAYERS"
            )),
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_layer_reaches_only_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "found the sources: {files:?}");
    let mut layers_seen = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).expect("under src");
        let source = std::fs::read_to_string(path).expect("readable source");
        problems.extend(violations(relative, &source));
        if let Some(layer) = module_path(relative).first() {
            layers_seen.insert(layer.clone());
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every listed layer exists, so the table cannot drift from the tree.
    for (layer, _) in LAYERS {
        assert!(layers_seen.contains(*layer), "no src/{layer}");
    }
}

#[test]
fn an_upward_use_is_caught() {
    let board = Path::new("board/threat.rs");
    assert!(violations(
        board,
        "use crate::types::Pattern;\nuse super::pattern::field_of;"
    )
    .is_empty());
    let up = violations(board, "use crate::eval;\n\nuse crate::rules::is_allowed;\n");
    assert_eq!(up.len(), 1, "{up:?}");
    assert!(
        up[0].contains("threat.rs:3") && up[0].contains("uses rules"),
        "{up:?}"
    );
    // Grouped paths, paths in expressions, and `super` out to the root.
    let grouped = violations(board, "use crate::{types::Pos, search::MATE};");
    assert_eq!(grouped.len(), 1, "{grouped:?}");
    let inline = violations(board, "fn f() -> i32 { crate::search::MATE }");
    assert_eq!(inline.len(), 1, "{inline:?}");
    let climbed = violations(board, "use super::super::levels::Level;");
    assert_eq!(climbed.len(), 1, "{climbed:?}");
    // Side by side is not below: a layer of the same level is out of reach.
    assert_eq!(level("cli"), Some(7));
    assert_eq!(
        violations(Path::new("protocol/mod.rs"), "use crate::cli::Mode;").len(),
        1
    );
    // Inside an inline module, one more `super` stays in the file's layer.
    let tests = "mod tests {\n    use super::super::pattern::Pattern;\n}\n";
    assert!(violations(board, tests).is_empty());
    // Comments and strings are no dependencies.
    let quiet = "// use crate::cli;\n/// [`crate::search`]\nconst S: &str = \"crate::cli\";\nconst R: &str = r#\"crate::cli\"#;\nconst C: char = '\"';\nfn g<'a>(x: &'a str) -> &'a str { x }\n";
    assert!(
        violations(board, quiet).is_empty(),
        "{:?}",
        violations(board, quiet)
    );
    // A file outside the table's layers is reported, not skipped.
    assert_eq!(violations(Path::new("gui/mod.rs"), "").len(), 1);
}
