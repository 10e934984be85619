//! Object types at run time: their `new` (`Point.new(1, 2)`,
//! `Point({x => 1})`) and `annotate`.
//!
//! `new_<Name>` has two dispatches, Puppet's `create_new_function`: the init
//! hash (a Struct of the given attributes) and the attributes positionally,
//! required ones first. Their signatures come from the type, so they are
//! built here rather than as static [`Sig`]s; the texts of a call matching
//! neither reuse `signatures.rs`'s merging.
//!
//! Annotations (`annotate.rb`, `annotation.rb`) are adapters Puppet hangs
//! on the Ruby object itself: pverify keeps them in the compiler's side
//! table keyed by the identity of the value's allocation, so a variable
//! holding an array keeps its annotation and an equal literal has none.

use super::signatures::{merge_descriptions, sig, SigError};
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::types::object::{object_of, ObjectType, ObjectValue};
use puppet_model::types::{PType, PathElement};
use std::sync::Arc;

/// One signature built from a type: typed, named parameters, the first
/// `required` of them required.
struct DynSig {
    params: Vec<(PType, String)>,
    required: usize,
}

impl DynSig {
    /// Puppet's `signature_string`: `Integer x, Integer y?`.
    fn describe(&self) -> String {
        let parts: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, (t, n))| {
                if i >= self.required {
                    let t = match t {
                        PType::Optional(Some(inner)) => inner.as_ref(),
                        t => t,
                    };
                    format!("{t} {n}?")
                } else {
                    format!("{t} {n}")
                }
            })
            .collect();
        parts.join(", ")
    }

    /// What is wrong with `args` for this signature (empty: it accepts them).
    fn errors(&self, args: &[Value]) -> Vec<SigError> {
        let n = args.len();
        if n < self.required || n > self.params.len() {
            return vec![SigError::Count {
                expected: (self.required, self.params.len()),
                actual: (n, n),
                block: false,
            }];
        }
        for ((t, name), a) in self.params.iter().zip(args) {
            if !puppet_model::types::is_instance(t, a) {
                let d = puppet_model::types::describe(
                    t,
                    &puppet_model::types::infer_set(a),
                    &[PathElement::Parameter(name.clone())],
                );
                if !d.is_empty() {
                    return d.into_iter().map(SigError::Arg).collect();
                }
            }
        }
        Vec::new()
    }
}

/// Puppet's `describe_signatures` for dynamic signatures.
fn describe_dyn(name: &str, sigs: &[DynSig], arrays: &[Vec<SigError>]) -> String {
    let label = format!("'{name}'");
    let errors = merge_descriptions(arrays);
    if errors.len() == 1 {
        return format!("{label}{}", errors[0].format());
    }
    let mut out = vec![format!(
        "The function {label} was called with arguments it does not accept. It expects one of:"
    )];
    for (s, errs) in sigs.iter().zip(arrays) {
        out.push(format!("  ({})", s.describe()));
        for e in errs {
            out.push(format!("    rejected:{}", e.format()));
        }
    }
    out.join("\n")
}

/// `T.new(args)` for an Object type `T`.
pub(super) fn new_object(cx: &mut Cx<'_, '_>, ty: &Arc<ObjectType>, args: &[Value]) -> R<Value> {
    // `P[1].new(...)` makes a `P` (which `new` then checks against `P[1]`).
    let ty = &ty.base();
    // Puppet 7.23 cannot name the implementation class of an anonymous
    // Object type: its `new` fails (a Ruby NoMethodError), so does ours.
    if ty.name.is_none() {
        return cx.fail(
            "pverify: an anonymous Object type has no 'new' in Puppet 7.23 \
             (undefined method `sub' for nil:NilClass)",
        );
    }
    let params = ty.parameters();
    let from_hash = DynSig {
        params: vec![(ty.init_hash_type(), "hash".into())],
        required: 1,
    };
    let positional = DynSig {
        required: params.iter().filter(|a| a.value.is_none()).count(),
        params: params
            .iter()
            .map(|a| (a.ty.clone(), a.name.clone()))
            .collect(),
    };
    let sigs = [from_hash, positional];
    let arrays: Vec<Vec<SigError>> = sigs.iter().map(|s| s.errors(args)).collect();
    let given: Vec<(String, Value)> = if arrays[0].is_empty() {
        match &args[0] {
            Value::Hash(h) => h
                .iter()
                .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.clone())))
                .collect(),
            _ => Vec::new(),
        }
    } else if arrays[1].is_empty() {
        params
            .iter()
            .zip(args)
            .map(|(a, v)| (a.name.clone(), v.clone()))
            .collect()
    } else {
        let name = format!("new_{}", ty.label());
        return cx.fail(describe_dyn(&name, &sigs, &arrays));
    };
    Ok(instance(ty, &given))
}

