//! The type system against Puppet 7.23. Every expectation in the tables
//! below is Puppet's own output, pasted from a run of Puppet. To check them
//! again:
//!
//! ```text
//! mkdir -p /tmp/oracle
//! PVERIFY_TYPE_ORACLE=/tmp/oracle cargo test --lib types::tests::emit_oracle
//! ruby /tmp/oracle/check.rb /tmp/oracle      # needs `puppet` (7.23)
//! ```
//!
//! `emit_oracle` writes the cases as Puppet code (`cases.pp`), what these
//! tables expect (`expected.jsonl`) and the checker (`check.rb`), which
//! compiles each case with Puppet's catalog compiler in one Ruby process and
//! prints the disagreements and `N passed, M failed`.
//!
//! Types and values are written in Puppet syntax and evaluated here by a
//! small evaluator of literals, type names and `[]`, so the same text goes to
//! Puppet. `MyA` and `Tree` are aliases defined in every oracle case
//! (`type MyA = Integer[1,2]`, `type Tree = Array[Variant[String, Tree]]`).

use std::sync::Arc;

use super::*;
use crate::values::{Map, Value};
use puppet_syntax::ast::{ExprKind, Number, StrPart, UnaryOp};

const PRELUDE: &str = "type MyA = Integer[1,2] type Tree = Array[Variant[String, Tree]]";

fn my_a() -> PType {
    PType::alias("MyA", AliasTarget::resolved(PType::integer(1, 2)))
}

fn tree() -> PType {
    let cell = AliasTarget::new();
    let t = PType::alias("Tree", cell.clone());
    cell.set(PType::array(
        PType::Variant(vec![PType::STRING, t.clone()]),
        None,
    ))
    .unwrap();
    t
}

/// Evaluates a Puppet expression made of literals, type names and `[]`.
fn lit(src: &str) -> Result<Value, String> {
    let code = format!("$x = {src}");
    let prog = puppet_syntax::parse("test.pp", code.as_bytes()).map_err(|e| e.to_string())?;
    let ExprKind::Assign { rhs, .. } = &prog.body[0].kind else {
        panic!("not an assignment: {src}")
    };
    eval(rhs)
}

fn eval(e: &puppet_syntax::ast::Expr) -> Result<Value, String> {
    Ok(match &e.kind {
        ExprKind::Undef => Value::Undef,
        ExprKind::Default => Value::Default,
        ExprKind::Boolean(b) => Value::Boolean(*b),
        ExprKind::Number(Number::Integer(i, _)) => Value::Integer(*i),
        ExprKind::Number(Number::Float(f)) => Value::Float(*f),
        ExprKind::Str(s) | ExprKind::QName(s) => Value::String(s.clone()),
        ExprKind::Concat(parts) => {
            let mut s = String::new();
            for p in parts {
                match p {
                    StrPart::Text(t) => s.push_str(t),
                    StrPart::Expr(_) => panic!("interpolation in a test literal"),
                }
            }
            Value::string(s)
        }
        ExprKind::Regex(r) => Value::Regexp(Arc::from(r.as_str())),
        ExprKind::QRef(name) => Value::Type(Arc::new(match name.as_str() {
            "MyA" => my_a(),
            "Tree" => tree(),
            n => type_by_name(n).unwrap_or_else(|| {
                // what the loader would find: a few resource types, else nothing
                if ["File", "Notify", "Exec", "Package", "Service", "User"].contains(&n) {
                    PType::resource(n, None)
                } else {
                    PType::TypeReference(n.to_string())
                }
            }),
        })),
        ExprKind::Array(items) => Value::array(items.iter().map(eval).collect::<Result<_, _>>()?),
        ExprKind::Hash { entries, .. } => {
            let mut m = Map::default();
            for en in entries {
                m.insert(eval(&en.key)?, eval(&en.value)?);
            }
            Value::hash(m)
        }
        ExprKind::Unary {
            op: UnaryOp::Neg,
            expr,
        } => match eval(expr)? {
            Value::Integer(i) => Value::Integer(-i),
            Value::Float(f) => Value::Float(-f),
            v => panic!("negating {v:?}"),
        },
        ExprKind::Paren(x) => eval(x)?,
        ExprKind::Access { lhs, keys } => {
            let base = eval(lhs)?;
            let Value::Type(ref t) = base else {
                panic!("access on a non-type")
            };
            let keys: Vec<Value> = keys.iter().map(eval).collect::<Result<_, _>>()?;
            access(t, &keys).map_err(|e| e.message)?
        }
        ExprKind::CallNamed { functor, args, .. } => {
            let n: &str = match &functor.kind {
                ExprKind::QRef(n) => n,
                ExprKind::QName(n) => n,
                _ => panic!("call"),
            };
            assert_eq!(n, "Sensitive");
            Value::Sensitive(Arc::new(eval(&args[0])?))
        }
        other => panic!("unsupported in test literals: {other:?}"),
    })
}

fn ty(src: &str) -> PType {
    match &lit(src) {
        Ok(Value::Type(t)) => (**t).clone(),
        other => panic!("{src} is not a type: {other:?}"),
    }
}

fn val(src: &str) -> Value {
    lit(src).unwrap_or_else(|e| panic!("{src}: {e}"))
}

/// `notice(TYPE)`: how Puppet prints the type.
const DISPLAY: &[(&str, &str)] = &[
    ("Integer[1,5]", "Integer[1, 5]"),
    ("Integer[default,5]", "Integer[default, 5]"),
    ("Integer[-3]", "Integer[-3]"),
    ("Integer[1,1]", "Integer[1, 1]"),
    ("Integer[default]", "Integer"),
    ("Integer", "Integer"),
    ("Float[1.5]", "Float[1.5]"),
    ("Float[1e20, 1e30]", "Float[1.0e+20, 1.0e+30]"),
    ("Float[default, 1]", "Float[default, 1.0]"),
    ("Float[1,2]", "Float[1.0, 2.0]"),
    ("String[1]", "String[1]"),
    ("String[0]", "String[0]"),
    ("String[-1, 5]", "String[0, 5]"),
    ("String[1,default]", "String[1]"),
    ("String", "String"),
    ("Enum[b,a]", "Enum['a', 'b']"),
    ("Enum[a, b, true]", "Enum['a', 'b', true]"),
    (
        "Enum[\"a'b\", \"c\\nd\", 'e\\\\f']",
        "Enum['a\\'b', \"c\\nd\", 'e\\f']",
    ),
    ("Enum[a,a,b]", "Enum['a', 'b']"),
    ("Pattern[/re/]", "Pattern[/re/]"),
    ("Pattern['a/b', /c\\/d/]", "Pattern[/a\\/b/, /c\\/d/]"),
    ("Pattern[/\\//]", "Pattern[/\\//]"),
    ("Regexp[/a/]", "Regexp[/a/]"),
    ("Regexp['a/b']", "Regexp[/a\\/b/]"),
    ("Regexp", "Regexp"),
    ("Boolean", "Boolean"),
    ("Boolean[true]", "Boolean[true]"),
    ("Array[String]", "Array[String]"),
    ("Array[String,0]", "Array[String, 0]"),
    ("Array[Any,0]", "Array[Any, 0]"),
    ("Array[Any]", "Array"),
    ("Array[String,1,3]", "Array[String, 1, 3]"),
    ("Array[0,0]", "Array[0, 0]"),
    ("Array[1,2]", "Array[Any, 1, 2]"),
    ("Array[Integer, Integer[2,3]]", "Array[Integer, 2, 3]"),
    ("Hash[Any,Any]", "Hash"),
    ("Hash[String,Integer,1]", "Hash[String, Integer, 1]"),
    ("Hash[1,2]", "Hash[Any, Any, 1, 2]"),
    ("Hash[String, Integer, 0, 0]", "Hash[0, 0]"),
    ("Hash[String,Integer]", "Hash[String, Integer]"),
    (
        "Tuple[Integer,String,1,default]",
        "Tuple[Integer, String, 1]",
    ),
    ("Tuple[String, 0, 0]", "Tuple[String, 0, 0]"),
    ("Tuple[Integer, 2]", "Tuple[Integer, 2]"),
    ("Tuple[Integer, default, 3]", "Tuple[Integer, 0, 3]"),
    ("Tuple[Integer, 0]", "Tuple[Integer, 0]"),
    ("Tuple[Integer,String]", "Tuple[Integer, String]"),
    (
        "Struct[{a => Integer, Optional[b] => String, c => Optional[String]}]",
        "Struct[{'a' => Integer, Optional['b'] => String, 'c' => Optional[String]}]",
    ),
    ("Struct[{a => 1}]", "Struct[{'a' => Integer}]"),
    (
        "Struct[{Optional[a] => Optional[Integer], NotUndef[b] => Optional[String]}]",
        "Struct[{'a' => Optional[Integer], NotUndef['b'] => Optional[String]}]",
    ),
    ("Optional[String]", "Optional[String]"),
    ("Optional['x']", "Optional['x']"),
    ("Optional[Optional[String]]", "Optional[Optional[String]]"),
    ("Optional", "Optional"),
    ("NotUndef['x']", "NotUndef['x']"),
    ("NotUndef[Any]", "NotUndef"),
    ("NotUndef[String]", "NotUndef[String]"),
    ("NotUndef", "NotUndef"),
    ("Variant[Integer,String]", "Variant[Integer, String]"),
    ("Variant[Integer]", "Integer"),
    (
        "Variant[Integer, Variant[String, Integer]]",
        "Variant[Integer, String]",
    ),
    ("Variant", "Variant"),
    ("Collection[1,2]", "Collection[1, 2]"),
    ("Collection[Integer[3]]", "Collection[3]"),
    ("Collection", "Collection"),
    ("Callable[String,1,2]", "Callable[String, 1, 2]"),
    (
        "Callable[String, Integer, 0, 2, Callable[1,1]]",
        "Callable[String, Integer, 0, 2, Callable[1, 1]]",
    ),
    ("Callable[[String], Integer]", "Callable[[String], Integer]"),
    ("Callable[0,0]", "Callable[0, 0]"),
    ("Callable[[], Integer]", "Callable[[0, 0], Integer]"),
    ("Callable[1]", "Callable[1]"),
    ("Sensitive[String]", "Sensitive[String]"),
    ("Sensitive[Any]", "Sensitive"),
    ("Sensitive[Integer[1,2]]", "Sensitive[Integer]"),
    ("Type[Integer]", "Type[Integer]"),
    ("Type", "Type"),
    ("Type[File['x']]", "Type[File['x']]"),
    ("Class[foo]", "Class[foo]"),
    ("Class['::Foo']", "Class[foo]"),
    ("Class", "Class"),
    ("Class[a, b]", "[Class[a], Class[b]]"),
    ("Class[[a]]", "[Class[a]]"),
    ("File['/x']", "File['/x']"),
    ("Resource[file]", "File"),
    ("Resource['foo::bar']", "Foo::Bar"),
    ("Resource[file, '/x', '/y']", "[File['/x'], File['/y']]"),
    ("File[['/x']]", "[File['/x']]"),
    ("Resource", "Resource"),
    ("File", "File"),
    ("Foo::Bar['x']", "ERROR: Resource type not found: Foo::Bar"),
    ("Resource[File, 'a']", "File['a']"),
    ("Iterable[String]", "Iterable[String]"),
    ("Iterator[String]", "Iterator[String]"),
    ("Runtime[ruby, 'Foo']", "Runtime[ruby, 'Foo']"),
    ("Init[String]", "Init[String]"),
    ("SemVer['>=1.0.0']", "SemVer['>=1.0.0']"),
    ("Timespan", "Timespan"),
    ("Timestamp", "Timestamp"),
    ("SemVerRange", "SemVerRange"),
    ("SemVer", "SemVer"),
    ("Runtime", "Runtime"),
    ("Iterable", "Iterable"),
    ("Iterator", "Iterator"),
    ("Init", "Init"),
    ("CatalogEntry", "CatalogEntry"),
    ("Scalar", "Scalar"),
    ("ScalarData", "ScalarData"),
    ("Numeric", "Numeric"),
    ("Undef", "Undef"),
    ("Any", "Any"),
    ("Default", "Default"),
    ("Data", "Data"),
    ("RichData", "RichData"),
    ("Binary", "Binary"),
    ("URI", "URI"),
    ("INTEGER", "Integer"),
    ("Scalardata", "ScalarData"),
    ("NOTUNDEF[String]", "NotUndef[String]"),
    ("MyA", "MyA = Integer[1, 2]"),
    ("Array[MyA]", "Array[MyA]"),
    ("Tree", "Tree = Array[Variant[String, Tree]]"),
    ("[MyA]", "[MyA = Integer[1, 2]]"),
    ("Optional[MyA]", "Optional[MyA]"),
    ("RichDataKey", "RichDataKey"),
];

