//! Parsing ahead on an idle core.
//!
//! A node's compile asks for manifests one at a time, as its evaluation
//! reaches each `include`, and parsing them is half of a one-node compile's
//! instructions (apache's `vhost.pp` alone is 127 kB). When a run has fewer
//! nodes than threads, a spare thread follows the static references of
//! every file parsed (`include`/`contain`/`require` of literal names, class
//! parents, `class { 'x': }` titles, declarations of qualified resource
//! types) and parses the files the autoloader would search for them, so
//! that most files are ready when evaluation gets there.
//!
//! It changes no result: files go through the same once-per-run cache as
//! the compile's own requests (a request for a file being parsed waits for
//! it), and a file parsed ahead that no node needs is simply unused. A
//! parse error is kept in the cache and reported only if a node loads it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

use puppet_syntax::ast::{Expr, ExprKind, Program};

/// The queue of files to parse ahead (a field of the environment).
#[derive(Default)]
pub struct ParseAhead {
    enabled: AtomicBool,
    queue: Mutex<VecDeque<PathBuf>>,
    wake: Condvar,
}

impl ParseAhead {
    pub fn enable(&self) {
        self.enabled.store(true, Ordering::Relaxed);
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    /// Queues a file's references to be parsed next, first reference
    /// first: the queue is a stack, so the worker goes depth first through
    /// the includes, in the order evaluation meets them.
    pub fn push(&self, files: Vec<PathBuf>) {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        for f in files.into_iter().rev() {
            q.push_front(f);
        }
        drop(q);
        self.wake.notify_one();
    }

    /// The next file, waiting for one.
    pub fn next(&self) -> PathBuf {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(p) = q.pop_front() {
                return p;
            }
            q = self.wake.wait(q).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The class and define names a program refers to statically, in order.
pub fn referenced_names(program: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for e in &program.body {
        collect(e, &mut out);
    }
    out
}

fn collect(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Class {
            parent: Some(p), ..
        } => out.push(p.clone()),
        ExprKind::CallNamed { functor, args, .. } => {
            if let ExprKind::QName(f) = &functor.kind {
                if matches!(&**f, "include" | "contain" | "require") {
                    for a in args {
                        literal_names(a, out);
                    }
                }
            }
        }
        ExprKind::Resource {
            type_name, bodies, ..
        } => match &type_name.kind {
            ExprKind::QName(t) if &**t == "class" => {
                for b in bodies {
                    literal_names(&b.title, out);
                }
            }
            ExprKind::QName(t) if t.contains("::") => out.push(t.to_string()),
            _ => {}
        },
        _ => {}
    }
    puppet_syntax::visit::for_each_child(e, &mut |c| collect(c, out));
}

fn literal_names(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Str(s) | ExprKind::QName(s) => out.push(s.to_string()),
        ExprKind::Array(items) => {
            for i in items {
                literal_names(i, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::referenced_names;

    #[test]
    fn finds_includes_parents_class_titles_and_qualified_types() {
        let src = "class a inherits a::params {
              include b, 'c::d'
              contain ['e']
              if $x { require f }
              class { 'g': }
              h::i { 't': }
              file { '/x': }
              include $dynamic
            }";
        let p = puppet_syntax::parse("t.pp", src.as_bytes()).expect("parses");
        assert_eq!(
            referenced_names(&p),
            ["a::params", "b", "c::d", "e", "f", "g", "h::i"]
        );
    }
}