/// An instance from checked attribute values (defaults for the rest), in
/// the type's attribute order.
fn instance(ty: &Arc<ObjectType>, given: &[(String, Value)]) -> Value {
    let values = ty
        .all_attributes()
        .into_iter()
        .filter(|a| !matches!(a.kind.as_deref(), Some("constant" | "derived")))
        .map(|a| {
            let v = given
                .iter()
                .find(|(n, _)| *n == a.name)
                .map(|(_, v)| v.clone())
                .or(a.value.clone())
                .unwrap_or(Value::Undef);
            (a.name, v)
        })
        .collect();
    Value::Object(Arc::new(ObjectValue {
        ty: ty.clone(),
        values,
    }))
}

/// `from_hash` with Puppet's `TypeAsserter` check (annotations'
/// init hashes): "MyAnno initializer has wrong type, ...".
fn from_hash(cx: &Cx<'_, '_>, ty: &Arc<ObjectType>, hash: &Value) -> R<Value> {
    let t = ty.init_hash_type();
    if !puppet_model::types::is_instance(&t, hash) {
        return cx.fail(puppet_model::types::describe_mismatch_named(
            &format!("{} initializer has wrong type,", ty.label()),
            &t,
            &puppet_model::types::infer_set(hash),
        ));
    }
    let given: Vec<(String, Value)> = match hash {
        Value::Hash(h) => h
            .iter()
            .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.clone())))
            .collect(),
        _ => Vec::new(),
    };
    Ok(instance(ty, &given))
}

/// Is `name` a member (attribute, constant or function) of Object value `v`?
pub fn is_object_member(v: &Value, name: &str) -> bool {
    matches!(v, Value::Object(o) if o.member_label(name).is_some())
}

/// `$o.name(args)`: an attribute or constant of an Object value (`None`:
/// not a member, a function call then); its reader takes no arguments. A
/// declared function checks the arguments against its signature, then
/// fails: a Puppet-language Object type has no implementation for it
/// (Puppet's generated placeholder method).
pub fn object_member(
    v: &Value,
    name: &str,
    args: &[Value],
    block: bool,
) -> Option<Result<Value, String>> {
    let Value::Object(o) = v else {
        return None;
    };
    let label = o.member_label(name)?;
    if let Some((f, flabel)) = o.ty.function(name) {
        return Some(Err(call_declared_function(&flabel, &f.ty, args, block)));
    }
    let argc = args.len();
    if argc > 0 {
        return Some(Err(format!("'{label}' expects no arguments, got {argc}")));
    }
    // A derived attribute's value comes from a Ruby method a manifest
    // cannot give.
    Some(
        o.get(name)
            .ok_or_else(|| format!("no method is implemented for derived {label}")),
    )
}