/// `class typed(TYPE $n) {} class { typed: n => VALUE }`: Puppet's error
/// (after `Error while evaluating a Resource Statement, `), or "" when the
/// value is accepted.
const MISMATCH: &[(&str, &str, &str)] = &[
    ("Integer", "'x'", "Class[Typed]: parameter 'n' expects an Integer value, got String"),
    ("Optional[String]", "1", "Class[Typed]: parameter 'n' expects a value of type Undef or String, got Integer"),
    ("String[1]", "''", "Class[Typed]: parameter 'n' expects a String[1] value, got String"),
    ("Integer[1,5]", "7", "Class[Typed]: parameter 'n' expects an Integer[1, 5] value, got Integer[7, 7]"),
    ("Enum['a','b']", "'c'", "Class[Typed]: parameter 'n' expects a match for Enum['a', 'b'], got 'c'"),
    ("Array[String,1]", "[]", "Class[Typed]: parameter 'n' expects size to be at least 1, got 0"),
    ("Struct[{a=>Integer}]", "{a=>'x'}", "Class[Typed]: parameter 'n' entry 'a' expects an Integer value, got String"),
    ("Struct[{a=>Integer}]", "{a=>1, x=>2}", "Class[Typed]: parameter 'n' unrecognized key 'x'"),
    ("Struct[{a=>Integer, b=>String}]", "{a=>1}", "Class[Typed]: parameter 'n' expects a value for key 'b'"),
    ("Hash[String,Integer]", "{a=>'x'}", "Class[Typed]: parameter 'n' entry 'a' expects an Integer value, got String"),
    ("Array[Integer]", "[1,'a']", "Class[Typed]: parameter 'n' index 1 expects an Integer value, got String"),
    ("Variant[Integer,String]", "[1]", "Class[Typed]: parameter 'n' expects a value of type Integer or String, got Tuple"),
    ("Pattern[/^a/]", "'b'", "Class[Typed]: parameter 'n' expects a match for Pattern[/^a/], got 'b'"),
    ("Boolean", "'true'", "Class[Typed]: parameter 'n' expects a Boolean value, got String"),
    ("Float", "1", "Class[Typed]: parameter 'n' expects a Float value, got Integer"),
    ("Numeric", "'1'", "Class[Typed]: parameter 'n' expects a Numeric value, got String"),
    ("Data", "/x/", "Class[Typed]: parameter 'n' expects a Data value, got Regexp"),
    ("Hash", "[1]", "Class[Typed]: parameter 'n' expects a Hash value, got Tuple"),
    ("Array", "{a=>1}", "Class[Typed]: parameter 'n' expects an Array value, got Struct"),
    ("Tuple[Integer,String]", "[1]", "Class[Typed]: parameter 'n' expects size to be 2, got 1"),
    ("Tuple[Integer,String]", "[1,2]", "Class[Typed]: parameter 'n' index 1 expects a String value, got Integer"),
    ("NotUndef", "undef", "Class[Typed]: parameter 'n' expects a NotUndef value, got Undef"),
    ("Optional[Integer]", "'x'", "Class[Typed]: parameter 'n' expects a value of type Undef or Integer, got String"),
    ("Variant[Integer,Enum[a,b]]", "'c'", "Class[Typed]: parameter 'n' expects a value of type Integer or Enum['a', 'b'], got String"),
    ("String", "1", "Class[Typed]: parameter 'n' expects a String value, got Integer"),
    ("Integer", "1.5", "Class[Typed]: parameter 'n' expects an Integer value, got Float"),
    ("Array[String,1,2]", "['a','b','c']", "Class[Typed]: parameter 'n' expects size to be between 1 and 2, got 3"),
    ("Hash[String,Integer,2]", "{a=>1}", "Class[Typed]: parameter 'n' expects size to be at least 2, got 1"),
    ("Type[Integer]", "String", "Class[Typed]: parameter 'n' expects a Type[Integer] value, got Type[String]"),
    ("Regexp", "'x'", "Class[Typed]: parameter 'n' expects a Regexp value, got String"),
    ("Scalar", "[1]", "Class[Typed]: parameter 'n' expects a Scalar value, got Tuple"),
    ("Undef", "1", "Class[Typed]: parameter 'n' expects an Undef value, got Integer"),
    ("Enum[a,b,true]", "'c'", "Class[Typed]: parameter 'n' expects a match for Enum['a', 'b', true], got 'c'"),
    ("Struct[{Optional[a]=>Integer}]", "{a=>'x'}", "Class[Typed]: parameter 'n' entry 'a' expects an Integer value, got String"),
    ("Array[Array[Integer]]", "[[1,'x']]", "Class[Typed]: parameter 'n' index 0 index 1 expects an Integer value, got String"),
    ("Hash[Integer, String]", "{'a'=>'b'}", "Class[Typed]: parameter 'n' key of entry 'a' expects an Integer value, got String"),
    ("Sensitive[String]", "'x'", "Class[Typed]: parameter 'n' expects a Sensitive[String] value, got String"),
    ("Optional[Enum[a,b]]", "'c'", "Class[Typed]: parameter 'n' expects an undef value or a match for Enum['a', 'b'], got 'c'"),
    ("String[2,3]", "'a'", "Class[Typed]: parameter 'n' expects a String[2, 3] value, got String"),
    ("Class", "'x'", "Class[Typed]: parameter 'n' expects a Class value, got String"),
    ("Resource", "'x'", "Class[Typed]: parameter 'n' expects a Resource value, got String"),
    ("Integer[0]", "-1", "Class[Typed]: parameter 'n' expects an Integer[0] value, got Integer[-1, -1]"),
    ("Variant[String[1], Integer]", "''", "Class[Typed]: parameter 'n' expects a value of type String[1] or Integer, got String"),
    ("Array[Variant[Integer,String]]", "[true]", "Class[Typed]: parameter 'n' index 0 expects a value of type Integer or String, got Boolean"),
    ("Data", "{1 => 2}", "Class[Typed]: parameter 'n' expects a Data value, got Hash"),
    ("Hash[String, Data]", "{a=>default}", "Class[Typed]: parameter 'n' entry 'a' expects a Data value, got Default"),
    ("Struct[{a=>Optional[Integer]}]", "{}", ""),
    ("Iterable", "1.5", "Class[Typed]: parameter 'n' expects an Iterable value, got Float"),
    ("Type", "1", "Class[Typed]: parameter 'n' expects a Type value, got Integer"),
    ("Boolean[true]", "false", "Class[Typed]: parameter 'n' expects a Boolean[true] value, got Boolean[false]"),
    ("ScalarData", "undef", "Class[Typed]: parameter 'n' expects a ScalarData value, got Undef"),
    ("Optional[Array[String]]", "['a', 1]", "Class[Typed]: parameter 'n' index 1 expects a String value, got Integer"),
    ("Default", "undef", "Class[Typed]: parameter 'n' expects a Default value, got Undef"),
    ("MyA", "'x'", "Class[Typed]: parameter 'n' expects a MyA = Integer[1, 2] value, got String"),
    ("Array[MyA]", "['x']", "Class[Typed]: parameter 'n' index 0 expects a MyA = Integer[1, 2] value, got String"),
    ("Tree", "['a', 1]", "Class[Typed]: parameter 'n' index 1 expects a value of type String or Tree = Array[Variant[String, Tree]], got Integer"),
    ("Variant[MyA, String[3]]", "'x'", "Class[Typed]: parameter 'n' expects a value of type MyA = Integer[1, 2] or String[3], got String"),
    ("Variant[Struct[{a=>Integer}], Array[String]]", "{a => 'x'}", "Class[Typed]:\n  parameter 'n' variant 0 entry 'a' expects an Integer value, got String\n  parameter 'n' variant 1 expects an Array value, got Struct"),
    ("Variant[Struct[{a=>Integer}], Hash[String, String]]", "{a => 1.5}", "Class[Typed]: parameter 'n' entry 'a' expects a value of type Integer or String, got Float"),
    ("Struct[{a=>Integer, b=>String}]", "{a => 'x', b => 1, c => 3}", "Class[Typed]:\n  parameter 'n' entry 'a' expects an Integer value, got String\n  parameter 'n' entry 'b' expects a String value, got Integer\n  parameter 'n' unrecognized key 'c'"),
    ("Integer", "undef", "Class[Typed]: parameter 'n' expects an Integer value, got Undef"),
    ("String", "undef", "Class[Typed]: parameter 'n' expects a String value, got Undef"),
    ("Array[String]", "'a'", "Class[Typed]: parameter 'n' expects an Array value, got String"),
    ("Hash[String,String]", "{a => 1, b => 2}", "Class[Typed]:\n  parameter 'n' entry 'a' expects a String value, got Integer\n  parameter 'n' entry 'b' expects a String value, got Integer"),
    ("Variant[Integer[1,2], Integer[5,6]]", "4", "Class[Typed]: parameter 'n' expects a value of type Integer[1, 2] or Integer[5, 6], got Integer[4, 4]"),
    ("Variant[Enum[a], Enum[b]]", "'c'", "Class[Typed]: parameter 'n' expects a match for Enum['a', 'b'], got 'c'"),
    ("Variant[Pattern[/a/], Enum[b]]", "'c'", "Class[Typed]: parameter 'n' expects a match for Variant[Pattern[/a/], Enum['b']], got 'c'"),
    ("Optional[Variant[Integer, String]]", "1.5", "Class[Typed]: parameter 'n' expects a value of type Undef, Integer, or String, got Float"),
    ("Variant[Integer, Undef]", "'x'", "Class[Typed]: parameter 'n' expects a value of type Undef or Integer, got String"),
    ("Struct[{a=>Struct[{b=>Integer}]}]", "{a=>{b=>'x'}}", "Class[Typed]: parameter 'n' entry 'a' entry 'b' expects an Integer value, got String"),
    ("Array[Struct[{a=>Integer}]]", "[{a=>'x'}]", "Class[Typed]: parameter 'n' index 0 entry 'a' expects an Integer value, got String"),
    ("Tuple[String, Integer, 1, 3]", "['a', 'b', 'c']", "Class[Typed]:\n  parameter 'n' index 1 expects an Integer value, got String\n  parameter 'n' index 1 expects an Integer value, got String"),
    ("Tuple[String, 2, 2]", "['a']", "Class[Typed]: parameter 'n' expects size to be 2, got 1"),
    ("Array[Integer, 2]", "[1]", "Class[Typed]: parameter 'n' expects size to be at least 2, got 1"),
    ("Hash[String, Integer, 1, 1]", "{a=>1, b=>2}", "Class[Typed]: parameter 'n' expects size to be 1, got 2"),
    ("Struct[{a=>Integer}]", "[]", "Class[Typed]: parameter 'n' expects a Struct value, got Array"),
    ("Struct[{a=>Integer}]", "{}", "Class[Typed]: parameter 'n' expects size to be 1, got 0"),
    ("Integer[1,5]", "'3'", "Class[Typed]: parameter 'n' expects an Integer value, got String"),
    ("Float[0.5, 1.5]", "2.5", "Class[Typed]: parameter 'n' expects a Float[0.5, 1.5] value, got Float[2.5, 2.5]"),
    ("String[1,2]", "'abc'", "Class[Typed]: parameter 'n' expects a String[1, 2] value, got String"),
    ("Enum[a,b]", "1", "Class[Typed]: parameter 'n' expects a match for Enum['a', 'b'], got Integer"),
    ("Pattern[/a/, /b/]", "'c'", "Class[Typed]: parameter 'n' expects a match for Pattern[/a/, /b/], got 'c'"),
    ("Pattern[/a/]", "1", "Class[Typed]: parameter 'n' expects a match for Pattern[/a/], got Integer"),
    ("Variant[String, Integer]", "1.5", "Class[Typed]: parameter 'n' expects a value of type String or Integer, got Float"),
    ("Variant[String, Integer, Boolean]", "1.5", "Class[Typed]: parameter 'n' expects a value of type String, Integer, or Boolean, got Float"),
    ("Optional[Struct[{a=>Integer}]]", "{a=>'x'}", "Class[Typed]: parameter 'n' entry 'a' expects an Integer value, got String"),
    ("Array[Optional[Integer]]", "['x']", "Class[Typed]: parameter 'n' index 0 expects a value of type Undef or Integer, got String"),
    ("Hash[Enum[a,b], Integer]", "{c => 1}", "Class[Typed]: parameter 'n' key of entry 'c' expects a match for Enum['a', 'b'], got 'c'"),
    ("Sensitive[Integer]", "Sensitive('x')", "Class[Typed]: parameter 'n' expects a Sensitive[Integer] value, got Sensitive[String]"),
    ("Sensitive", "'x'", "Class[Typed]: parameter 'n' expects a Sensitive value, got String"),
    ("Data", "Sensitive(1)", "Class[Typed]: parameter 'n' expects a Data value, got Sensitive"),
    ("RichData", "[Sensitive(1), 2]", ""),
    ("Array[Data]", "[1, default]", "Class[Typed]: parameter 'n' index 1 expects a Data value, got Default"),
    ("Type[String]", "Integer", "Class[Typed]: parameter 'n' expects a Type[String] value, got Type[Integer]"),
    ("Type[Class]", "File['/x']", "Class[Typed]: parameter 'n' expects a Type[Class] value, got Type[File['/x']]"),
    ("NotUndef[String]", "1", "Class[Typed]: parameter 'n' expects a String value, got Integer"),
    ("NotUndef[Integer]", "undef", "Class[Typed]: parameter 'n' expects an Integer value, got Undef"),
    ("Iterable[String]", "[1]", "Class[Typed]: parameter 'n' expects an Iterable[String] value, got Tuple"),
    ("Collection", "'a'", "Class[Typed]: parameter 'n' expects a Collection value, got String"),
    ("Array[String]", "[1, 2, 'a', 3]", "Class[Typed]:\n  parameter 'n' index 0 expects a String value, got Integer\n  parameter 'n' index 1 expects a String value, got Integer\n  parameter 'n' index 3 expects a String value, got Integer"),
    ("Struct[{a=>Integer, b=>Integer}]", "{a=>'x', b=>'y'}", "Class[Typed]:\n  parameter 'n' entry 'a' expects an Integer value, got String\n  parameter 'n' entry 'b' expects an Integer value, got String"),
    ("Variant[Array[String], Hash[String, String]]", "[1]", "Class[Typed]:\n  parameter 'n' variant 0 index 0 expects a String value, got Integer\n  parameter 'n' variant 1 expects a Hash value, got Tuple"),
    ("Optional[Hash[String,Integer]]", "{a=>'b'}", "Class[Typed]: parameter 'n' entry 'a' expects an Integer value, got String"),
    ("Tuple[Integer, Integer]", "['a', 'b']", "Class[Typed]:\n  parameter 'n' index 0 expects an Integer value, got String\n  parameter 'n' index 1 expects an Integer value, got String"),
    ("Integer[default, 0]", "5", "Class[Typed]: parameter 'n' expects an Integer[default, 0] value, got Integer[5, 5]"),
    ("Float", "'1.0'", "Class[Typed]: parameter 'n' expects a Float value, got String"),
    ("Numeric", "undef", "Class[Typed]: parameter 'n' expects a Numeric value, got Undef"),
];

