//! Puppet's Object types (`p_object_type.rb`), minimally: a name, a parent,
//! attributes (type, default value, kind) and constants, as declared by
//! `type Name = Object[{...}]` or `Object[{name => 'Name', ...}]`, and their
//! instances ([`ObjectValue`]). Functions, type parameters, equality
//! specifications and checks are not modelled (an init hash naming them is
//! refused with a pverify message rather than half understood).
//!
//! `Annotation` and `Pcore` are the two built-in Object types `annotate`
//! needs; annotation types are user Object types inheriting `Annotation`.

use std::sync::Arc;

use super::model::{PType, StructMember};
use crate::eval::{Map, Value};

/// A declared attribute or constant.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub ty: PType,
    /// The default `value` (an attribute with one is optional in `new`).
    pub value: Option<Value>,
    /// `kind` as written (`constant`, `derived`, `given_or_derived`, `reference`).
    pub kind: Option<String>,
}

impl Attribute {
    /// Given to `new` (Puppet's `create_init_hash_type` skips constants and
    /// derived attributes).
    fn is_given(&self) -> bool {
        !matches!(self.kind.as_deref(), Some("constant" | "derived"))
    }
}

/// An Object type.
#[derive(Clone, Debug)]
pub struct ObjectType {
    pub name: Option<String>,
    /// The parent type as given (an Object type, possibly `Annotation`).
    pub parent: Option<PType>,
    /// Attributes in declaration order; `constants => {k => v}` are
    /// attributes of kind constant typed by the value's generalized type,
    /// after the declared ones (Puppet prints those back as constants).
    pub attributes: Vec<Attribute>,
}

impl PartialEq for ObjectType {
    /// Puppet's `eql?`: name, parent, attributes.
    fn eq(&self, o: &ObjectType) -> bool {
        std::ptr::eq(self, o)
            || (self.name == o.name && self.parent == o.parent && self.attributes == o.attributes)
    }
}

const KNOWN_KEYS: &[&str] = &["name", "parent", "attributes", "constants"];

/// The rest of Puppet's `TYPE_OBJECT_I12N` keys, which pverify does not model.
const UNSUPPORTED_KEYS: &[&str] = &[
    "type_parameters",
    "functions",
    "equality",
    "equality_include_type",
    "checks",
    "annotations",
];

impl ObjectType {
    /// A built-in Object type without members (`Annotation`, `Pcore`).
    pub fn builtin(name: &str) -> ObjectType {
        ObjectType {
            name: Some(name.to_string()),
            parent: None,
            attributes: Vec::new(),
        }
    }

    /// From `Object[{...}]`'s init hash; `name` (the alias a `type`
    /// statement declares) takes precedence over the hash's `name`, as the
    /// loader's name does in Puppet.
    pub fn from_init_hash(name: Option<String>, h: &Map) -> Result<ObjectType, String> {
        let get = |k: &str| h.get(&Value::string(k));
        for k in h.keys() {
            match k.as_str() {
                Some(s) if KNOWN_KEYS.contains(&s) => {}
                Some(s) if UNSUPPORTED_KEYS.contains(&s) => {
                    return Err(format!("pverify: Object key '{s}' is not supported"))
                }
                Some(s) => {
                    return Err(format!(
                        "object initializer has wrong type, unrecognized key '{s}'"
                    ))
                }
                None => return Err("pverify: Object keys must be strings".into()),
            }
        }
        let name = name.or_else(|| get("name").and_then(|v| v.as_str()).map(str::to_string));
        let parent = match get("parent") {
            None | Some(Value::Undef) => None,
            Some(Value::Type(t)) => Some((**t).clone()),
            Some(_) => return Err("pverify: an Object's parent must be a type".into()),
        };
        let parent_obj = parent.as_ref().and_then(object_of);
        if let Some(p) = &parent {
            if parent_obj.is_none() {
                if let PType::TypeReference(n) = p {
                    return Err(format!("reference to unresolved type '{n}'"));
                }
            }
        }
        let label = name.clone().unwrap_or_else(|| "Object".into());
        let mut attributes = Vec::new();
        if let Some(spec) = get("attributes") {
            let Value::Hash(spec) = spec else {
                return Err("pverify: an Object's attributes must be a hash".into());
            };
            for (k, v) in spec.iter() {
                let Some(an) = k.as_str() else {
                    return Err("pverify: attribute names must be strings".into());
                };
                let a = attribute(&label, an, v)?;
                // Puppet's `assert_override`: a parent's member needs
                // `override => true` (which pverify does not model).
                if let Some(inherited) = parent_obj.as_ref().and_then(|p| p.member_label(an)) {
                    return Err(format!(
                        "{} attempts to override {inherited} without having override => true",
                        format_args!("attribute {label}[{an}]")
                    ));
                }
                attributes.push(a);
            }
        }
        if let Some(c) = get("constants") {
            let Value::Hash(c) = c else {
                return Err("pverify: an Object's constants must be a hash".into());
            };
            for (k, v) in c.iter() {
                let Some(cn) = k.as_str() else {
                    return Err("pverify: constant names must be strings".into());
                };
                if attributes.iter().any(|a| a.name == cn) {
                    return Err(format!(
                        "attribute {label}[{cn}] is defined as both a constant and an attribute"
                    ));
                }
                attributes.push(Attribute {
                    name: cn.to_string(),
                    ty: super::infer(v).generalize(),
                    value: Some(v.clone()),
                    kind: Some("constant".into()),
                });
            }
        }
        Ok(ObjectType {
            name,
            parent,
            attributes,
        })
    }

