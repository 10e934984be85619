//! `cargo xtask coverage [--seeds DIR] [--check]`: writes
//! `spec-suite/COVERAGE.md`, which lists every section and rule of the seed
//! documents (`../shared/seeds/*.md`) and the spec-suite cases that check
//! each, then the rules no case checks.
//!
//! Granularity (also written at the top of COVERAGE.md):
//! - A **section** is a Markdown heading (ATX `#...` or setext `===`/`---`);
//!   its anchor is GitHub's: lower case, punctuation other than `-` and `_`
//!   dropped, spaces as `-`, a repeated anchor suffixed `-1`, `-2`, ... The
//!   `spec:` keys of cases are `<seed>#<anchor>`.
//! - A **rule** is a top-level bullet item (with its nested items) or a
//!   paragraph under a heading, numbered from 1 in each section:
//!   `<seed>#<anchor>/<n>`. Italic `*TODO...*` notes, link definitions and
//!   front matter are not rules. A section without text has one rule, the
//!   section itself (`/0`), unless it only groups deeper headings.
//! - A case citing `<seed>#<anchor>/<n>` checks that rule; a case citing
//!   `<seed>#<anchor>` checks the section, and so counts for every rule in
//!   it ("section-level"). COVERAGE.md shows both, and counts a rule as
//!   uncovered only when no case cites it or its section.
//! - `puppet-internals-parser.md` is left out: the parser is proven against
//!   Puppet by the syntax oracles (`tests/fixtures`, `oracle-ast`,
//!   `oracle-validate`), not by spec-suite cases.
//!
//! With `--check`, the file is not written; the task fails if it would
//! change (CI runs the task and `git diff --exit-code` instead).
//!
//! Without the seeds (a clone without `../shared`, and no `--seeds`), the
//! sections and rules are read back from the current COVERAGE.md, said so
//! on stderr, and everything else (which cases cite what, the counts) is
//! regenerated from the spec-suite.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use pverify_harness::harness::load_suite;

/// Seeds not covered by spec-suite cases, with the reason.
const EXCLUDED: &[(&str, &str)] = &[(
    "puppet-internals-parser.md",
    "the parser is proven by the syntax oracles, not by spec-suite cases",
)];

const OUTPUT: &str = "spec-suite/COVERAGE.md";

struct Section {
    title: String,
    anchor: String,
    depth: usize,
    rules: Vec<String>,
    /// Read back from COVERAGE.md: whether it was a container (its depth
    /// there may be capped); `None`: decided from the headings below.
    container: Option<bool>,
}

/// A seed document's name and sections.
type Seed = (String, Vec<Section>);

pub fn run(args: &[String]) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("cannot locate the workspace root")?
        .to_path_buf();
    let mut seeds = root.join("../shared/seeds");
    let mut seeds_given = false;
    let mut check = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seeds" => {
                seeds = PathBuf::from(it.next().ok_or("--seeds needs a directory")?);
                seeds_given = true;
            }
            "--check" => check = true,
            other => {
                return Err(format!(
                    "unknown argument '{other}' (usage: coverage [--seeds DIR] [--check])"
                ))
            }
        }
    }
    let out = root.join(OUTPUT);
    let docs = if !seeds_given && !seeds.is_dir() {
        eprintln!(
            "note: {} not found (no ../shared beside the clone): the seeds' sections and rules are \
             read back from {OUTPUT}, the rest is regenerated from the spec-suite; give --seeds DIR \
             to rebuild them from the seed documents",
            seeds.display()
        );
        let old = fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        seeds_from_coverage(&old)
    } else {
        read_seeds(&seeds)?
    };
    let text = generate_from(docs, &root.join("spec-suite"))?;
    if check {
        let old = fs::read_to_string(&out).unwrap_or_default();
        if old != text {
            return Err(format!(
                "{OUTPUT} is out of date; run `cargo xtask coverage`"
            ));
        }
        println!("{OUTPUT} is up to date");
    } else {
        fs::write(&out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {OUTPUT}");
    }
    Ok(())
}