/// `notice(VALUE =~ TYPE)`.
const INSTANCE: &[(&str, &str, bool)] = &[
    ("1", "Integer", true),
    ("1", "Float", false),
    ("1.0", "Float", true),
    ("1", "Numeric", true),
    ("'a'", "String[1]", true),
    ("''", "String[1]", false),
    ("'a'", "Enum[a,b]", true),
    ("'A'", "Enum[a,b]", false),
    ("'A'", "Enum[a,b,true]", true),
    ("'abc'", "Pattern[/b/]", true),
    ("'abc'", "Pattern[/^b/]", false),
    ("\"a\\nb\"", "Pattern[/^b$/]", true),
    ("\"a\\nb\"", "Pattern[/\\Ab\\z/]", false),
    ("'b\\n'", "Pattern[/b\\Z/]", false),
    ("'é'", "Pattern[/\\w/]", false),
    ("'é'", "Pattern[/[[:alpha:]]/]", true),
    ("'x1'", "Pattern[/\\d/]", true),
    ("'abcabc'", "Pattern[/(abc)\\1/]", true),
    ("'ab'", "Pattern[/a(?=b)/]", true),
    ("\"a\\nb\"", "Pattern[/a.b/]", false),
    ("\"a\\nb\"", "Pattern[/(?m)a.b/]", true),
    ("'FOO'", "Pattern[/(?i)foo/]", true),
    ("'af'", "Pattern[/\\h/]", true),
    ("undef", "Optional[Integer]", true),
    ("undef", "Optional", true),
    ("1", "Optional", false),
    ("undef", "NotUndef", false),
    ("1", "NotUndef", true),
    ("[1,2]", "Array[Integer]", true),
    ("[1,'a']", "Array[Integer]", false),
    ("[]", "Array[Integer, 1]", false),
    ("{a=>1}", "Hash[String,Integer]", true),
    ("{a=>1}", "Struct[{a=>Integer}]", true),
    ("{}", "Struct[{Optional[a]=>Integer}]", true),
    ("{}", "Struct[{a=>Optional[Integer]}]", true),
    ("{a=>undef}", "Struct[{a=>Optional[Integer]}]", true),
    ("{a=>undef}", "Struct[{Optional[a]=>Integer}]", false),
    ("{}", "Struct[{NotUndef[a]=>Optional[Integer]}]", false),
    ("[1,'a']", "Tuple[Integer,String]", true),
    ("[1,'a','b']", "Tuple[Integer,String,1,3]", true),
    ("[1]", "Tuple[Integer,String,1,3]", true),
    ("/a/", "Regexp", true),
    ("/a/", "Regexp[/a/]", true),
    ("/a/", "Regexp[/b/]", false),
    ("true", "Boolean", true),
    ("true", "Boolean[false]", false),
    ("default", "Default", true),
    ("undef", "Undef", true),
    ("'a'", "Scalar", true),
    ("/a/", "Scalar", true),
    ("/a/", "ScalarData", false),
    ("undef", "Scalar", false),
    ("default", "Scalar", false),
    ("[1]", "Scalar", false),
    ("Integer", "Scalar", false),
    ("{a=>[1,{b=>undef}]}", "Data", true),
    ("{1=>2}", "Data", false),
    ("{1=>2}", "RichData", true),
    ("[default]", "Data", false),
    ("[default]", "RichData", true),
    ("Integer", "RichData", true),
    ("/x/", "RichData", true),
    ("Integer", "Type", true),
    ("Integer[1,2]", "Type[Integer]", true),
    ("String", "Type[Integer]", false),
    ("File['/x']", "Type[File]", true),
    ("File['/x']", "Type[Resource]", true),
    ("File['/x']", "Resource", false),
    ("File['/x']", "CatalogEntry", false),
    ("Class[a]", "Type[Class]", true),
    ("Class[a]", "Type[Class[b]]", false),
    ("Class[a]", "Type[CatalogEntry]", true),
    ("File['/x']", "Type[File['/y']]", false),
    ("File['/x']", "Type[File['/x']]", true),
    ("File['/x']", "Type[Resource['file']]", true),
    ("Integer", "Object", true),
    ("1", "Object", false),
    ("[1]", "Collection[1]", true),
    ("{}", "Collection[1]", false),
    ("'a'", "Iterable", true),
    ("1", "Iterable", true),
    ("-1", "Iterable", false),
    ("[1]", "Iterable[Integer]", true),
    ("['a']", "Iterable[Integer]", false),
    ("Integer[1,3]", "Iterable", true),
    ("Integer", "Iterable", false),
    ("Enum[a]", "Iterable", true),
    ("'abc'", "Iterable[String]", true),
    ("{a=>1}", "Iterable[Tuple[String,Integer]]", true),
    ("Sensitive(1)", "Sensitive", true),
    ("Sensitive(1)", "Sensitive[Integer]", true),
    ("Sensitive(1)", "Sensitive[String]", false),
    ("1", "Sensitive", false),
    ("1", "Variant[String, Integer]", true),
    ("1", "MyA", true),
    ("3", "MyA", false),
    ("['a', ['b', ['c']]]", "Tree", true),
    ("['a', [1]]", "Tree", false),
    ("1", "Any", true),
    ("undef", "Any", true),
    ("1", "Callable", false),
    ("1", "Init[Integer]", true),
    ("'x'", "Iterator", false),
    ("'a'", "Variant", false),
    ("1", "Runtime", false),
];

