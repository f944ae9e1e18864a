//! The rules crate's modules form layers: no module reaches, through the others, back to
//! itself. The vocabulary sits at the bottom, the profiles and the scene above it, the
//! questions (situation, shooting, charge, command …) above those, and the rulings' wording at
//! the top. A `use crate::…` that climbs a layer makes a cycle, and this test names it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `rules/src` and the top-level modules its code (tests left out)
/// names through `crate::`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("rules/src reads") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&root).expect("under src");
            let first = relative.components().next().expect("a component");
            let module = first.as_os_str().to_string_lossy().replace(".rs", "");
            if module == "lib" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let used = graph.entry(module.clone()).or_default();
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    used.insert(name);
                }
            }
        }
    }
    graph
}

/// A path of imports from `from` back to `from`, if there is one.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut stack = vec![vec![from.to_owned()]];
    let mut seen = BTreeSet::new();
    while let Some(path) = stack.pop() {
        let last = path.last().expect("a path is never empty");
        for next in graph.get(last).into_iter().flatten() {
            if next == from {
                let mut cycle = path.clone();
                cycle.push(from.to_owned());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push(longer);
            }
        }
    }
    None
}

#[test]
fn no_module_reaches_back_to_itself() {
    let graph = imports();
    assert!(graph.contains_key("vocabulary") && graph.contains_key("rulings"));
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|module| cycle_through(&graph, module))
        .map(|cycle| cycle.join(" → "))
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_vocabulary_uses_nothing_of_the_engine() {
    let graph = imports();
    let allowed: BTreeSet<&str> = ["geometry", "quarter", "units"].into();
    let used = &graph["vocabulary"];
    assert!(
        used.iter().all(|m| allowed.contains(m.as_str())),
        "{used:?}"
    );
}
