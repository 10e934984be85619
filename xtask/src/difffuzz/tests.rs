use super::ast::{Body, Env, Expr, Stmt};
use super::{gen, reduce};

fn text(env: &Env) -> String {
    env.render()
        .into_iter()
        .map(|(p, t)| format!("-- {p} --\n{t}"))
        .collect()
}

#[test]
fn same_seed_same_text() {
    for i in 0..50 {
        let (mut c1, mut c2) = (gen::Coverage::new(), gen::Coverage::new());
        let a = gen::generate(7, i, &mut c1);
        let b = gen::generate(7, i, &mut c2);
        assert_eq!(text(&a), text(&b));
        assert_eq!(c1, c2);
    }
    let mut c = gen::Coverage::new();
    assert_ne!(
        text(&gen::generate(7, 0, &mut c)),
        text(&gen::generate(8, 0, &mut c))
    );
}

#[test]
fn generated_programs_parse() {
    let mut cov = gen::Coverage::new();
    let mut bad = Vec::new();
    for seed in 1..4 {
        for i in 0..300 {
            let env = gen::generate(seed, i, &mut cov);
            for (p, t) in env.render() {
                if p.ends_with(".pp") {
                    match puppet_syntax::parse(&p, t.as_bytes()) {
                        // Puppet's checker crashes on `"${true}"` (Ruby's
                        // error, no place): generated on purpose, as Puppet
                        // fails the same way.
                        Err(e) if e.is_bare() && e.message.starts_with("undefined method") => {}
                        Err(e) => bad.push(format!("seed {seed} #{i} {p}: {e}\n{t}")),
                        Ok(_) => {}
                    }
                }
            }
        }
    }
    let firsts: Vec<&String> = bad.iter().take(6).collect();
    assert!(
        bad.is_empty(),
        "{} of 900 do not parse; first:\n{firsts:#?}",
        bad.len()
    );
    // Every kind of construct shows up.
    for k in [
        "op:+",
        "op:in",
        "op:=~",
        "iter:reduce",
        "collector",
        "chain:<~",
        "hiera:lookup",
        "template:epp-file",
        "template:erb-file",
        "node:regex",
        "class:inherits",
        "case:splat",
        "flow:break",
        "title:illegal",
        "convert:Integer-radix",
        "atom:semver",
        "stmt:virtual",
    ] {
        assert!(cov.get(k).copied().unwrap_or(0) > 0, "{k} never generated");
    }
}

/// The reducer on a synthetic predicate: "a notify whose message contains
/// the literal 42 is declared".
#[test]
fn reducer_shrinks_to_the_culprit() {
    let mut cov = gen::Coverage::new();
    let mut env = gen::generate(3, 5, &mut cov);
    // Plant the culprit deep inside the site manifest.
    if let Some((_, Body::Manifest(items))) = env.files.first_mut() {
        items.push(Stmt::If {
            unless: false,
            cond: Expr::Lit("true".into()),
            then: vec![Stmt::Resource {
                virt: "",
                ty: "notify".into(),
                title: Expr::Lit("'culprit'".into()),
                attrs: vec![super::ast::Attr {
                    name: "message".into(),
                    op: "=>",
                    value: Expr::Bin(
                        "+",
                        Box::new(Expr::Lit("42".into())),
                        Box::new(Expr::Lit("1".into())),
                    ),
                }],
            }],
            els: None,
        });
    }
    let holds = |e: &Env| {
        e.render()
            .iter()
            .any(|(_, t)| t.contains("notify { 'culprit'") && t.contains("42"))
    };
    assert!(holds(&env));
    let mut calls = 0;
    let (small, _) = reduce::reduce(&env, 8, 10_000, &mut |cands| {
        calls += 1;
        cands.iter().map(holds).collect()
    });
    assert!(holds(&small));
    assert!(calls > 0);
    let t = text(&small);
    assert_eq!(small.files.len(), 1, "{t}");
    assert_eq!(
        t.trim_end(),
        "-- manifests/site.pp --\nnotify { 'culprit':\n  message => 42,\n}",
        "{t}"
    );
}