/// `notice(A <= B)`: is A assignable to B (B.assignable?(A)).
const ASSIGNABLE: &[(&str, &str, bool)] = &[
    ("Integer[1,2]", "Integer", true),
    ("Integer", "Integer[1,2]", false),
    ("Integer", "Numeric", true),
    ("Float", "Numeric", true),
    ("Numeric", "Integer", false),
    ("Integer", "Float", false),
    ("Integer", "Scalar", true),
    ("Integer", "ScalarData", true),
    ("Regexp", "ScalarData", false),
    ("Regexp", "Scalar", true),
    ("String[1]", "String", true),
    ("String", "String[1]", false),
    ("String[1,2]", "String[0,5]", true),
    ("Enum[a,b]", "String", true),
    ("Enum[a,bc]", "String[1,1]", false),
    ("Enum[a,bc]", "String[1,2]", true),
    ("Enum[a]", "Enum[a,b]", true),
    ("Enum[a,b]", "Enum[a]", false),
    ("Enum[a,b,true]", "Enum[a,b]", false),
    ("Enum[a,b]", "Enum[a,b,true]", true),
    ("Pattern[/a/]", "String", true),
    ("String", "Pattern[/a/]", false),
    ("Enum[abc]", "Pattern[/b/]", true),
    ("Pattern[/a/]", "Pattern", true),
    ("Undef", "Optional[String]", true),
    ("String", "Optional[String]", true),
    ("Optional[String]", "String", false),
    ("Optional[String]", "NotUndef", false),
    ("String", "NotUndef", true),
    ("Undef", "NotUndef", false),
    ("NotUndef[String]", "String", true),
    ("Array[Integer]", "Array[Numeric]", true),
    ("Array[Numeric]", "Array[Integer]", false),
    ("Array[Integer,1,2]", "Array[Integer]", true),
    ("Array[Integer]", "Array[Integer,1,2]", false),
    ("Tuple[Integer,String]", "Array[Scalar]", true),
    ("Tuple[Integer,String]", "Array[Integer]", false),
    ("Array[Integer]", "Tuple[Integer,Integer]", false),
    ("Array[Integer,2,2]", "Tuple[Integer,Integer]", true),
    ("Array[Integer,2,2]", "Tuple[Integer,2]", true),
    ("Tuple[Integer]", "Tuple[Numeric]", true),
    ("Tuple[Integer, 0]", "Tuple[Integer]", false),
    ("Hash[String,Integer]", "Hash[String,Numeric]", true),
    ("Hash[0,0]", "Hash[String,Integer]", true),
    ("Hash[0,0]", "Hash[String,Integer,1]", false),
    ("Struct[{a=>Integer}]", "Hash[String,Integer]", true),
    ("Struct[{a=>Integer}]", "Hash[String,String]", false),
    ("Hash[String,Integer]", "Struct[{a=>Integer}]", false),
    ("Hash[String,Integer,1,1]", "Struct[{a=>Integer}]", true),
    ("Struct[{a=>Integer}]", "Struct[{a=>Numeric}]", true),
    (
        "Struct[{a=>Integer}]",
        "Struct[{a=>Integer, Optional[b]=>String}]",
        true,
    ),
    (
        "Struct[{a=>Integer, b=>String}]",
        "Struct[{a=>Integer}]",
        false,
    ),
    (
        "Struct[{a=>Integer}]",
        "Struct[{Optional[a]=>Integer}]",
        true,
    ),
    (
        "Struct[{Optional[a]=>Integer}]",
        "Struct[{a=>Integer}]",
        false,
    ),
    ("Array[Integer]", "Collection", true),
    ("Hash", "Collection[1]", false),
    ("Tuple[Integer]", "Collection[1,1]", true),
    ("Struct[{a=>Integer}]", "Collection[2]", false),
    ("Integer", "Variant[Integer,String]", true),
    ("Variant[Integer,String]", "Scalar", true),
    ("Variant[Integer,Undef]", "Scalar", false),
    ("Variant[Integer,String]", "Integer", false),
    ("Variant", "Integer", false),
    ("Integer", "Variant", false),
    ("Undef", "Variant", false),
    ("Optional[Integer]", "Variant[Integer, Undef]", true),
    ("Data", "RichData", true),
    ("RichData", "Data", false),
    ("Data", "Data", true),
    ("Array[Data]", "Data", true),
    ("Hash[String, Array[Data]]", "Data", true),
    ("Hash[Integer, String]", "Data", false),
    ("Hash[Integer, String]", "RichData", true),
    ("Undef", "Data", true),
    ("Default", "Data", false),
    ("Type", "RichData", true),
    ("Integer", "Data", true),
    ("Data", "Any", true),
    ("Any", "Data", false),
    ("Class[a]", "Class", true),
    ("Class", "Class[a]", false),
    ("Class[a]", "CatalogEntry", true),
    ("File", "Resource", true),
    ("File['/x']", "File", true),
    ("File", "File['/x']", false),
    ("Resource[file]", "File", true),
    ("File", "CatalogEntry", true),
    ("Type[Integer]", "Type", true),
    ("Type[Integer]", "Type[Numeric]", true),
    ("Type", "Type[Integer]", false),
    ("Sensitive[Integer]", "Sensitive", true),
    ("Sensitive", "Sensitive[Integer]", false),
    ("Integer", "Iterable", true),
    ("String", "Iterable[String]", true),
    ("Array[Integer]", "Iterable[Numeric]", true),
    ("Array", "Iterable[Numeric]", false),
    (
        "Hash[String,Integer]",
        "Iterable[Tuple[String,Integer]]",
        true,
    ),
    ("Boolean", "Iterable", false),
    ("Type[Enum[a]]", "Iterable", true),
    ("Type[Integer[1,2]]", "Iterable", true),
    ("Type[Integer]", "Iterable", false),
    ("Boolean[true]", "Boolean", true),
    ("Boolean", "Boolean[true]", false),
    ("Regexp[/a/]", "Regexp", true),
    ("Regexp", "Regexp[/a/]", false),
    ("MyA", "Integer", true),
    ("Integer", "MyA", false),
    ("Integer[1,1]", "MyA", true),
    ("Tree", "Tree", true),
    ("Tree", "Array", true),
    ("Array[String]", "Tree", true),
    ("Array[Integer]", "Tree", false),
    ("Tree", "Data", true),
    ("Data", "Tree", false),
    ("Default", "Scalar", false),
    ("Callable", "Callable", true),
    ("Callable[String]", "Callable", true),
    ("Callable", "Callable[String]", false),
    ("Callable[Numeric]", "Callable[Integer]", true),
    ("Callable[Integer]", "Callable[Numeric]", false),
    ("Float[1.0, 2.0]", "Float", true),
    ("Float", "Float[1.0,2.0]", false),
    ("Timespan", "Scalar", true),
    ("SemVer", "Scalar", true),
    ("SemVerRange", "Scalar", true),
    ("NotUndef[Integer]", "Integer", true),
    ("Integer", "NotUndef[Integer]", true),
    ("Optional[Integer]", "NotUndef[Integer]", false),
    ("Variant[Integer[1,2], Integer[3,4]]", "Integer[1,4]", true),
    ("Integer[1,4]", "Variant[Integer[1,2], Integer[3,4]]", false),
    ("Enum[a]", "Enum", true),
    ("String", "Enum", true),
    ("Pattern", "Enum", true),
    ("Integer", "Enum", false),
    ("Any", "Any", true),
    ("Integer", "Any", true),
    ("Object", "Any", true),
    ("Init[Integer]", "Init", true),
    ("RichDataKey", "Scalar", true),
];

