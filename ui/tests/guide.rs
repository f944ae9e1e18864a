//! The README and the guide (`docs/guide/`) as a reader uses them: every `vedette` command they
//! show parses as the program parses it, and every link leads somewhere (ARCHITECTURE.md's and
//! CHANGELOG.md's links too).
//!
//! A command is a line of a fenced block tagged `sh`, `bash`, `console` or `shell`, a line of an
//! untagged block that starts with `vedette`, or a line of any block after a `$ ` prompt; its
//! first word (past `NAME=value` settings) is `vedette` or a path to it. A `# comment` ends it,
//! `&&`, `||`, `;`, `&` and `|` part it into commands, and a redirection (`>`, `<`) ends one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use clap::Parser;
use clap::error::ErrorKind;
use vedette_ui::cli::Cli;

/// The workspace's root.
fn root() -> PathBuf {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR"));
    ui.parent().expect("ui/ is in the workspace").to_owned()
}

/// The README and every chapter of the guide.
fn guide() -> Vec<PathBuf> {
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root().join("docs/guide"))
        .expect("docs/guide/ reads")
        .map(|entry| entry.expect("docs/guide/ lists").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    let mut files = vec![root().join("README.md")];
    files.extend(chapters);
    files
}

/// A file's name for a message: from the workspace's root, `..` taken away.
fn shown(path: &Path) -> String {
    let mut plain = PathBuf::new();
    for part in path.strip_prefix(root()).unwrap_or(path).components() {
        match part {
            std::path::Component::ParentDir => {
                plain.pop();
            }
            part => plain.push(part),
        }
    }
    plain.display().to_string()
}

/// The lines of a Markdown file outside fenced blocks (numbered from 1), and those inside with
/// their block's tag.
struct Markdown {
    prose: Vec<(usize, String)>,
    code: Vec<(usize, String, String)>,
}

/// A Markdown file's prose and fenced blocks (fences indented in a list item too).
fn markdown(text: &str) -> Markdown {
    let (mut prose, mut code) = (Vec::new(), Vec::new());
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(tag) = trimmed.strip_prefix("```") {
            fence = match fence {
                None => Some(tag.trim().to_owned()),
                Some(_) => None,
            };
        } else if let Some(tag) = &fence {
            code.push((i + 1, tag.clone(), trimmed.to_owned()));
        } else {
            prose.push((i + 1, line.to_owned()));
        }
    }
    Markdown { prose, code }
}

/// A word or an operator of a shell line.
enum Token {
    Word(String),
    Op(String),
}

