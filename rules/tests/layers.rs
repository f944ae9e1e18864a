//! The rules crate's vocabulary sits at the bottom of its layers: it names nothing of the
//! engine above it. (That no module of any crate reaches back to itself is the workspace's
//! `tests/layers.rs`.)

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