/// `notice(A == B)` on types.
const EQUAL: &[(&str, &str, bool)] = &[
    ("Optional[Integer]", "Variant[Integer, Undef]", true),
    ("Enum[b,a]", "Enum[a,b]", true),
    ("Variant[Integer,String]", "Variant[String,Integer]", true),
    ("Resource[file]", "File", true),
    ("Integer", "Integer", true),
    ("Integer[1,2]", "Integer[1,2]", true),
    ("Integer", "Integer[default,default]", true),
    ("Array[Any]", "Array", true),
    ("Hash[Any,Any]", "Hash", true),
    ("Pattern[/a/,/b/]", "Pattern[/b/,/a/]", true),
    ("Struct[{a=>Integer}]", "Struct[{a=>Integer}]", true),
    (
        "Struct[{a=>Integer, b=>String}]",
        "Struct[{b=>String, a=>Integer}]",
        true,
    ),
    ("Tuple[Integer,String]", "Tuple[String,Integer]", false),
    ("File['a']", "File['A']", false),
    ("Data", "Data", true),
    ("Sensitive[Integer[1,2]]", "Sensitive[Integer]", true),
    ("NotUndef[Any]", "NotUndef", true),
    ("MyA", "Integer[1,2]", true),
    ("Float[1,2]", "Float[1.0,2.0]", true),
];