    /// The parent as an Object type.
    pub fn parent_object(&self) -> Option<Arc<ObjectType>> {
        self.parent.as_ref().and_then(object_of)
    }

    /// Every attribute, inherited ones first (an attribute redeclared by a
    /// child replaces the parent's in place).
    pub fn all_attributes(&self) -> Vec<Attribute> {
        let mut out = match self.parent_object() {
            Some(p) => p.all_attributes(),
            None => Vec::new(),
        };
        for a in &self.attributes {
            match out.iter_mut().find(|x| x.name == a.name) {
                Some(x) => *x = a.clone(),
                None => out.push(a.clone()),
            }
        }
        out
    }

    /// A constant's value, own or inherited.
    pub fn constant(&self, name: &str) -> Option<Value> {
        if let Some(a) = self.attributes.iter().find(|a| a.name == name) {
            if a.kind.as_deref() == Some("constant") {
                return a.value.clone();
            }
        }
        self.parent_object().and_then(|p| p.constant(name))
    }

    /// `new`'s positional parameters: the given attributes, those without a
    /// default first (Puppet's `parameter_info`).
    pub fn parameters(&self) -> Vec<Attribute> {
        let (req, opt): (Vec<_>, Vec<_>) = self
            .all_attributes()
            .into_iter()
            .filter(Attribute::is_given)
            .partition(|a| a.value.is_none());
        req.into_iter().chain(opt).collect()
    }

    /// Puppet's `init_hash_type`: a Struct of the given attributes, those
    /// with a default optional.
    pub fn init_hash_type(&self) -> PType {
        PType::Struct(
            self.all_attributes()
                .into_iter()
                .filter(Attribute::is_given)
                .map(|a| StructMember {
                    name: a.name.clone(),
                    optional_key: a.value.is_some(),
                    value: a.ty.clone(),
                })
                .collect(),
        )
    }

    /// Is `o` this type or a descendant of it (Puppet's `_assignable?`)?
    pub fn takes(&self, o: &ObjectType) -> bool {
        if self == o {
            return true;
        }
        match o.parent_object() {
            Some(p) => self.takes(&p),
            None => false,
        }
    }

    /// The name Puppet uses for instances in messages.
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| "Object".into())
    }

    /// Puppet's `_pcore_init_hash` split: the attributes printed under
    /// `attributes`, and the constants printed as `constants => {k => v}`
    /// (kind constant, typed exactly by the value's generalized type).
    pub fn printed_members(&self) -> (Vec<&Attribute>, Vec<&Attribute>) {
        self.attributes.iter().partition(|a| {
            !(a.kind.as_deref() == Some("constant")
                && a.value
                    .as_ref()
                    .is_some_and(|v| super::infer(v).generalize() == a.ty))
        })
    }

    /// The label of a member (`attribute P[x]`, by the type declaring it).
    pub fn member_label(&self, name: &str) -> Option<String> {
        if self.attributes.iter().any(|a| a.name == name) {
            return Some(format!("attribute {}[{name}]", self.label()));
        }
        self.parent_object()?.member_label(name)
    }

    /// Does it inherit (or is it) `Annotation`?
    pub fn is_annotation(&self) -> bool {
        self.name.as_deref() == Some("Annotation")
            || self.parent_object().is_some_and(|p| p.is_annotation())
    }
}