/// The error of calling a declared function: Puppet's signature check
/// (parameters are unnamed, so `parameter ''`), else the missing method.
pub fn call_declared_function(label: &str, ty: &PType, args: &[Value], block: bool) -> String {
    let params = match puppet_model::types::assignable::unalias(ty) {
        PType::Callable {
            params: Some(ref mut p),
            block: ref b,
            ..
        } => {
            if block && b.is_none() {
                return format!("'{label}'{}", SigError::UnexpectedBlock.format());
            }
            p.take()
        }
        _ => {
            return format!(
                "pverify: calling {label}, declared as a bare Callable, fails inside Puppet 7.23 \
                 (undefined method `assignable?' for nil:NilClass)"
            )
        }
    };
    let PType::Tuple { ref types, size } = params else {
        return format!("no method is implemented for {label}");
    };
    let range = size.unwrap_or_else(|| puppet_model::types::model::tuple_size_range(types));
    let (min, max) = (
        usize::try_from(range.from).unwrap_or(0),
        usize::try_from(range.to).unwrap_or(usize::MAX),
    );
    let n = args.len();
    if n < min || n > max {
        let e = SigError::Count {
            expected: (min, max),
            actual: (n, n),
            block: false,
        };
        return format!("'{label}'{}", e.format());
    }
    for (i, a) in args.iter().enumerate() {
        let Some(t) = types.get(i).or(types.last()) else {
            break;
        };
        if !puppet_model::types::is_instance(t, a) {
            let d = puppet_model::types::describe(
                t,
                &puppet_model::types::infer_set(a),
                &[PathElement::Parameter(String::new())],
            );
            if let Some(m) = d.into_iter().next() {
                return format!("'{label}'{}", SigError::Arg(m).format());
            }
        }
    }
    format!("no method is implemented for {label}")
}

/// The identity Puppet's adapters hang on, or Ruby's error for a frozen
/// (immediate or literal) value.
fn identity(v: &Value) -> Result<usize, String> {
    let frozen =
        |class: &str, inspect: String| Err(format!("can't modify frozen {class}: {inspect}"));
    match v {
        Value::Array(a) => Ok(Arc::as_ptr(a) as *const u8 as usize),
        Value::Hash(h) => Ok(Arc::as_ptr(h) as *const u8 as usize),
        Value::Object(o) => Ok(Arc::as_ptr(o) as *const u8 as usize),
        Value::Undef => frozen("NilClass", "nil".into()),
        Value::Boolean(b) => frozen(if *b { "TrueClass" } else { "FalseClass" }, b.to_string()),
        Value::Integer(i) => frozen("Integer", i.to_string()),
        Value::Float(f) => frozen("Float", puppet_syntax::pn::ruby_float(*f)),
        Value::String(s) => frozen("String", puppet_model::names::ruby_inspect_str(s)),
        other => Err(format!(
            "pverify: annotating a {} value is not supported",
            puppet_model::types::infer(other).generalize().simple_name()
        )),
    }
}

fn same_type(a: &Value, ty: &ObjectType) -> bool {
    matches!(a, Value::Object(o) if *o.ty == *ty)
}

/// The annotation of type `ty` on the value with identity `id`.
fn find(cx: &Cx<'_, '_>, id: usize, ty: &ObjectType) -> Option<Value> {
    cx.c.host
        .annotations()
        .iter()
        .find(|(v, _)| identity(v).ok() == Some(id))
        .and_then(|(_, list)| list.iter().find(|a| same_type(a, ty)).cloned())
}

/// Attaches (or replaces) an annotation.
fn attach(cx: &mut Cx<'_, '_>, target: &Value, id: usize, ann: Value, ty: &ObjectType) {
    let slot = match cx
        .c
        .host
        .annotations()
        .iter()
        .position(|(v, _)| identity(v).ok() == Some(id))
    {
        Some(i) => i,
        None => cx.c.host.add_annotated(target.clone()),
    };
    let list = cx.c.host.annotations_at(slot);
    list.retain(|a| !same_type(a, ty));
    list.push(ann);
}

/// Removes an annotation, returning it.
fn clear(cx: &mut Cx<'_, '_>, id: usize, ty: &ObjectType) -> Option<Value> {
    let slot =
        cx.c.host
            .annotations()
            .iter()
            .position(|(v, _)| identity(v).ok() == Some(id))?;
    let list = cx.c.host.annotations_at(slot);
    let i = list.iter().position(|a| same_type(a, ty))?;
    Some(list.remove(i))
}