/// `notice(type(VALUE, METHOD))`: Puppet's inference, `detailed`
/// ([`infer_set`]), `reduced` ([`infer`]) and `generalized`
/// ([`infer_generic`]).
const INFER: &[(&str, &str, &str)] = &[
    ("1", "detailed", "Integer[1, 1]"),
    ("1", "reduced", "Integer[1, 1]"),
    ("1", "generalized", "Integer"),
    ("1.5", "detailed", "Float[1.5, 1.5]"),
    ("1.5", "reduced", "Float[1.5, 1.5]"),
    ("1.5", "generalized", "Float"),
    ("'a'", "detailed", "String"),
    ("'a'", "reduced", "String"),
    ("'a'", "generalized", "String"),
    ("''", "detailed", "String"),
    ("''", "reduced", "String"),
    ("''", "generalized", "String"),
    ("true", "detailed", "Boolean[true]"),
    ("true", "reduced", "Boolean[true]"),
    ("true", "generalized", "Boolean"),
    ("undef", "detailed", "Undef"),
    ("undef", "reduced", "Undef"),
    ("undef", "generalized", "Undef"),
    ("default", "detailed", "Default"),
    ("default", "reduced", "Default"),
    ("default", "generalized", "Default"),
    ("/a/", "detailed", "Regexp[/a/]"),
    ("/a/", "reduced", "Regexp[/a/]"),
    ("/a/", "generalized", "Regexp[/a/]"),
    ("[]", "detailed", "Array[0, 0]"),
    ("[]", "reduced", "Array[0, 0]"),
    ("[]", "generalized", "Array[Unit]"),
    ("{}", "detailed", "Hash[0, 0]"),
    ("{}", "reduced", "Hash[0, 0]"),
    ("{}", "generalized", "Hash[0, 0]"),
    ("[1, 2]", "detailed", "Tuple[Integer[1, 1], Integer[2, 2]]"),
    ("[1, 2]", "reduced", "Array[Integer[1, 2], 2, 2]"),
    ("[1, 2]", "generalized", "Array[Integer]"),
    ("[1, 'a']", "detailed", "Tuple[Integer[1, 1], String]"),
    ("[1, 'a']", "reduced", "Array[ScalarData, 2, 2]"),
    ("[1, 'a']", "generalized", "Array[ScalarData]"),
    (
        "[1, 2.5]",
        "detailed",
        "Tuple[Integer[1, 1], Float[2.5, 2.5]]",
    ),
    ("[1, 2.5]", "reduced", "Array[Numeric, 2, 2]"),
    ("[1, 2.5]", "generalized", "Array[Numeric]"),
    ("['a', 'bb']", "detailed", "Tuple[String, String]"),
    ("['a', 'bb']", "reduced", "Array[Enum['a', 'bb'], 2, 2]"),
    ("['a', 'bb']", "generalized", "Array[String[1, 2]]"),
    (
        "[1, [2]]",
        "detailed",
        "Tuple[Integer[1, 1], Tuple[Integer[2, 2]]]",
    ),
    ("[1, [2]]", "reduced", "Array[Data, 2, 2]"),
    ("[1, [2]]", "generalized", "Array[Data]"),
    ("{a => 1}", "detailed", "Struct[{'a' => Integer[1, 1]}]"),
    ("{a => 1}", "reduced", "Hash[String, Integer[1, 1], 1, 1]"),
    ("{a => 1}", "generalized", "Hash[String, Integer]"),
    (
        "{a => 1, b => 'x'}",
        "detailed",
        "Struct[{'a' => Integer[1, 1], 'b' => String}]",
    ),
    (
        "{a => 1, b => 'x'}",
        "reduced",
        "Hash[Enum['a', 'b'], ScalarData, 2, 2]",
    ),
    (
        "{a => 1, b => 'x'}",
        "generalized",
        "Hash[String[1, 1], ScalarData]",
    ),
    (
        "{1 => 'a'}",
        "detailed",
        "Hash[Integer[1, 1], String, 1, 1]",
    ),
    ("{1 => 'a'}", "reduced", "Hash[Integer[1, 1], String, 1, 1]"),
    ("{1 => 'a'}", "generalized", "Hash[Integer, String]"),
    ("{'' => 1}", "detailed", "Hash[String, Integer[1, 1], 1, 1]"),
    ("{'' => 1}", "reduced", "Hash[String, Integer[1, 1], 1, 1]"),
    ("{'' => 1}", "generalized", "Hash[String, Integer]"),
    (
        "{a => [1, {b => 'c'}]}",
        "detailed",
        "Struct[{'a' => Tuple[Integer[1, 1], Struct[{'b' => String}]]}]",
    ),
    (
        "{a => [1, {b => 'c'}]}",
        "reduced",
        "Hash[String, Array[Data, 2, 2], 1, 1]",
    ),
    (
        "{a => [1, {b => 'c'}]}",
        "generalized",
        "Hash[String, Array[Data]]",
    ),
    ("Integer", "detailed", "Type[Integer]"),
    ("Integer", "reduced", "Type[Integer]"),
    ("Integer", "generalized", "Type[Integer]"),
    (
        "[Integer, String]",
        "detailed",
        "Tuple[Type[Integer], Type[String]]",
    ),
    (
        "[Integer, String]",
        "reduced",
        "Array[Type[ScalarData], 2, 2]",
    ),
    (
        "[Integer, String]",
        "generalized",
        "Array[Type[ScalarData]]",
    ),
    ("File['/x']", "detailed", "Type[File['/x']]"),
    ("File['/x']", "reduced", "Type[File['/x']]"),
    ("File['/x']", "generalized", "Type[File['/x']]"),
    ("Class[a]", "detailed", "Type[Class[a]]"),
    ("Class[a]", "reduced", "Type[Class[a]]"),
    ("Class[a]", "generalized", "Type[Class[a]]"),
    (
        "[File['/x'], File['/y']]",
        "detailed",
        "Tuple[Type[File['/x']], Type[File['/y']]]",
    ),
    (
        "[File['/x'], File['/y']]",
        "reduced",
        "Array[Type[File], 2, 2]",
    ),
    (
        "[File['/x'], File['/y']]",
        "generalized",
        "Array[Type[File]]",
    ),
    (
        "[File['/x'], Class[a]]",
        "detailed",
        "Tuple[Type[File['/x']], Type[Class[a]]]",
    ),
    (
        "[File['/x'], Class[a]]",
        "reduced",
        "Array[Type[Any], 2, 2]",
    ),
    ("[File['/x'], Class[a]]", "generalized", "Array[Type[Any]]"),
    ("Sensitive(1)", "detailed", "Sensitive[Integer]"),
    ("Sensitive(1)", "reduced", "Sensitive[Integer]"),
    ("Sensitive(1)", "generalized", "Sensitive[Integer]"),
    ("[undef, 1]", "detailed", "Tuple[Undef, Integer[1, 1]]"),
    ("[undef, 1]", "reduced", "Array[Integer[1, 1], 2, 2]"),
    ("[undef, 1]", "generalized", "Array[Integer]"),
    (
        "[true, false]",
        "detailed",
        "Tuple[Boolean[true], Boolean[false]]",
    ),
    ("[true, false]", "reduced", "Array[ScalarData, 2, 2]"),
    ("[true, false]", "generalized", "Array[ScalarData]"),
    ("[/a/, /b/]", "detailed", "Tuple[Regexp[/a/], Regexp[/b/]]"),
    ("[/a/, /b/]", "reduced", "Array[Regexp, 2, 2]"),
    ("[/a/, /b/]", "generalized", "Array[Regexp]"),
    (
        "[1, undef, 'a']",
        "detailed",
        "Tuple[Integer[1, 1], Undef, String]",
    ),
    ("[1, undef, 'a']", "reduced", "Array[ScalarData, 3, 3]"),
    ("[1, undef, 'a']", "generalized", "Array[ScalarData]"),
    ("['a', 'A']", "detailed", "Tuple[String, String]"),
    ("['a', 'A']", "reduced", "Array[Enum['A', 'a'], 2, 2]"),
    ("['a', 'A']", "generalized", "Array[String[1, 1]]"),
    (
        "[[1], ['a']]",
        "detailed",
        "Tuple[Tuple[Integer[1, 1]], Tuple[String]]",
    ),
    ("[[1], ['a']]", "reduced", "Array[Array[ScalarData], 2, 2]"),
    ("[[1], ['a']]", "generalized", "Array[Array[ScalarData]]"),
    (
        "[{a=>1}, {b=>2}]",
        "detailed",
        "Tuple[Struct[{'a' => Integer[1, 1]}], Struct[{'b' => Integer[2, 2]}]]",
    ),
    (
        "[{a=>1}, {b=>2}]",
        "reduced",
        "Array[Hash[Enum['a', 'b'], Integer[1, 2]], 2, 2]",
    ),
    (
        "[{a=>1}, {b=>2}]",
        "generalized",
        "Array[Hash[String[1, 1], Integer]]",
    ),
    (
        "{a => undef}",
        "detailed",
        "Struct[{NotUndef['a'] => Undef}]",
    ),
    ("{a => undef}", "reduced", "Hash[String, Undef, 1, 1]"),
    ("{a => undef}", "generalized", "Hash[String, Undef]"),
    ("[1, default]", "detailed", "Tuple[Integer[1, 1], Default]"),
    ("[1, default]", "reduced", "Array[RichData, 2, 2]"),
    ("[1, default]", "generalized", "Array[RichData]"),
    ("-5", "detailed", "Integer[-5, -5]"),
    ("-5", "reduced", "Integer[-5, -5]"),
    ("-5", "generalized", "Integer"),
    (
        "[Integer[1,2], Integer[3,4]]",
        "detailed",
        "Tuple[Type[Integer[1, 2]], Type[Integer[3, 4]]]",
    ),
    (
        "[Integer[1,2], Integer[3,4]]",
        "reduced",
        "Array[Type[Integer[1, 4]], 2, 2]",
    ),
    (
        "[Integer[1,2], Integer[3,4]]",
        "generalized",
        "Array[Type[Integer]]",
    ),
    (
        "{1 => 2, 'a' => 'b'}",
        "detailed",
        "Hash[Variant[Integer[1, 1], String], Variant[Integer[2, 2], String], 2, 2]",
    ),
    (
        "{1 => 2, 'a' => 'b'}",
        "reduced",
        "Hash[ScalarData, ScalarData, 2, 2]",
    ),
    (
        "{1 => 2, 'a' => 'b'}",
        "generalized",
        "Hash[ScalarData, ScalarData]",
    ),
    (
        "[Sensitive(1), Sensitive('a')]",
        "detailed",
        "Tuple[Sensitive[Integer], Sensitive[String]]",
    ),
    (
        "[Sensitive(1), Sensitive('a')]",
        "reduced",
        "Array[RichData, 2, 2]",
    ),
    (
        "[Sensitive(1), Sensitive('a')]",
        "generalized",
        "Array[RichData]",
    ),
    ("[[]]", "detailed", "Tuple[Array[0, 0]]"),
    ("[[]]", "reduced", "Array[Array[0, 0], 1, 1]"),
    ("[[]]", "generalized", "Array[Array[Unit]]"),
    ("[{}]", "detailed", "Tuple[Hash[0, 0]]"),
    ("[{}]", "reduced", "Array[Hash[0, 0], 1, 1]"),
    ("[{}]", "generalized", "Array[Hash[0, 0]]"),
];

/// `assert_type(TYPE, VALUE)`: Puppet's message (after `Error while
/// evaluating a Function Call, `), from [`describe_mismatch_named`].
const ASSERT: &[(&str, &str, &str)] = &[
    (
        "Integer",
        "'x'",
        "assert_type(): expects an Integer value, got String",
    ),
    (
        "Array[String]",
        "[1]",
        "assert_type(): index 0 expects a String value, got Integer",
    ),
    (
        "Struct[{a=>Integer}]",
        "{b=>1}",
        " assert_type(): expects a value for key 'a'\n  assert_type(): unrecognized key 'b'",
    ),
    (
        "Optional[String]",
        "1",
        "assert_type(): expects a value of type Undef or String, got Integer",
    ),
    (
        "Enum[a,b]",
        "'c'",
        "assert_type(): expects a match for Enum['a', 'b'], got 'c'",
    ),
    (
        "Variant[Integer, String]",
        "[1]",
        "assert_type(): expects a value of type Integer or String, got Tuple",
    ),
    (
        "Array[Integer, 2]",
        "[1]",
        "assert_type(): expects size to be at least 2, got 1",
    ),
    (
        "Hash[String, Integer]",
        "{a=>1, b=>'x'}",
        "assert_type(): entry 'b' expects an Integer value, got String",
    ),
    (
        "Tuple[Integer, String]",
        "[1, 2, 3]",
        "assert_type(): expects size to be 2, got 3",
    ),
    (
        "MyA",
        "5",
        "assert_type(): expects a MyA = Integer[1, 2] value, got Integer[5, 5]",
    ),
    (
        "Data",
        "default",
        "assert_type(): expects a Data value, got Default",
    ),
];

