//! A house rule of docs/ARCHITECTURE.md, read from the sources: no import
//! cycle between the files of any crate. (The server's layers, and SQL only
//! in its storage module, are checked by crates/server/tests/layers.rs.)
//!
//! An edge `a → b` is any `crate::b…` or `super::…` path written in file `a`
//! (in `use` trees and in code), resolved to the file that defines the module;
//! names re-exported at the crate root (`pub use b::Name;` in lib.rs) resolve
//! to the file they come from. Test modules at the end of a file
//! (`#[cfg(test)]`) are left out: they see their own file's items.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CRATES: [&str; 6] = ["core", "record", "engine", "tournament", "server", "cli"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir`, with its module path (`["notation", "kif"]`).
fn source_files(src: &Path) -> Vec<(Vec<String>, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src");
                let mut module: Vec<String> = rel
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if module
                    .last()
                    .is_some_and(|m| m == "mod" || m == "lib" || m == "main")
                {
                    module.pop();
                }
                out.push((module, path));
            }
        }
    }
    out.sort();
    out
}

/// The text of a file without comments and without its trailing `#[cfg(test)]` part.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a `use` tree or a plain path starting at `rest`
/// (just after `crate::` or `super::`): each a list of segments.
fn paths_after(rest: &str) -> Vec<Vec<String>> {
    fn tree(
        s: &mut std::iter::Peekable<std::str::Chars<'_>>,
        prefix: &[String],
        out: &mut Vec<Vec<String>>,
    ) {
        let mut path = prefix.to_vec();
        loop {
            while s.peek().is_some_and(|c| c.is_whitespace()) {
                s.next();
            }
            if s.peek() == Some(&'{') {
                s.next();
                loop {
                    tree(s, &path, out);
                    while s.peek().is_some_and(|c| c.is_whitespace()) {
                        s.next();
                    }
                    match s.next() {
                        Some(',') => {
                            while s.peek().is_some_and(|c| c.is_whitespace()) {
                                s.next();
                            }
                            if s.peek() == Some(&'}') {
                                s.next();
                                return;
                            }
                        }
                        _ => return,
                    }
                }
            }
            let mut seg = String::new();
            while let Some(&c) = s.peek() {
                if is_ident_char(c) {
                    seg.push(c);
                    s.next();
                } else {
                    break;
                }
            }
            if seg.is_empty() {
                out.push(path);
                return;
            }
            path.push(seg);
            let mut look = s.clone();
            if look.next() == Some(':') && look.next() == Some(':') {
                s.next();
                s.next();
            } else {
                // `as alias`, `;`, `,`, `(`, ...
                out.push(path);
                return;
            }
        }
    }
    let mut out = Vec::new();
    tree(&mut rest.chars().peekable(), &[], &mut out);
    out
}

struct CrateModules {
    /// Module path → file.
    files: BTreeMap<Vec<String>, PathBuf>,
    /// Names re-exported at the root (`pub use m::Name`) → the module they come from.
    root_names: BTreeMap<String, Vec<String>>,
}

impl CrateModules {
    fn read(name: &str) -> CrateModules {
        let src = crates_dir().join(name).join("src");
        let files: BTreeMap<_, _> = source_files(&src).into_iter().collect();
        let mut root_names = BTreeMap::new();
        if let Some(root) = files.get(&Vec::new()) {
            let code = code_of(&fs::read_to_string(root).expect("root"));
            for stmt in code.split(';') {
                let stmt = stmt.trim();
                let Some(rest) = stmt.strip_prefix("pub use ") else {
                    continue;
                };
                let rest = rest.strip_prefix("crate::").unwrap_or(rest);
                for path in paths_after(rest) {
                    if path.len() >= 2 {
                        root_names.insert(
                            path[path.len() - 1].clone(),
                            path[..path.len() - 1].to_vec(),
                        );
                    }
                }
            }
        }
        CrateModules { files, root_names }
    }

    /// The file module a path (from the crate root) lands in, if another file.
    fn resolve(&self, path: &[String]) -> Option<Vec<String>> {
        for len in (1..=path.len()).rev() {
            if self.files.contains_key(&path[..len]) {
                return Some(path[..len].to_vec());
            }
        }
        let first = path.first()?;
        let module = self.root_names.get(first)?;
        self.resolve(module)
    }

    /// Edges between files: module → modules it names.
    fn edges(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let mut edges = BTreeMap::new();
        for (module, file) in &self.files {
            if module.is_empty() {
                continue; // the root declares and re-exports modules
            }
            let code = code_of(&fs::read_to_string(file).expect("source"));
            let mut targets = BTreeSet::new();
            for (keyword, base) in [("crate::", Vec::new()), ("super::", parent(module))] {
                let mut at = 0;
                while let Some(i) = code[at..].find(keyword) {
                    let start = at + i;
                    at = start + keyword.len();
                    if code[..start].chars().next_back().is_some_and(is_ident_char) {
                        continue; // `shogi_crate::`, `self::super::`...
                    }
                    for path in paths_after(&code[at..]) {
                        let mut full = base.clone();
                        full.extend(path);
                        if let Some(target) = self.resolve(&full) {
                            if &target != module && !target.is_empty() {
                                targets.insert(target);
                            }
                        }
                    }
                }
            }
            edges.insert(module.clone(), targets);
        }
        edges
    }
}

/// The module `super::` names from `module`.
fn parent(module: &[String]) -> Vec<String> {
    module[..module.len().saturating_sub(1)].to_vec()
}

/// A cycle in the graph, if there is one, as a list of modules.
fn find_cycle(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        node: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        marks: &mut BTreeMap<Vec<String>, Mark>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|m| m == next).unwrap_or(0);
                    let mut cycle: Vec<String> =
                        stack[from..].iter().map(|m| m.join("::")).collect();
                    cycle.push(next.join("::"));
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(next, edges, marks, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in edges.keys() {
        if marks.get(node).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(node, edges, &mut marks, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_crate_has_an_import_cycle_between_its_files() {
    let mut cycles = Vec::new();
    for name in CRATES {
        let modules = CrateModules::read(name);
        let edges = modules.edges();
        assert!(edges.len() > 1, "{name}: found no modules");
        if let Some(cycle) = find_cycle(&edges) {
            cycles.push(format!("crates/{name}: {}", cycle.join(" → ")));
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_cycle_finder_finds_a_cycle_through_grouped_imports_and_root_names() {
    // A self-check on made-up edges, so the test above cannot pass by finding nothing.
    assert_eq!(
        paths_after("{a::{B, c::D}, e};"),
        vec![
            vec!["a".to_string(), "B".into()],
            vec!["a".into(), "c".into(), "D".into()],
            vec!["e".into()]
        ]
    );
    let m = |s: &str| vec![s.to_string()];
    let mut edges = BTreeMap::new();
    edges.insert(m("a"), BTreeSet::from([m("b")]));
    edges.insert(m("b"), BTreeSet::from([m("c")]));
    edges.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(
        find_cycle(&edges),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    edges.insert(m("c"), BTreeSet::new());
    assert_eq!(find_cycle(&edges), None);
    // Core's game module names Color through the root re-export: an edge to color.
    let core = CrateModules::read("core");
    assert!(core.edges()[&m("game")].contains(&m("color")));
}
