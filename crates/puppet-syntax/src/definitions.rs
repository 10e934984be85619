//! The definitions of a program (classes, defines, nodes, functions, type
//! aliases), found once per program and named by their path in the tree, so
//! that a compile can hold one beside the program's `Arc` without a pointer
//! into it.

use crate::ast::{DefinitionPath, Expr, ExprKind, Program};
use crate::visit::for_each_child;

impl Program {
    /// The classes, defines, nodes, functions and type aliases anywhere in
    /// the program, in document order. Found once per run: every compile
    /// that loads the file registers them, and walking the whole tree for
    /// each was a few percent of a warm compile.
    pub fn definitions(&self) -> &[DefinitionPath] {
        self.definition_index.get_or_init(|| {
            fn collect(e: &Expr, path: &mut Vec<u32>, out: &mut Vec<DefinitionPath>) {
                if matches!(
                    e.kind,
                    ExprKind::Class { .. }
                        | ExprKind::Define { .. }
                        | ExprKind::Node { .. }
                        | ExprKind::Function { .. }
                        | ExprKind::TypeAlias { .. }
                ) {
                    out.push(DefinitionPath(path.as_slice().into()));
                }
                let mut i = 0;
                for_each_child(e, &mut |c| {
                    path.push(i);
                    collect(c, path, out);
                    path.pop();
                    i += 1;
                });
            }
            let mut found = Vec::new();
            for (i, e) in self.body.iter().enumerate() {
                let mut path = vec![i as u32];
                collect(e, &mut path, &mut found);
            }
            found
        })
    }

    /// The expression a path of [`Program::definitions`] names. Most
    /// definitions sit in the body itself, one index away.
    pub fn definition(&self, path: &DefinitionPath) -> &Expr {
        let (first, rest) = path
            .0
            .split_first()
            .expect("a definition path is never empty");
        let mut e = &self.body[*first as usize];
        for &n in rest {
            e = nth_child(e, n).expect("a definition path follows the tree it was made from");
        }
        e
    }
}

/// The `n`th direct child of `e`.
fn nth_child(e: &Expr, n: u32) -> Option<&Expr> {
    let mut found = None;
    let mut i = 0;
    for_each_child(e, &mut |c| {
        if i == n {
            found = Some(c);
        }
        i += 1;
    });
    found
}

#[cfg(test)]
mod tests {
    #[test]
    fn definitions_are_found_by_their_paths() {
        let src = "class a { define b() { } class c::d {} }\nnotice(1)\nfunction e() {}\n";
        let p = crate::parse("x.pp", src.as_bytes()).unwrap();
        let names: Vec<String> = p
            .definitions()
            .iter()
            .map(|d| match &p.definition(d).kind {
                crate::ast::ExprKind::Class { name, .. }
                | crate::ast::ExprKind::Define { name, .. }
                | crate::ast::ExprKind::Function { name, .. } => name.to_string(),
                _ => "?".into(),
            })
            .collect();
        // Nested definitions carry their qualified names, as Puppet gives them.
        assert_eq!(names, ["a", "a::b", "a::c::d", "e"]);
    }
}