/// `$x = EXPR`: Puppet's error for bad type arguments (after
/// `Evaluation Error: `), or the printed result.
const ACCESS: &[(&str, &str)] = &[
    ("Integer[5,1]", "ERROR: Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (5, 1"),
    ("Integer['a']", "ERROR: Integer-Type [] requires all arguments to be integers (or default). Got String"),
    ("Integer[1,2,3]", "ERROR: Integer-Type supports [] with one or two arguments (from, to). Got 3"),
    ("Array['x']", "ERROR: Array-Type[] arguments must be types. Got String"),
    ("Enum[1]", "ERROR: Error creating type specialization of an Enum-Type, Cannot use Integer where String is expected"),
    ("Numeric[1]", "ERROR: Operator '[]' is not applicable to a Numeric-Type."),
    ("Data[1]", "ERROR: Operator '[]' is not applicable to a Data-Type."),
    ("Optional[1]", "ERROR: Optional-Type[] arguments must be types. Got Integer"),
    ("Variant[1]", "ERROR: Error creating type specialization of a Variant-Type, Cannot use Integer where Any-Type is expected"),
    ("Struct[{'' => Integer}]", "ERROR: Error while evaluating a '[]' expression, Struct element key cannot be an empty String"),
    ("Struct[{Integer => Integer}]", "ERROR: Error while evaluating a '[]' expression, Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: Puppet::Pops::Types::PIntegerType"),
    ("Class[Foo, bar]", "ERROR: Illegal Class name in class reference. A TypeReference['Foo']-Type cannot be used where a String is expected"),
    ("Class[1]", "ERROR: Illegal Class name in class reference. An Integer cannot be used where a String is expected"),
    ("Resource[1]", "ERROR: First argument to Resource[] must be a resource type or a String. Got Integer."),
    ("Resource['f-o']", "ERROR: Illegal type reference. The given name 'F-o' does not conform to the naming rule"),
    ("File[1]", "ERROR: Error creating type specialization of a File-Type, Cannot use Integer where a resource title String is expected"),
    ("Pattern[1]", "ERROR: Error creating type specialization of a Pattern-Type, Cannot use Integer where String or Regexp or Pattern-Type or Regexp-Type is expected"),
    ("Pattern['a(', /b/]", "ERROR: Error while evaluating a '[]' expression, end pattern with unmatched parenthesis: /a(/"),
    ("Regexp['a', 'b']", "ERROR: A Regexp-Type[] accepts 1 argument. Got 2"),
    ("Boolean[1]", "ERROR: Error creating type specialization of a Boolean-Type, Cannot use Integer where TrueClass or FalseClass is expected"),
    ("Float[1, 'x']", "ERROR: Float-Type [] requires all arguments to be floats, or integers (or default). Got String"),
    ("Type[1]", "ERROR: Type-Type[] arguments must be types. Got Integer"),
    ("NotUndef[1]", "ERROR: NotUndef-Type[] argument must be a Type or a String. Got Integer"),
    ("Sensitive[1]", "ERROR: Sensitive-Type[] arguments must be types. Got Integer"),
    ("Hash[String]", "ERROR: Hash-Type[] accepts 2 to 4 arguments. Got 1"),
    ("String[1,2,3]", "ERROR: String supports [] with one or two arguments. Got 3"),
    ("Scalar[1]", "ERROR: Operator '[]' is not applicable to a Scalar-Type."),
    ("Any[1]", "ERROR: Operator '[]' is not applicable to an Any-Type."),
    ("Undef[1]", "ERROR: Operator '[]' is not applicable to an Undef-Type."),
    ("CatalogEntry[1]", "ERROR: Operator '[]' is not applicable to a CatalogEntry-Type."),
    ("Tuple[1]", "ERROR: A Tuple-Type[] accepts 1 or more arguments. Got 0"),
    ("Optional[String, Integer]", "ERROR: Optional-Type[] accepts 1 argument. Got 2"),
    ("Type[String, Integer]", "ERROR: Type-Type[] accepts 1 argument. Got 2"),
    ("Array[String, 'x']", "ERROR: A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got a String"),
    ("Array[String, 1, 'x']", "ERROR: A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got a String"),
    ("Hash[String, Integer, 'x', 2]", "ERROR: A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got a String"),
    ("String['x']", "ERROR: A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got a String"),
    ("Collection['x']", "ERROR: A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got a String"),
    ("Collection[1,2,3]", "ERROR: Collection-Type[] accepts 1 to 2 arguments. Got 3"),
    ("Array[1,2,3,4]", "ERROR: Array-Type[] accepts 1 to 3 arguments. Got 4"),
    ("Float[2.0, 1.0]", "ERROR: Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (2.0, 1.0"),
    ("Hash[2, 1]", "ERROR: Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (2, 1"),
    ("String[5, 1]", "ERROR: Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (5, 1"),
    ("Struct[1]", "ERROR: Error creating type specialization of a Struct-Type, Cannot use Integer where Hash is expected"),
    ("Struct[{a=>Integer}, {b=>String}]", "ERROR: A Struct-Type[] accepts 1 argument. Got 2"),
    ("Enum[a, 1]", "ERROR: Error creating type specialization of an Enum-Type, Cannot use Integer where String is expected"),
    ("Variant[Integer, 'x']", "ERROR: Error creating type specialization of a Variant-Type, Cannot use String where Any-Type is expected"),
    ("Boolean[true, false]", "ERROR: A Boolean-Type[] accepts 1 argument. Got 2"),
    ("Class[[a, b]]", "[Class[a], Class[b]]"),
    ("Class['a-b']", "ERROR: Illegal name. The given name 'a-b' does not conform to the naming rule /^((::)?[a-z_]\\w*)(::[a-z]\\w*)*$/"),
    ("Class[undef]", ""),
    ("Resource[undef]", "ERROR: First argument to Resource[] must be a resource type or a String. Got Undef."),
    ("File[undef]", ""),
    ("File[[]]", "[]"),
    ("Resource['file', 1]", "ERROR: Error creating type specialization of a Resource-Type, Cannot use Integer where a resource title String is expected"),
    ("Resource[Integer]", "ERROR: First argument to Resource[] must be a resource type or a String. Got Type[Integer]."),
    ("Runtime[1]", "ERROR: A Runtime-Type[] accepts 1 to 2 arguments. Got 1"),
    ("Iterable[1]", "ERROR: Iterable-Type[] arguments must be types. Got Integer"),
    ("Iterator[1, 2]", "ERROR: Iterator-Type[] accepts 1 argument. Got 2"),
    ("Pattern[Regexp[/a/], Pattern[/b/, /c/]]", "Pattern[/a/, /b/, /c/]"),
    ("Struct[{Optional['a'] => Integer, NotUndef['b'] => Optional[Integer]}]", "Struct[{Optional['a'] => Integer, NotUndef['b'] => Optional[Integer]}]"),
    ("Callable[String, 'x']", "Callable[String, Runtime[ruby, 'x']]"),
    ("Tuple[Integer, 3, 1]", "ERROR: Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (3, 1"),
    ("Integer[1.5]", "ERROR: Integer-Type [] requires all arguments to be integers (or default). Got Float"),
    ("Float['a']", "ERROR: Float-Type [] requires all arguments to be floats, or integers (or default). Got String"),
    ("NotUndef[String, Integer]", "ERROR: NotUndef-Type[] accepts 0 to 1 arguments. Got 2"),
    ("Sensitive[String, Integer]", "ERROR: Sensitive-Type[] accepts 1 argument. Got 2"),
    ("Init[1]", "ERROR: Init-Type[] arguments must be types. Got Integer"),
];

