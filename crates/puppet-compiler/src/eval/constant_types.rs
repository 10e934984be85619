//! Type expressions that are the same for every node: Puppet's own types
//! with literal parameters (`Optional[String]`, `Enum['a', 'b']`,
//! `Hash[String, Array[Integer[0]]]`, `Struct[{a => Boolean}]`). Classes and
//! defines write them in their parameter lists, which Puppet evaluates
//! whenever a node loads the file; building each type again for every node
//! was about a twentieth of a fleet's compile.
//!
//! Each is evaluated once per thread and environment and its value kept
//! (values are immutable, so sharing one is sharing nothing mutable).
//! Whether an expression qualifies is decided by its syntax alone: only
//! names Puppet resolves to its own types (never an alias, a class or a
//! resource type, which may autoload a file and so belong in a read set),
//! literals, and such types nested. Anything else is evaluated as before,
//! every time. An expression that fails is not kept.
//!
//! The key is the expression's address, kept valid by holding its program:
//! a program kept here is never freed, so no other expression can come to
//! live at that address while its entry exists.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::sync::Arc;

use puppet_syntax::ast::{Expr, ExprKind, Number, Program, StrPart};

use super::value::Value;

/// The environment, whether the compile is Puppet 7's, and the expression.
pub(super) type Key = (u64, bool, usize);

/// Entries a thread keeps before starting over (a long-running process,
/// such as the test suite, makes many environments).
const LIMIT: usize = 50_000;

/// An expression's program (held, see above) and `Some(value)` for a
/// constant, `None` for an expression that is not one.
type Entry = (Arc<Program>, Option<Value>);

thread_local! {
    static SEEN: RefCell<HashMap<Key, Entry>> = RefCell::new(HashMap::default());
}

pub(super) fn key(environment: u64, puppet7: bool, e: &Expr) -> Key {
    (environment, puppet7, e as *const Expr as usize)
}

/// `None`: not seen yet; `Some(None)`: seen, not a constant.
pub(super) fn seen(key: Key) -> Option<Option<Value>> {
    SEEN.with(|s| s.borrow().get(&key).map(|(_, v)| v.clone()))
}

/// Keeps what evaluating `e` (of `program`) gave, when `e` is a constant.
pub(super) fn remember(key: Key, program: &Arc<Program>, e: &Expr, result: Option<&Value>) {
    let value = result.filter(|_| is_constant(e)).cloned();
    SEEN.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() >= LIMIT {
            s.clear();
        }
        s.insert(key, (program.clone(), value));
    });
}

/// Whether evaluating `e` depends on nothing but its text: no variable, no
/// call, no name that is not one of Puppet's own types.
fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::QRef(name) => super::typeops::type_by_name(name).is_some(),
        ExprKind::Access { lhs, keys } => is_constant(lhs) && keys.iter().all(is_constant),
        ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Boolean(_)
        | ExprKind::Number(Number::Integer(..) | Number::Float(_))
        | ExprKind::Str(_)
        | ExprKind::QName(_)
        | ExprKind::Regex(_) => true,
        ExprKind::Concat(parts) => parts.iter().all(|p| matches!(p, StrPart::Text(_))),
        ExprKind::Array(items) => items.iter().all(is_constant),
        ExprKind::Hash { entries, .. } => entries
            .iter()
            .all(|h| is_constant(&h.key) && is_constant(&h.value)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_constant;

    use puppet_syntax::ast::{Expr, ExprKind};

    /// The right-hand side of `$v = SRC`.
    fn first_expr(src: &str) -> Expr {
        let program = puppet_syntax::parse("t.pp", format!("$v = {src}").as_bytes())
            .unwrap_or_else(|e| panic!("{src}: {e:?}"));
        match program.body.into_iter().next().map(|e| e.kind) {
            Some(ExprKind::Assign { rhs, .. }) => *rhs,
            other => panic!("{src}: {other:?}"),
        }
    }

    #[test]
    fn only_own_types_with_literal_parameters_are_constant() {
        for src in [
            "Optional[String]",
            "Enum[present, 'absent']",
            "Hash[String, Array[Integer[0, 10]]]",
            "Struct[{a => Boolean, Optional[b] => Pattern[/x/]}]",
            "Variant[Undef, Default, Float[1.5]]",
        ] {
            assert!(is_constant(&first_expr(src)), "{src}");
        }
        for src in [
            "Optional[Stdlib::Absolutepath]",
            "Integer[$min]",
            "Enum[*$names]",
            "Array[String, length($x)]",
            "Package['x']",
            "Optional[\"${x}\"]",
        ] {
            assert!(!is_constant(&first_expr(src)), "{src}");
        }
    }
}
