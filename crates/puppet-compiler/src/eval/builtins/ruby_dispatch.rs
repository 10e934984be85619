//! Dispatch of a module's 4.x Ruby function (read by
//! `template::erb::function_file`) by its `dispatch` blocks: the signatures
//! are built from the file, then matched and described as the library's own.

use super::signatures::{describe_signatures, sig, Sig};
use crate::eval::value::Value;
use crate::template::erb::function_file::Dispatch;
use puppet_syntax::ast::Lambda;
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Mutex, OnceLock};

/// Signature texts read from files, kept for the run (a [`Sig`] holds
/// `'static` texts): each distinct parameter list is stored once.
fn interned(params: Vec<(String, String)>) -> &'static [(&'static str, &'static str)] {
    type Table = HashMap<Vec<(String, String)>, &'static [(&'static str, &'static str)]>;
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    let mut table = TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(p) = table.get(&params) {
        return p;
    }
    let leaked: Vec<(&'static str, &'static str)> = params
        .iter()
        .map(|(t, n)| {
            let t: &'static str = Box::leak(t.clone().into_boxed_str());
            let n: &'static str = Box::leak(n.clone().into_boxed_str());
            (t, n)
        })
        .collect();
    let leaked: &'static [(&'static str, &'static str)] = Box::leak(leaked.into_boxed_slice());
    table.insert(params, leaked);
    leaked
}

fn signature(d: &Dispatch) -> Sig {
    let params = interned(
        d.params
            .iter()
            .map(|p| (p.type_src.clone(), p.name.clone()))
            .collect(),
    );
    let required = d.params.iter().filter(|p| !p.optional).count();
    let s = sig(params);
    let s = if d.params.last().is_some_and(|p| p.repeated) {
        s.rest(required)
    } else {
        s.opt(required)
    };
    let block: &'static str = match &d.block_type {
        Some(t) => interned_text(t),
        None => "Callable",
    };
    match d.block {
        Some(true) => s.block(block),
        Some(false) => s.opt_block(block),
        None => s,
    }
}

/// A block type's text, kept for the run (see [`interned`]).
fn interned_text(t: &str) -> &'static str {
    interned(vec![(t.to_string(), String::new())])
        .first()
        .map(|p| p.0)
        .unwrap_or("Callable")
}

/// The index of the first dispatch that takes `args`, or Puppet's text for
/// a call none takes.
pub fn ruby_dispatch(
    name: &str,
    dispatches: &[Dispatch],
    args: &[Value],
    lambda: Option<&Lambda>,
) -> Result<usize, String> {
    let sigs: Vec<Sig> = dispatches.iter().map(signature).collect();
    match sigs.iter().position(|s| s.accepts(args, lambda)) {
        Some(i) => Ok(i),
        None if sigs.is_empty() => Err(format!(
            "pverify found no dispatch or method '{name}' in the Ruby function"
        )),
        None => Err(describe_signatures(name, &sigs, args, lambda)),
    }
}