#[test]
fn display_as_puppet() {
    let mut failures = Vec::new();
    for (src, expected) in DISPLAY {
        let got = match lit(src) {
            Ok(v) => display_value(&v),
            Err(e) => format!("ERROR: {e}"),
        };
        if got != *expected {
            failures.push(format!("{src}: got {got:?}, Puppet {expected:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        DISPLAY.len(),
        failures.join("\n")
    );
}

/// A value as `notice` prints it at the top level (types alias-expanded).
fn display_value(v: &Value) -> String {
    match v {
        Value::Type(t) => t.to_string(),
        Value::Array(items) => {
            format!(
                "[{}]",
                items
                    .iter()
                    .map(display_value)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        other => other.to_string(),
    }
}

#[test]
fn mismatch_messages_as_puppet() {
    let mut failures = Vec::new();
    for (t, v, expected) in MISMATCH {
        let params = [ParamSpec {
            name: "n".into(),
            ty: ty(t),
            optional: false,
        }];
        let got = match validate_parameters("Class[Typed]", &params, &[("n".into(), val(v))], false)
        {
            Ok(()) => String::new(),
            Err(e) => e,
        };
        if got != *expected {
            failures.push(format!(
                "{t} / {v}:\n   got    {got:?}\n   Puppet {expected:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        MISMATCH.len(),
        failures.join("\n")
    );
}

#[test]
fn instance_as_puppet() {
    let mut failures = Vec::new();
    for (v, t, expected) in INSTANCE {
        let got = is_instance(&ty(t), &val(v));
        if got != *expected {
            failures.push(format!("{v} =~ {t}: got {got}, Puppet {expected}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        INSTANCE.len(),
        failures.join("\n")
    );
}

#[test]
fn assignable_as_puppet() {
    let mut failures = Vec::new();
    for (a, b, expected) in ASSIGNABLE {
        let got = is_assignable(&ty(b), &ty(a));
        if got != *expected {
            failures.push(format!("{a} <= {b}: got {got}, Puppet {expected}"));
        }
    }
    for (a, b, expected) in EQUAL {
        let got = types_equal(&ty(a), &ty(b));
        if got != *expected {
            failures.push(format!("{a} == {b}: got {got}, Puppet {expected}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn access_as_puppet() {
    let mut failures = Vec::new();
    for (src, expected) in ACCESS {
        let got = match lit(src) {
            Ok(v) => display_value(&v),
            Err(e) => format!("ERROR: {e}"),
        };
        if got != *expected {
            failures.push(format!("{src}:\n   got    {got:?}\n   Puppet {expected:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        ACCESS.len(),
        failures.join("\n")
    );
}

#[test]
fn inference_as_puppet() {
    let mut failures = Vec::new();
    for (v, method, expected) in INFER {
        let value = val(v);
        let t = match *method {
            "detailed" => infer_set(&value),
            "reduced" => infer(&value),
            _ => infer_generic(&value),
        };
        let got = t.to_string();
        if got != *expected {
            failures.push(format!(
                "type({v}, {method}): got {got:?}, Puppet {expected:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        INFER.len(),
        failures.join("\n")
    );
}

#[test]
fn assert_type_messages_as_puppet() {
    let mut failures = Vec::new();
    for (t, v, expected) in ASSERT {
        let got = describe_mismatch_named("assert_type():", &ty(t), &infer_set(&val(v)));
        if got != *expected {
            failures.push(format!(
                "assert_type({t}, {v}):\n   got    {got:?}\n   Puppet {expected:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        ASSERT.len(),
        failures.join("\n")
    );
}

/// Writes the oracle files (see the module docs); does nothing unless
/// `PVERIFY_TYPE_ORACLE` names a directory.
#[test]
fn emit_oracle() {
    let Ok(dir) = std::env::var("PVERIFY_TYPE_ORACLE") else {
        return;
    };
    let mut cases = String::new();
    let mut expected = String::new();
    let mut add = |kind: &str, code: String, exp: String| {
        cases.push_str(&format!("{PRELUDE}\n{code}\n----\n"));
        expected.push_str(
            &serde_json::json!({"kind": kind, "code": code, "expected": exp}).to_string(),
        );
        expected.push('\n');
    };
    for (src, e) in DISPLAY {
        add("display", format!("notice({src})"), e.to_string());
    }
    for (t, v, e) in MISMATCH {
        add(
            "mismatch",
            format!("class typed({t} $n) {{}} class {{ typed: n => {v} }}"),
            e.to_string(),
        );
    }
    for (v, t, e) in INSTANCE {
        add("bool", format!("notice({v} =~ {t})"), e.to_string());
    }
    for (a, b, e) in ASSIGNABLE {
        add("bool", format!("notice({a} <= {b})"), e.to_string());
    }
    for (a, b, e) in EQUAL {
        add("bool", format!("notice({a} == {b})"), e.to_string());
    }
    for (src, e) in ACCESS {
        add("access", format!("notice({src})"), e.to_string());
    }
    for (v, m, e) in INFER {
        add(
            "display",
            format!("notice(type({v}, '{m}'))"),
            e.to_string(),
        );
    }
    for (t, v, e) in ASSERT {
        add("assert", format!("assert_type({t}, {v})"), e.to_string());
    }
    std::fs::write(format!("{dir}/cases.pp"), cases).unwrap();
    std::fs::write(format!("{dir}/expected.jsonl"), expected).unwrap();
    std::fs::write(format!("{dir}/check.rb"), CHECK_RB).unwrap();
}

/// Runs the emitted cases through Puppet and compares with the tables.
const CHECK_RB: &str = r##"# ruby check.rb DIR
require 'puppet'
require 'puppet_pal'
require 'json'
require 'tmpdir'
dir = ARGV[0]
tmp = Dir.mktmpdir
Puppet.initialize_settings(['--confdir', tmp, '--vardir', tmp, '--codedir', tmp])
module Puppet; module Test; class LogCollector
  def initialize(a); @a = a; end
  def <<(m); @a << m; end
end; end; end
logs = []
Puppet::Util::Log.close_all
Puppet::Util::Log.newdestination(Puppet::Test::LogCollector.new(logs))
Puppet::Util::Log.level = :notice
def strip_loc(m)
  m.sub(/ \((file: [^,]*, )?line: \d+(, column: \d+)?\)/, '').sub(/ on node \S+\z/, '')
end
codes = File.read(File.join(dir, 'cases.pp')).split(/^----
/).map(&:strip).reject(&:empty?)
expected = File.readlines(File.join(dir, 'expected.jsonl')).map { |l| JSON.parse(l) }
passed = failed = 0
codes.zip(expected).each do |code, exp|
  err = nil
  begin
    Puppet::Pal.in_tmp_environment('pal_env', modulepath: [], facts: {}) do |pal|
      pal.with_catalog_compiler { |c| c.evaluate_string(code); c.compile_additions }
    end
  rescue Exception => e
    err = strip_loc(e.message)
  end
  notices = logs.select { |m| m.level == :notice }.map(&:message)
  logs.clear
  got = case exp['kind']
        when 'display', 'access', 'bool'
          err ? 'ERROR: ' + err.delete_prefix('Evaluation Error: ') : notices[0]
        when 'mismatch'
          err ? err.delete_prefix('Evaluation Error: Error while evaluating a Resource Statement, ') : ''
        when 'assert'
          err ? err.delete_prefix('Evaluation Error: Error while evaluating a Function Call, ') : ''
        end
  if got == exp['expected']
    passed += 1
  else
    failed += 1
    puts "#{exp['code']}
   Puppet: #{got.inspect}
   table:  #{exp['expected'].inspect}"
  end
end
puts "#{passed} passed, #{failed} failed"
exit(failed == 0 ? 0 : 1)
"##;

/// The tail the evaluator puts after `Class[X]: parameter 'n' `.
#[test]
fn describe_mismatch_tails() {
    let cases: &[(&str, &str, &str)] = &[
        ("Integer", "'x'", "expects an Integer value, got String"),
        (
            "Optional[String]",
            "1",
            "expects a value of type Undef or String, got Integer",
        ),
        ("String[1]", "''", "expects a String[1] value, got String"),
        (
            "Integer[1,5]",
            "7",
            "expects an Integer[1, 5] value, got Integer[7, 7]",
        ),
        (
            "Enum['a','b']",
            "'c'",
            "expects a match for Enum['a', 'b'], got 'c'",
        ),
        (
            "Array[String,1]",
            "[]",
            "expects size to be at least 1, got 0",
        ),
        (
            "Struct[{a=>Integer}]",
            "{a=>'x'}",
            "entry 'a' expects an Integer value, got String",
        ),
        (
            "Struct[{a=>Integer}]",
            "{a=>1, x=>2}",
            "unrecognized key 'x'",
        ),
        (
            "Struct[{a=>Integer, b=>String}]",
            "{a=>1}",
            "expects a value for key 'b'",
        ),
        ("Integer", "1", ""),
    ];
    for (t, v, expected) in cases {
        assert_eq!(describe_mismatch(&ty(t), &val(v)), *expected, "{t} / {v}");
    }
}

#[test]
#[allow(clippy::mutable_key_type)] // alias cells are set once, before any hashing
fn comparisons() {
    use std::cmp::Ordering;
    assert_eq!(
        compare_types(&ty("Integer[1,2]"), &ty("Integer")),
        Some(Ordering::Less)
    );
    assert_eq!(
        compare_types(&ty("Integer"), &ty("Integer")),
        Some(Ordering::Equal)
    );
    assert_eq!(
        compare_types(&ty("Numeric"), &ty("Integer")),
        Some(Ordering::Greater)
    );
    assert_eq!(compare_types(&ty("String"), &ty("Integer")), None);
    assert!(types_equal(
        &ty("Optional[Integer]"),
        &ty("Variant[Integer, Undef]")
    ));
    // as hash keys and inside arrays types compare with eql?, and hash alike
    let mut set = rustc_hash::FxHashSet::default();
    set.insert(val("Variant[Integer, String]"));
    assert!(set.contains(&val("Variant[String, Integer]")));
    assert!(set.contains(&val("Variant[Integer, String]")));
    assert_ne!(val("Optional[Integer]"), val("Variant[Integer, Undef]"));
}

#[test]
fn references() {
    assert_eq!(
        val("File['/x', '/y']"),
        Value::array(vec![val("File['/x']"), val("File['/y']")])
    );
    assert_eq!(val("Resource[file, '/x']"), val("File['/x']"));
    assert_eq!(
        val("Class['::Foo']"),
        Value::Type(Arc::new(PType::Class(Some("foo".into()))))
    );
    assert_eq!(
        parameterize(&PType::INTEGER, &[Value::Integer(1), Value::Integer(5)]).unwrap(),
        PType::integer(1, 5)
    );
    let e = access(&PType::INTEGER, &[Value::string("a")]).unwrap_err();
    assert_eq!(e.key, Some(0));
}