/// Puppet's `TYPE_ATTRIBUTE`: the attribute spec hash's type.
fn attribute_spec_type() -> PType {
    let member = |name: &str, optional_key: bool, value: PType| StructMember {
        name: name.to_string(),
        optional_key,
        value,
    };
    PType::Struct(vec![
        member("type", false, PType::Type(None)),
        member("final", true, PType::Boolean(None)),
        member("override", true, PType::Boolean(None)),
        member(
            "kind",
            true,
            PType::enumeration(
                ["constant", "derived", "given_or_derived", "reference"]
                    .map(String::from)
                    .to_vec(),
                false,
            ),
        ),
        member("value", true, PType::Any),
        member(
            "annotations",
            true,
            PType::hash(PType::Type(None), PType::Any, None),
        ),
    ])
}

/// An attribute from its spec: a type, or `{type => T, value => v, kind => k}`.
fn attribute(label: &str, name: &str, spec: &Value) -> Result<Attribute, String> {
    let alabel = format!("attribute {label}[{name}]");
    if name == "__ptype" || name == "__pvalue" {
        return Err(format!(
            "The attribute '{name}' is reserved and cannot be used"
        ));
    }
    match spec {
        // An Optional attribute without a spec hash defaults to undef.
        Value::Type(t) => Ok(Attribute {
            name: name.to_string(),
            ty: (**t).clone(),
            value: matches!(t.as_ref(), PType::Optional(_)).then_some(Value::Undef),
            kind: None,
        }),
        Value::Hash(h) => {
            let spec_type = attribute_spec_type();
            if !super::is_instance(&spec_type, spec) {
                return Err(super::describe_mismatch_named(
                    &format!("initializer for {alabel} has wrong type,"),
                    &spec_type,
                    &super::infer_set(spec),
                ));
            }
            let get = |k: &str| h.get(&Value::string(k));
            let Some(Value::Type(ty)) = get("type") else {
                return Err(format!("pverify: {alabel} needs a type"));
            };
            let ty = (**ty).clone();
            // Overrides, finality and annotations of members are not modelled.
            for k in ["final", "override", "annotations"] {
                if get(k).is_some() {
                    return Err(format!("pverify: '{k}' of {alabel} is not supported"));
                }
            }
            let kind = get("kind").and_then(|k| k.as_str()).map(str::to_string);
            let value = get("value").cloned();
            match (kind.as_deref(), &value) {
                (Some(k @ ("derived" | "given_or_derived")), Some(_)) => {
                    return Err(format!(
                        "{alabel} of kind '{k}' cannot be combined with an attribute value"
                    ))
                }
                (Some("constant"), None) => {
                    return Err(format!("{alabel} of kind 'constant' requires a value"))
                }
                _ => {}
            }
            if let Some(v) = &value {
                if !matches!(v, Value::Default) && !super::is_instance(&ty, v) {
                    return Err(super::describe_mismatch_named(
                        &format!("{alabel} value has wrong type,"),
                        &ty,
                        &super::infer_set(v),
                    ));
                }
            }
            Ok(Attribute {
                name: name.to_string(),
                ty,
                value,
                kind,
            })
        }
        other => Err(super::describe_mismatch_named(
            &format!("{alabel} has wrong type,"),
            &PType::Type(None),
            &super::infer_set(other),
        )),
    }
}

/// The Object type a type is (through aliases).
pub fn object_of(t: &PType) -> Option<Arc<ObjectType>> {
    match t {
        PType::ObjectDef(o) => Some(o.clone()),
        PType::TypeAlias { .. } => t.alias_target().and_then(|r| object_of(&r)),
        _ => None,
    }
}