/// The annotation of type `ty` an Object type declares (`annotations =>
/// {MyA => {...}}`), made from its init hash as Puppet's `Annotatable` does.
fn type_annotation(cx: &Cx<'_, '_>, target: &Value, ty: &Arc<ObjectType>) -> R<Option<Value>> {
    let Value::Type(t) = target else {
        return Ok(None);
    };
    let Some(Value::Hash(ref h)) = object_of(t).and_then(|o| o.annotations.clone()) else {
        return Ok(None);
    };
    for (k, init) in h.iter() {
        let kt = match k {
            Value::Type(kt) => object_of(kt),
            _ => None,
        };
        if kt.is_some_and(|kt| *kt == **ty) {
            return from_hash(cx, ty, init).map(Some);
        }
    }
    Ok(None)
}

/// `annotate(Type[Annotation], value, &block?)`,
/// `annotate(Type[Annotation], value, clear | init_hash)`,
/// `annotate(Type[Pcore], value, {Type[Annotation] => init_hash})`.
pub(super) fn annotate(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let which = cx.dispatch(
        &[
            sig(&[("Type[Annotation]", "type"), ("Any", "value")]).opt_block("Callable[0, 0]"),
            sig(&[
                ("Type[Annotation]", "type"),
                ("Any", "value"),
                (
                    "Variant[Enum[clear],Hash[Pcore::MemberName,Any]]",
                    "annotation_hash",
                ),
            ]),
            sig(&[
                ("Type[Pcore]", "type"),
                ("Any", "value"),
                (
                    "Hash[Type[Annotation], Hash[Pcore::MemberName,Any]]",
                    "annotations",
                ),
            ]),
        ],
        args,
    )?;
    let target = &args[1];
    let annotation_type = |v: &Value| match v {
        Value::Type(t) => match t.as_ref() {
            PType::Type(Some(inner)) => object_of(inner),
            other => object_of(other),
        },
        _ => None,
    };
    match which {
        0 => {
            let Some(ty) = annotation_type(&args[0]) else {
                return Ok(Value::Undef);
            };
            // An Object type's own `annotations`.
            if let Some(a) = type_annotation(cx, target, &ty)? {
                return Ok(a);
            }
            // Looking up never fails: a frozen value has no annotation.
            let id = identity(target).ok();
            if let Some(a) = id.and_then(|id| find(cx, id, &ty)) {
                return Ok(a);
            }
            if cx.lambda.is_none() {
                return Ok(Value::Undef);
            }
            let init = cx.yield_(&[])?;
            if init.is_undef() {
                return Ok(Value::Undef);
            }
            let ann = from_hash(cx, &ty, &init)?;
            let id = identity(target).or_else(|e| cx.fail(e))?;
            attach(cx, target, id, ann.clone(), &ty);
            Ok(ann)
        }
        1 => {
            let Some(ty) = annotation_type(&args[0]) else {
                return Ok(Value::Undef);
            };
            if args[2].as_str() == Some("clear") {
                return Ok(match identity(target) {
                    Ok(id) => clear(cx, id, &ty).unwrap_or(Value::Undef),
                    Err(_) => Value::Undef,
                });
            }
            let ann = from_hash(cx, &ty, &args[2])?;
            let id = identity(target).or_else(|e| cx.fail(e))?;
            attach(cx, target, id, ann.clone(), &ty);
            Ok(ann)
        }
        _ => {
            let Value::Hash(h) = &args[2] else {
                return Ok(target.clone());
            };
            for (k, init) in h.iter() {
                let Some(ty) = annotation_type(k) else {
                    continue;
                };
                let ann = from_hash(cx, &ty, init)?;
                let id = identity(target).or_else(|e| cx.fail(e))?;
                attach(cx, target, id, ann, &ty);
            }
            Ok(target.clone())
        }
    }
}