/// A shell line's words and operators, quotes honoured, a `# comment` dropped.
fn shell_words(line: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let word = word.get_or_insert_with(String::new);
                while let Some(q) = chars.next() {
                    match q {
                        _ if q == c => break,
                        '\\' if c == '"' => word.extend(chars.next()),
                        _ => word.push(q),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            // `<file>` is a word (a placeholder), not a redirection.
            '<' if chars.clone().take_while(|c| !c.is_whitespace()).last() == Some('>') => {
                let word = word.get_or_insert_with(String::new);
                word.push(c);
                while let Some(next) = chars.next_if(|c| !c.is_whitespace()) {
                    word.push(next);
                }
            }
            '#' if word.is_none() => break,
            '|' | '&' | ';' | '>' | '<' => {
                tokens.extend(word.take().map(Token::Word));
                let mut op = c.to_string();
                if chars.peek() == Some(&c) && c != ';' {
                    op.push(chars.next().expect("peeked"));
                }
                tokens.push(Token::Op(op));
            }
            _ if c.is_whitespace() => tokens.extend(word.take().map(Token::Word)),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    tokens.extend(word.map(Token::Word));
    tokens
}

/// The `vedette` commands of a shell line, each as its words.
fn vedette_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut redirected = false;
    for token in shell_words(line) {
        match token {
            Token::Op(op) if op == ">" || op == ">>" || op == "<" => redirected = true,
            Token::Op(_) => {
                commands.push(Vec::new());
                redirected = false;
            }
            Token::Word(word) if !redirected => commands.last_mut().expect("one").push(word),
            Token::Word(_) => {}
        }
    }
    let setting = |word: &String| {
        word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    commands
        .into_iter()
        .map(|words| words.into_iter().skip_while(setting).collect::<Vec<_>>())
        .filter(|words| {
            words
                .first()
                .is_some_and(|first| first == "vedette" || first.ends_with("/vedette"))
        })
        .collect()
}

/// A word written as a placeholder (`<file>`, `SCENE`, `BEFORE.json`, `…`), not an example.
fn placeholder(word: &str) -> bool {
    let stem = word.split('.').next().unwrap_or(word);
    (word.starts_with('<') && word.ends_with('>'))
        || word == "…"
        || word == "..."
        || (stem.len() > 2 && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
}

/// The shell lines of a file's blocks that hold commands, a trailing `\` joining the next line.
fn command_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines: Vec<(usize, String)> = Vec::new();
    let mut continued = false;
    for (number, tag, line) in markdown(text).code {
        if continued {
            let (_, last) = lines.last_mut().expect("a line to continue");
            last.push(' ');
            last.push_str(line.trim_end_matches('\\'));
            continued = line.ends_with('\\');
            continue;
        }
        let prompted = line.strip_prefix("$ ");
        let shell = ["sh", "bash", "console", "shell"].contains(&tag.as_str());
        let command = match prompted {
            Some(command) => command,
            None if shell || (tag.is_empty() && line.starts_with("vedette")) => &line,
            None => continue,
        };
        continued = command.ends_with('\\');
        lines.push((number, command.trim_end_matches('\\').to_owned()));
    }
    lines
}

#[test]
fn every_command_in_the_readme_and_the_guide_parses() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in guide() {
        let text = std::fs::read_to_string(&path).expect("the file reads");
        for (number, line) in command_lines(&text) {
            for words in vedette_commands(&line) {
                let at = format!("{}:{number}: `{}`", shown(&path), words.join(" "));
                checked += 1;
                if let Some(word) = words.iter().find(|w| placeholder(w)) {
                    failures.push(format!("{at}: `{word}` is a placeholder: show an example"));
                    continue;
                }
                match Cli::try_parse_from(&words) {
                    Ok(_) => {}
                    Err(e)
                        if matches!(
                            e.kind(),
                            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
                        ) => {}
                    Err(e) => {
                        let error = e.to_string();
                        let first = error.lines().next().unwrap_or_default().to_owned();
                        failures.push(format!("{at}: {first}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "commands that do not parse:\n{}",
        failures.join("\n")
    );
    assert!(
        checked > 40,
        "only {checked} commands found: is the guide still read?"
    );
}

/// A heading's anchor as GitHub makes it: lowercase, punctuation but `-` and `_` dropped,
/// spaces made `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a Markdown file offers: its headings' (the second of a name `-1`, the third
/// `-2` …) and its explicit `<a id=…>` or `<a name=…>`.
fn anchors(text: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for (_, line) in markdown(text).prose {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = anchor(line[hashes..].trim().trim_end_matches('#'));
            let mut name = base.clone();
            for n in 1.. {
                if found.insert(name.clone()) {
                    break;
                }
                name = format!("{base}-{n}");
            }
        }
        for attribute in ["<a id=\"", "<a name=\""] {
            for (at, _) in line.match_indices(attribute) {
                let rest = &line[at + attribute.len()..];
                found.insert(rest[..rest.find('"').unwrap_or(0)].to_owned());
            }
        }
    }
    found
}

/// The link targets of a prose line: `[text](target)`, `![alt](target)`, `[name]: target`,
/// `<https://…>` and HTML `src`/`href`; inline code is not looked in.
fn link_targets(line: &str) -> Vec<String> {
    let prose: String = line
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 0 { part } else { "" })
        .collect();
    let mut targets = Vec::new();
    for (at, _) in prose.match_indices("](") {
        let rest = &prose[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or_default();
        targets.push(target.to_owned());
    }
    let definition = prose.trim_start();
    if definition.starts_with('[')
        && let Some((_, target)) = definition.split_once("]: ")
    {
        targets.push(
            target
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned(),
        );
    }
    for open in ["<http", "src=\"", "href=\""] {
        for (at, _) in prose.match_indices(open) {
            let rest = &prose[at + open.len()..];
            let close = if open == "<http" { '>' } else { '"' };
            let target = &rest[..rest.find(close).unwrap_or(rest.len())];
            targets.push(if open == "<http" {
                format!("http{target}")
            } else {
                target.to_owned()
            });
        }
    }
    targets
}

/// What is wrong with a link from the file `from`, if anything.
fn broken(from: &Path, target: &str) -> Option<String> {
    if let Some(rest) = target
        .strip_prefix("https://")
        .or_else(|| target.strip_prefix("http://"))
    {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let well_formed = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
            && !rest.contains(char::is_whitespace);
        return (!well_formed).then(|| "not a well-formed web address".to_owned());
    }
    if let Some(address) = target.strip_prefix("mailto:") {
        let well_formed = address
            .split_once('@')
            .is_some_and(|(a, b)| !a.is_empty() && b.contains('.'));
        return (!well_formed).then(|| "not a well-formed mail address".to_owned());
    }
    if target.is_empty() || target.starts_with('/') || target.contains("://") {
        return Some("neither a relative path nor a web or mail address".to_owned());
    }
    let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
    let path = if file.is_empty() {
        from.to_owned()
    } else {
        from.parent().expect("a file's folder").join(file)
    };
    if !path.exists() {
        return Some(format!("{} does not exist", shown(&path)));
    }
    if fragment.is_empty() || path.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&path).expect("the linked file reads");
    (!anchors(&text).contains(fragment))
        .then(|| format!("{} has no heading or anchor #{fragment}", shown(&path)))
}

#[test]
fn every_link_resolves() {
    let mut files = guide();
    files.extend(["ARCHITECTURE.md", "CHANGELOG.md"].map(|name| root().join(name)));
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("the file reads");
        for (number, line) in markdown(&text).prose {
            for target in link_targets(&line) {
                checked += 1;
                if let Some(why) = broken(&path, &target) {
                    failures.push(format!("{}:{number}: ({target}): {why}", shown(&path)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "links that lead nowhere:\n{}",
        failures.join("\n")
    );
    assert!(
        checked > 50,
        "only {checked} links found: are the files still read?"
    );
}

#[test]
fn headings_anchor_as_on_github() {
    assert_eq!(
        anchor("The table on every phone: `vedette serve`"),
        "the-table-on-every-phone-vedette-serve"
    );
    assert_eq!(anchor("The book's scenarios"), "the-books-scenarios");
    assert_eq!(anchor("Error bars › On tables"), "error-bars--on-tables");
    let twice = anchors("# Fields\n```sh\n# not a heading\n```\n## Fields\n<a id=\"here\"></a>\n");
    let want: HashSet<String> = ["fields", "fields-1", "here"].map(String::from).into();
    assert_eq!(twice, want);
}

#[test]
fn broken_links_are_told_from_sound_ones() {
    let readme = root().join("README.md");
    for sound in [
        "docs/guide/rulesets.md#not-yet-modelled",
        "docs/app.png",
        "#the-guide",
        "https://rustup.rs",
    ] {
        assert_eq!(broken(&readme, sound), None, "{sound}");
    }
    for broken_link in [
        "docs/guide/nowhere.md",
        "docs/guide/rulesets.md#nowhere",
        "#nowhere",
        "https://",
        "/README.md",
    ] {
        assert!(broken(&readme, broken_link).is_some(), "{broken_link}");
    }
}

#[test]
fn shell_lines_split_as_a_shell_splits_them() {
    let words = vedette_commands;
    assert_eq!(
        words(r#"vedette serve --name "Table 7" --token 'a b'   # a comment"#),
        [["vedette", "serve", "--name", "Table 7", "--token", "a b"]]
    );
    assert_eq!(
        words(
            "VEDETTE_X=1 vedette profile bbb > my.toml && ./target/release/vedette bench app | less"
        ),
        [
            vec!["vedette", "profile", "bbb"],
            vec!["./target/release/vedette", "bench", "app"]
        ]
    );
    assert!(words("cargo build --release # vedette").is_empty());
    assert_eq!(
        words("vedette measure <scene.json>"),
        [["vedette", "measure", "<scene.json>"]]
    );
    let blocks = concat!(
        "```sh\nvedette locate a.jpg \\\n    --json\n```\n",
        "```text\n$ vedette demo\nvedette out\n```\n",
    );
    let lines: Vec<(usize, String)> = command_lines(blocks)
        .into_iter()
        .map(|(number, line)| (number, vedette_commands(&line).concat().join(" ")))
        .collect();
    let want = [(2, "vedette locate a.jpg --json"), (6, "vedette demo")];
    assert_eq!(lines, want.map(|(number, line)| (number, line.to_owned())));
}