/// An instance of an Object type: its given attributes' values in the
/// type's attribute order.
#[derive(Debug)]
pub struct ObjectValue {
    pub ty: Arc<ObjectType>,
    pub values: Vec<(String, Value)>,
}

impl ObjectValue {
    /// The label of a member (`attribute P[x]`, by the type declaring it).
    pub fn member_label(&self, name: &str) -> Option<String> {
        self.ty.member_label(name)
    }

    /// An attribute or constant by name (Puppet's method call `$o.name`).
    pub fn get(&self, name: &str) -> Option<Value> {
        if let Some((_, v)) = self.values.iter().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        self.ty.constant(name)
    }

    /// Puppet's `_pcore_init_hash` of an instance: each attribute whose
    /// value is not its default.
    pub fn init_hash(&self) -> Map {
        let attrs = self.ty.all_attributes();
        let mut m = Map::default();
        for (n, v) in &self.values {
            let default = attrs
                .iter()
                .find(|a| &a.name == n)
                .and_then(|a| a.value.as_ref());
            if default != Some(v) {
                m.insert(Value::string(n.as_str()), v.clone());
            }
        }
        m
    }
}

impl PartialEq for ObjectValue {
    /// By type and attribute values, except annotations: Puppet's
    /// Annotation class keeps Ruby's identity equality.
    fn eq(&self, o: &ObjectValue) -> bool {
        if std::ptr::eq(self, o) {
            return true;
        }
        !self.ty.is_annotation() && self.ty == o.ty && self.values == o.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(entries: &[(&str, Value)]) -> Map {
        let mut m = Map::default();
        for (k, v) in entries {
            m.insert(Value::string(*k), v.clone());
        }
        m
    }

    fn ty(t: PType) -> Value {
        Value::Type(Arc::new(t))
    }

    /// `new`'s positional order puts attributes without a default first,
    /// inherited ones before own ones within each group.
    #[test]
    fn parameters_required_first() {
        let point = ObjectType::from_init_hash(
            Some("Point".into()),
            &hash(&[(
                "attributes",
                Value::hash(hash(&[
                    ("x", ty(PType::INTEGER)),
                    (
                        "y",
                        Value::hash(hash(&[
                            ("type", ty(PType::INTEGER)),
                            ("value", Value::Integer(0)),
                        ])),
                    ),
                ])),
            )]),
        )
        .expect("Point");
        let p3 = ObjectType::from_init_hash(
            Some("P3".into()),
            &hash(&[
                ("parent", ty(PType::ObjectDef(Arc::new(point.clone())))),
                (
                    "attributes",
                    Value::hash(hash(&[("z", ty(PType::INTEGER))])),
                ),
                (
                    "constants",
                    Value::hash(hash(&[("dims", Value::Integer(3))])),
                ),
            ]),
        )
        .expect("P3");
        let names: Vec<String> = p3.parameters().into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["x", "z", "y"]);
        assert_eq!(p3.constant("dims"), Some(Value::Integer(3)));
        assert!(point.takes(&p3));
        assert!(!p3.takes(&point));
        assert_eq!(
            PType::ObjectDef(Arc::new(p3)).to_string(),
            "Object[{name => 'P3', parent => Point, attributes => {'z' => Integer}, \
             constants => {'dims' => 3}}]"
        );
    }

    /// Definition errors are Puppet's texts, never panics.
    #[test]
    fn definition_errors() {
        let bad = |entries: &[(&str, Value)]| {
            ObjectType::from_init_hash(Some("P".into()), &hash(entries)).unwrap_err()
        };
        assert_eq!(
            bad(&[("wat", Value::Integer(1))]),
            "object initializer has wrong type, unrecognized key 'wat'"
        );
        assert_eq!(
            bad(&[("attributes", Value::hash(hash(&[("x", Value::Integer(3))])))]),
            "attribute P[x] has wrong type, expects a Type value, got Integer"
        );
        assert_eq!(
            bad(&[(
                "attributes",
                Value::hash(hash(&[("__pvalue", ty(PType::INTEGER))]))
            )]),
            "The attribute '__pvalue' is reserved and cannot be used"
        );
    }
}