/// The seed documents of a directory, parsed.
fn read_seeds(seeds_dir: &Path) -> Result<Vec<Seed>, String> {
    let mut docs = Vec::new();
    let entries = fs::read_dir(seeds_dir)
        .map_err(|e| format!("{}: {e} (give --seeds DIR)", seeds_dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    for f in &files {
        let fname = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if EXCLUDED.iter().any(|(x, _)| *x == fname) {
            continue;
        }
        let text = fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let stem = fname.trim_end_matches(".md").to_string();
        docs.push((stem, parse_seed(&text)));
    }
    Ok(docs)
}

/// The seeds' sections and rules as a COVERAGE.md lists them (rule texts
/// as shortened there, which shorten to themselves).
fn seeds_from_coverage(text: &str) -> Vec<Seed> {
    let mut docs: Vec<Seed> = Vec::new();
    let mut in_body = false;
    for line in text.lines() {
        if let Some(doc) = line.strip_prefix("## ") {
            in_body = !matches!(
                doc,
                "Uncovered rules" | "Citations that name no section or rule"
            );
            if in_body {
                docs.push((doc.to_string(), Vec::new()));
            }
            continue;
        }
        let Some((_, sections)) = docs.last_mut().filter(|_| in_body) else {
            continue;
        };
        if line.starts_with("###") {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            let rest = line[hashes..].trim();
            // `Title (`seed#anchor`)`
            let Some((title, key)) = rest.rsplit_once(" (`") else {
                continue;
            };
            let anchor = key
                .trim_end_matches("`)")
                .split_once('#')
                .map(|(_, a)| a.to_string())
                .unwrap_or_default();
            sections.push(Section {
                title: title.to_string(),
                anchor,
                depth: hashes - 2,
                rules: Vec::new(),
                container: Some(false),
            });
        } else if line == "(groups the sections below; no rule of its own)" {
            if let Some(s) = sections.last_mut() {
                s.container = Some(true);
            }
        } else if let Some(row) = line.strip_prefix("| `/") {
            let Some((n, rest)) = row.split_once("` | ") else {
                continue;
            };
            let Some((text, _cases)) = rest.trim_end_matches(" |").rsplit_once(" | ") else {
                continue;
            };
            if n != "0" {
                if let Some(s) = sections.last_mut() {
                    s.rules.push(text.replace("\\|", "|"));
                }
            }
        }
    }
    docs
}

/// COVERAGE.md from the seeds and the suite's citations.
fn generate_from(docs: Vec<Seed>, suite: &Path) -> Result<String, String> {
    // Citations: spec key -> cases.
    let cases = load_suite(suite)?;
    let mut cited: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for c in &cases {
        let name = if c.pending.v7.is_some() || c.pending.v8.is_some() {
            format!("{} (pending)", c.name())
        } else {
            c.name()
        };
        for s in &c.spec {
            cited
                .entry(s.trim().to_string())
                .or_default()
                .push(name.clone());
        }
    }
    let mut known = std::collections::HashSet::new();

    let mut body = String::new();
    let mut uncovered = Vec::new();
    let mut summary = Vec::new();
    for (doc, sections) in &docs {
        body.push_str(&format!("\n## {doc}\n"));
        let (mut rules, mut direct, mut by_section) = (0, 0, 0);
        for (si, s) in sections.iter().enumerate() {
            let key = format!("{doc}#{}", s.anchor);
            // A heading without text of its own that only groups deeper
            // headings is a container, not a rule.
            let container = s.container.unwrap_or_else(|| {
                s.rules.is_empty()
                    && sections
                        .get(si + 1)
                        .is_some_and(|next| next.depth > s.depth)
            });
            known.insert(key.clone());
            let section_cases = cited.get(&key).cloned().unwrap_or_default();
            body.push_str(&format!(
                "\n{} {} (`{key}`)\n\n",
                "#".repeat((s.depth + 2).min(6)),
                s.title
            ));
            if !section_cases.is_empty() {
                body.push_str(&format!(
                    "Section-level cases: {}\n\n",
                    list(&section_cases)
                ));
            }
            if container {
                body.push_str("(groups the sections below; no rule of its own)\n");
                continue;
            }
            body.push_str("| rule | text | cases |\n|---|---|---|\n");
            let texts: Vec<String> = if s.rules.is_empty() {
                vec!["(the section has no text; the section itself)".to_string()]
            } else {
                s.rules.clone()
            };
            for (i, text) in texts.iter().enumerate() {
                let n = if s.rules.is_empty() { 0 } else { i + 1 };
                let id = format!("{key}/{n}");
                known.insert(id.clone());
                let own = cited.get(&id).cloned().unwrap_or_default();
                rules += 1;
                let cell = if !own.is_empty() {
                    direct += 1;
                    list(&own)
                } else if !section_cases.is_empty() {
                    by_section += 1;
                    format!("(section-level: {})", section_cases.len())
                } else {
                    uncovered.push((id.clone(), short(text)));
                    "**none**".to_string()
                };
                body.push_str(&format!(
                    "| `/{n}` | {} | {cell} |\n",
                    cell_text(&short(text))
                ));
            }
        }
        summary.push((
            doc.clone(),
            sections.len(),
            rules,
            direct,
            by_section,
            rules - direct - by_section,
        ));
    }

    let mut out = String::from(
        "# Spec-suite coverage of the seed documents\n\n\
         Generated by `cargo xtask coverage` from `../shared/seeds/*.md` and the\n\
         `spec:` keys of `spec-suite/**/*.case`; do not edit by hand (CI checks\n\
         that it is up to date).\n\n\
         A **section** is a heading of a seed; its anchor (GitHub's) is what a\n\
         case's `spec:` names: `<seed>#<anchor>`. A **rule** is a top-level\n\
         bullet item (with its nested items) or a paragraph of a section,\n\
         numbered in the section: `<seed>#<anchor>/<n>` (a section without\n\
         text is one rule, `/0`, unless it only groups deeper headings).\n\
         `*TODO*` notes and link definitions are not\n\
         rules. A case citing a rule checks that rule; a case citing a section\n\
         counts for each of its rules (\"section-level\"). A rule is uncovered\n\
         when no case cites it or its section.\n",
    );
    for (x, why) in EXCLUDED {
        out.push_str(&format!("\n`{x}` is not listed: {why}.\n"));
    }
    out.push_str(&format!("\nCases: {}.\n\n", cases.len()));
    out.push_str("| seed | sections | rules | cited directly | section-level only | uncovered |\n|---|---|---|---|---|---|\n");
    for (doc, s, r, d, b, u) in &summary {
        out.push_str(&format!("| {doc} | {s} | {r} | {d} | {b} | {u} |\n"));
    }
    out.push_str("\n## Uncovered rules\n\n");
    if uncovered.is_empty() {
        out.push_str("None.\n");
    }
    for (id, text) in &uncovered {
        out.push_str(&format!("- `{id}`: {}\n", text.replace('\n', " ")));
    }
    let unknown: Vec<(&String, &Vec<String>)> =
        cited.iter().filter(|(k, _)| !known.contains(*k)).collect();
    if !unknown.is_empty() {
        out.push_str("\n## Citations that name no section or rule\n\n");
        for (k, cs) in unknown {
            out.push_str(&format!("- `{k}`: {}\n", list(cs)));
        }
    }
    out.push_str(&body);
    Ok(out)
}

fn list(cases: &[String]) -> String {
    cases
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn short(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 110 {
        format!("{}...", one.chars().take(110).collect::<String>())
    } else {
        one
    }
}

fn cell_text(s: &str) -> String {
    s.replace('|', "\\|")
}

/// GitHub's anchor of a heading.
pub fn slug(title: &str) -> String {
    title
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The sections of a seed, in order, with their rules.
fn parse_seed(text: &str) -> Vec<Section> {
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    // Front matter.
    if lines.first().is_some_and(|l| l.trim() == "---") {
        if let Some(end) = lines.iter().skip(1).position(|l| l.trim() == "---") {
            i = end + 2;
        }
    }
    let mut sections: Vec<Section> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut block: Vec<&str> = Vec::new();
    let mut in_fence = false;
    let mut new_section = |title: &str, depth: usize, sections: &mut Vec<Section>| {
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
        sections.push(Section {
            title: title.trim().to_string(),
            anchor,
            depth,
            rules: Vec::new(),
            container: None,
        });
    };
    while i < lines.len() {
        let line = lines[i];
        let next = lines.get(i + 1).copied().unwrap_or("");
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            block.push(line);
            i += 1;
            continue;
        }
        if in_fence {
            block.push(line);
            i += 1;
            continue;
        }
        let setext = !line.trim().is_empty()
            && !next.trim().is_empty()
            && (next.trim().chars().all(|c| c == '=') || next.trim().chars().all(|c| c == '-'))
            && next.trim().len() >= 2;
        let atx = line.starts_with('#');
        if setext || atx {
            flush(&mut block, &mut sections);
            if atx {
                let depth = line.chars().take_while(|c| *c == '#').count();
                new_section(line.trim_start_matches('#').trim(), depth, &mut sections);
                i += 1;
            } else {
                let depth = if next.trim().starts_with('=') { 1 } else { 2 };
                new_section(line, depth, &mut sections);
                i += 2;
            }
            continue;
        }
        if line.trim().is_empty() {
            flush(&mut block, &mut sections);
        } else {
            block.push(line);
        }
        i += 1;
    }
    flush(&mut block, &mut sections);
    sections
}

/// Turns a block of lines into rules of the last section.
fn flush(block: &mut Vec<&str>, sections: &mut [Section]) {
    let lines = std::mem::take(block);
    let Some(section) = sections.last_mut() else {
        return;
    };
    let is_bullet = |l: &str| {
        let t = l.trim_start();
        (t.starts_with("* ") || t.starts_with("- ") || t.starts_with("+ "))
            || t.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let is_link_def = |l: &str| {
        let t = l.trim_start();
        t.starts_with('[') && t.contains("]:")
    };
    let lines: Vec<&str> = lines.into_iter().filter(|l| !is_link_def(l)).collect();
    if lines.is_empty() {
        return;
    }
    let mut rules: Vec<String> = Vec::new();
    for l in &lines {
        let top_bullet = is_bullet(l) && !l.starts_with(' ') && !l.starts_with('\t');
        match rules.last_mut() {
            Some(r) if !top_bullet => {
                r.push('\n');
                r.push_str(l.trim());
            }
            _ => rules.push(l.trim().to_string()),
        }
    }
    // A paragraph that continues a list item after a blank line, indented,
    // belongs to that item.
    if lines[0].starts_with("  ") && !section.rules.is_empty() {
        if let Some(last) = section.rules.last_mut() {
            for r in rules {
                last.push('\n');
                last.push_str(&r);
            }
            return;
        }
    }
    for r in rules {
        let t = r.trim_start_matches(['*', '_']).trim_start();
        if (r.starts_with('*') || r.starts_with('_')) && t.starts_with("TODO") {
            continue;
        }
        section.rules.push(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the seeds, the committed COVERAGE.md read back and
    /// regenerated is itself (CI keeps it up to date with the seeds).
    #[test]
    fn coverage_read_back_regenerates_itself() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let text = fs::read_to_string(root.join(OUTPUT)).unwrap();
        let again = generate_from(seeds_from_coverage(&text), &root.join("spec-suite")).unwrap();
        assert!(again == text, "COVERAGE.md does not read back to itself");
    }

    #[test]
    fn anchors_are_githubs() {
        assert_eq!(
            slug(
                "Step 2: Set Variables from the Node Object, from Facts, and from the Certificate"
            ),
            "step-2-set-variables-from-the-node-object-from-facts-and-from-the-certificate"
        );
        assert_eq!(slug("'code' Setting"), "code-setting");
        assert_eq!(slug("Roots for 4.x Loader"), "roots-for-4x-loader");
    }

    #[test]
    fn rules_are_bullets_and_paragraphs() {
        let s = parse_seed(
            "Title\n===\nIntro text\nmore.\n\n### A b\n\n* one\n  * nested\n* two\n\n*TODO: later*\n\nPara.\n\n### Empty\n",
        );
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].anchor, "title");
        assert_eq!(s[0].rules, ["Intro text\nmore."]);
        assert_eq!(s[1].anchor, "a-b");
        assert_eq!(s[1].rules, ["* one\n* nested", "* two", "Para."]);
        assert!(s[2].rules.is_empty());
    }
}
