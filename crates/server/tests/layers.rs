//! The server's modules form no import cycle: every `crate::` and `super::`
//! edge between its source files points one way (api → features → db → the
//! game's model), and only `db/` speaks SQL.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src`, as a module path (`db::games`, `lib` for the root).
fn modules() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path.strip_prefix(src()).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            let name = if parts == ["lib"] {
                "lib".to_string()
            } else {
                parts.join("::")
            };
            out.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

/// The code of a file without its `#[cfg(test)]` module and comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest known module a path `a::b::c` names.
fn target(path: &[&str], known: &BTreeMap<String, String>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| known.contains_key(m))
}

/// The files each file uses.
fn edges(known: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in known {
        let here: Vec<&str> = if module == "lib" {
            vec![]
        } else {
            module.split("::").collect()
        };
        let code = code(text);
        let uses = out.entry(module.clone()).or_default();
        for (prefix, base) in [
            ("crate::", vec![]),
            ("super::", here[..here.len().saturating_sub(1)].to_vec()),
        ] {
            for (i, _) in code.match_indices(prefix) {
                let before = code[..i].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = &code[i + prefix.len()..];
                let mut path = base.clone();
                // `crate::a::{b, c}`: the group's own paths are one level further.
                let head: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                path.extend(head.split("::").filter(|p| !p.is_empty()));
                if rest[head.len()..].starts_with('{') {
                    let group = &rest[head.len() + 1..rest.find('}').unwrap_or(rest.len())];
                    for item in group.split(',') {
                        let item = item.trim();
                        let mut p = path.clone();
                        p.extend(item.split("::").filter(|s| !s.is_empty()));
                        if let Some(t) = target(&p, known) {
                            uses.insert(t);
                        }
                    }
                } else if let Some(t) = target(&path, known) {
                    uses.insert(t);
                } else if path.is_empty() || !known.contains_key(path[0]) {
                    // An item of the crate root (`crate::Error`).
                    uses.insert("lib".to_string());
                }
            }
        }
        // A parent's own paths into its children (`pub use games::Store`, `games::create`).
        let prefix = if module == "lib" {
            String::new()
        } else {
            format!("{module}::")
        };
        for child in known.keys() {
            let Some(name) = child.strip_prefix(&prefix) else {
                continue;
            };
            if name.contains("::") || name == "lib" {
                continue;
            }
            let pattern = format!("{name}::");
            let named = code.match_indices(&pattern).any(|(i, _)| {
                !code[..i]
                    .chars()
                    .last()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            });
            if named {
                uses.insert(child.clone());
            }
        }
        uses.remove(module);
    }
    out
}

/// Whether `m` is `module` or one of its submodules (`game` and
/// `game::clock`, not `games`).
fn within(m: &str, module: &str) -> bool {
    m == module
        || m.strip_prefix(module)
            .is_some_and(|rest| rest.starts_with("::"))
}

/// What `db` may use besides itself and the game's model: value types and
/// their arithmetic, which use nothing but the game's model themselves
/// (`ratings`: Glicko-2, ranks, classes; the review's stored values; an
/// account's role; `calendar`'s civil dates and months).
const DB_VALUES: [&str; 5] = [
    "ratings",
    "calendar",
    "review::eval",
    "review::annotated",
    "accounts::role",
];

#[test]
fn layers_point_down() {
    let known = modules();
    let graph = edges(&known);
    // The scan sees the edges it must (a check of the check itself).
    assert!(graph["games::room"].contains("db"), "{graph:?}");
    assert!(graph["api::games"].contains("games::rooms"), "{graph:?}");
    assert!(graph["api"].contains("api::games"), "{graph:?}");
    assert!(graph["api::ws"].contains("api::wire"), "{graph:?}");
    assert!(graph["db::games"].contains("game"), "{graph:?}");
    assert!(graph["game::settings"].contains("game::side"), "{graph:?}");
    assert!(graph["games::view"].contains("board::dests"), "{graph:?}");
    assert!(!within("games::view", "game"), "games is not game");
    // The root declares the modules; edges into it would close a cycle.
    for (m, uses) in &graph {
        assert!(
            m == "lib" || !uses.contains("lib"),
            "{m} uses an item of lib.rs"
        );
    }
    // Cycles between files are found for every crate by crates/cli/tests/architecture.rs.
    // The layers: nothing outside api uses api (the wire included); the
    // domain knows nothing of axum; the game's model uses nothing else.
    for (m, uses) in &graph {
        if !within(m, "api") && m != "lib" {
            assert!(!uses.iter().any(|u| within(u, "api")), "{m} uses api");
        }
        let axum_allowed = within(m, "api") || ["lib", "state", "serve"].contains(&m.as_str());
        assert!(
            axum_allowed || !code(&known[m]).contains("axum::"),
            "{m} uses axum"
        );
        let own = std::iter::once("game").chain(DB_VALUES);
        if let Some(root) = own.into_iter().find(|v| within(m, v)) {
            for u in uses {
                assert!(
                    within(u, "game") || within(u, root),
                    "{m} is a plain value and uses {u}"
                );
            }
        }
        if within(m, "db") {
            for u in uses {
                assert!(
                    within(u, "db") || within(u, "game") || DB_VALUES.iter().any(|v| within(u, v)),
                    "db module {m} uses {u}"
                );
            }
        }
    }
}

#[test]
fn only_db_speaks_sql() {
    for (m, text) in modules() {
        if m.starts_with("db") {
            continue;
        }
        for word in ["sqlx::query", "SELECT ", "INSERT ", "UPDATE "] {
            assert!(!text.contains(word), "{m} contains {word:?}");
        }
    }
}
