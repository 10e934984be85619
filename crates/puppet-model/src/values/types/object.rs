//! Puppet's Object types (`p_object_type.rb`): a name, a parent, type
//! parameters, attributes (type, default value, kind, final, override,
//! annotations), constants, functions (signatures only: a Puppet-language
//! Object cannot implement them, so calling one fails as in Puppet),
//! equality (which attributes `==` and hash keys compare), `checks` and
//! annotations (kept and printed, as Puppet does nothing else with them), as
//! declared by `type Name = Object[{...}]` or `Object[{name => 'Name', ...}]`,
//! and their instances ([`ObjectValue`]). `P[...]` on a type with type
//! parameters is Puppet's `PObjectTypeExtension` ([`ObjectType::extension`]).
//!
//! `Annotation` and `Pcore` are the two built-in Object types `annotate`
//! needs; annotation types are user Object types inheriting `Annotation`.

use std::sync::Arc;

use super::model::{PType, StructMember};
use crate::values::{Map, Value};

/// A declared attribute or constant.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub ty: PType,
    /// The default `value` (an attribute with one is optional in `new`).
    pub value: Option<Value>,
    /// `kind` as written (`constant`, `derived`, `given_or_derived`, `reference`).
    pub kind: Option<String>,
    pub final_: bool,
    pub override_: bool,
    /// `annotations => {Type[Annotation] => init hash}`, kept to be printed.
    pub annotations: Option<Value>,
}

impl Attribute {
    /// Given to `new` (Puppet's `create_init_hash_type` skips constants and
    /// derived attributes).
    fn is_given(&self) -> bool {
        !matches!(self.kind.as_deref(), Some("constant" | "derived"))
    }

    fn is_constant(&self) -> bool {
        self.kind.as_deref() == Some("constant")
    }
}

/// A declared function: a signature only (`Callable[...]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub ty: PType,
    pub final_: bool,
    pub override_: bool,
    pub annotations: Option<Value>,
}

/// A type parameter: an attribute name whose value `P[v]` constrains. The
/// type is kept as declared; Puppet checks values against `Optional[type]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeParameter {
    pub name: String,
    pub ty: PType,
}

/// An Object type.
#[derive(Clone, Debug)]
pub struct ObjectType {
    pub name: Option<String>,
    /// The parent type as given (an Object type, possibly `Annotation`).
    pub parent: Option<PType>,
    pub type_parameters: Vec<TypeParameter>,
    /// Attributes in declaration order; `constants => {k => v}` are
    /// attributes of kind constant typed by the value's generalized type,
    /// after the declared ones (Puppet prints those back as constants).
    pub attributes: Vec<Attribute>,
    pub functions: Vec<Function>,
    /// `equality => [names]` (a single name is a one-element list).
    pub equality: Option<Vec<String>>,
    pub equality_include_type: bool,
    /// `checks`: any value; Puppet 7.23 keeps and prints it, nothing more.
    pub checks: Option<Value>,
    pub annotations: Option<Value>,
    /// `P[...]` of a type with type parameters: the values given, by name
    /// (`default` ones left out). Everything else is the base type's.
    pub extension: Option<Vec<(String, Value)>>,
}

impl PartialEq for ObjectType {
    /// Puppet's `eql?`: name, parent, type parameters, attributes,
    /// functions, equality and checks (and an extension's parameters).
    fn eq(&self, o: &ObjectType) -> bool {
        std::ptr::eq(self, o)
            || (self.name == o.name
                && self.parent == o.parent
                && self.type_parameters == o.type_parameters
                && self.attributes == o.attributes
                && self.functions == o.functions
                && self.equality == o.equality
                && self.checks == o.checks
                && self.extension == o.extension)
    }
}

/// The name of the object a Hiera backend function gets as its context.
pub const LOOKUP_CONTEXT: &str = "Puppet::LookupContext";

/// Puppet's `Puppet::LookupContext` (`lookup/context.rb`): the type of the
/// context a custom Hiera backend gets. Its members (`not_found`,
/// `cache`, `interpolate`, ...) are answered by the compiler, which keeps
/// the context's state; the type only names it.
pub fn lookup_context_type() -> Arc<ObjectType> {
    static TYPE: std::sync::OnceLock<Arc<ObjectType>> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Arc::new(ObjectType::builtin(LOOKUP_CONTEXT)))
        .clone()
}

/// Is `v` a `Puppet::LookupContext`?
pub fn is_lookup_context(v: &Value) -> bool {
    matches!(v, Value::Object(o) if o.ty.name.as_deref() == Some(LOOKUP_CONTEXT))
}

const KNOWN_KEYS: &[&str] = &[
    "name",
    "parent",
    "type_parameters",
    "attributes",
    "constants",
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
            type_parameters: Vec::new(),
            attributes: Vec::new(),
            functions: Vec::new(),
            equality: None,
            equality_include_type: true,
            checks: None,
            annotations: None,
            extension: None,
        }
    }

    /// From `Object[{...}]`'s init hash; `name` (the alias a `type`
    /// statement declares) takes precedence over the hash's `name`, as the
    /// loader's name does in Puppet. The steps and their order are
    /// `_pcore_init_from_hash`'s.
    pub fn from_init_hash(name: Option<String>, h: &Map) -> Result<ObjectType, String> {
        let get = |k: &str| h.get(&Value::string(k)).filter(|v| !v.is_undef());
        for k in h.keys() {
            match k.as_str() {
                Some(s) if KNOWN_KEYS.contains(&s) => {}
                Some(s) => {
                    return Err(format!(
                        "object initializer has wrong type, unrecognized key '{s}'"
                    ))
                }
                None => return Err("pverify: Object keys must be strings".into()),
            }
        }
        let i12n = init_hash_type();
        let whole = Value::hash(h.clone());
        if !super::is_instance(&i12n, &whole) {
            return Err(super::describe_mismatch_named(
                "object initializer has wrong type,",
                &i12n,
                &super::infer_set(&whole),
            ));
        }
        let name = name.or_else(|| get("name").and_then(|v| v.as_str()).map(str::to_string));
        let parent = match get("parent") {
            None => None,
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
        let mut out = ObjectType {
            name,
            parent,
            ..ObjectType::builtin("")
        };

        if let Some(spec) = get("type_parameters") {
            let Value::Hash(spec) = spec else {
                return Err("pverify: an Object's type_parameters must be a hash".into());
            };
            for (k, v) in spec.iter() {
                let Some(pn) = k.as_str() else {
                    return Err("pverify: type parameter names must be strings".into());
                };
                let ty = match v {
                    Value::Hash(ph) => match ph.get(&Value::string("type")) {
                        Some(Value::Type(t)) => (**t).clone(),
                        _ => {
                            return Err(format!(
                                "pverify: type_parameter {label}[{pn}] needs a type"
                            ))
                        }
                    },
                    Value::Type(t) => (**t).clone(),
                    other => {
                        return Err(super::describe_mismatch_named(
                            &format!("type_parameter {label}[{pn}] has wrong type,"),
                            &PType::Type(None),
                            &super::infer_set(other),
                        ))
                    }
                };
                if let Some(p) = &parent_obj {
                    if p.all_type_parameters().iter().any(|t| t.name == pn) {
                        return Err(format!(
                            "type_parameter {label}[{pn}] attempts to override type_parameter {}[{pn}] without having override => true",
                            p.type_parameter_definer(pn)
                        ));
                    }
                }
                out.type_parameters.push(TypeParameter {
                    name: pn.to_string(),
                    ty,
                });
            }
        }

        // Constants become constant attributes after the declared ones.
        let mut specs: Vec<(String, Value, bool)> = Vec::new();
        if let Some(spec) = get("attributes") {
            let Value::Hash(spec) = spec else {
                return Err("pverify: an Object's attributes must be a hash".into());
            };
            for (k, v) in spec.iter() {
                let Some(an) = k.as_str() else {
                    return Err("pverify: attribute names must be strings".into());
                };
                specs.push((an.to_string(), v.clone(), false));
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
                if specs.iter().any(|(n, _, _)| n == cn) {
                    return Err(format!(
                        "attribute {label}[{cn}] is defined as both a constant and an attribute"
                    ));
                }
                specs.push((cn.to_string(), v.clone(), true));
            }
        }
        for (an, v, is_constant) in specs {
            let a = if is_constant {
                Attribute {
                    name: an.clone(),
                    ty: super::infer(&v).generalize(),
                    value: Some(v),
                    kind: Some("constant".into()),
                    final_: true,
                    // Puppet marks a constant overriding when the parent has the name.
                    override_: parent_obj.as_ref().is_some_and(|p| p.member(&an).is_some()),
                    annotations: None,
                }
            } else {
                attribute(&label, &an, &v)?
            };
            let member = Member::Attribute(&a);
            assert_override(&label, &member, parent_obj.as_deref())?;
            out.attributes.push(a);
        }

        if let Some(spec) = get("functions") {
            let Value::Hash(spec) = spec else {
                return Err("pverify: an Object's functions must be a hash".into());
            };
            for (k, v) in spec.iter() {
                let Some(fname) = k.as_str() else {
                    return Err("pverify: function names must be strings".into());
                };
                let f = function(&label, fname, v)?;
                if out.attributes.iter().any(|a| a.name == fname) {
                    return Err(format!(
                        "function {label}[{fname}] conflicts with attribute with the same name"
                    ));
                }
                assert_override(&label, &Member::Function(&f), parent_obj.as_deref())?;
                out.functions.push(f);
            }
        }

        out.equality_include_type =
            !matches!(get("equality_include_type"), Some(Value::Boolean(false)));
        out.equality = match get("equality") {
            None => None,
            Some(Value::String(s)) => Some(vec![s.to_string()]),
            Some(Value::Array(a)) => {
                let mut names = Vec::new();
                for x in a.iter() {
                    match x.as_str() {
                        Some(s) => names.push(s.to_string()),
                        None => return Err("pverify: equality names must be strings".into()),
                    }
                }
                Some(names)
            }
            Some(_) => return Err("pverify: equality must be a name or an array of names".into()),
        };
        if let Some(eq) = &out.equality {
            if !eq.is_empty() && !out.equality_include_type {
                return Err(
                    "equality_include_type = false cannot be combined with non empty equality specification".into(),
                );
            }
            for n in eq {
                out.check_equality_name(&label, n, parent_obj.as_deref())?;
            }
        }
        out.checks = get("checks").cloned();
        out.annotations = get("annotations").cloned();
        Ok(out)
    }

    /// One `equality` name: an own or inherited attribute, not already in
    /// the parent's equality, not a constant (Puppet's checks, in order).
    fn check_equality_name(
        &self,
        label: &str,
        n: &str,
        parent: Option<&ObjectType>,
    ) -> Result<(), String> {
        let inherited = parent.and_then(|p| p.member(n));
        let found = match inherited {
            Some(m) => {
                if let MemberRef::Attribute(_) = &m {
                    let peq = parent.map(|p| p.equality_attributes()).unwrap_or_default();
                    if peq.iter().any(|x| x.name == n) {
                        let definer = parent.map(|p| p.equality_definer(n)).unwrap_or_default();
                        return Err(format!(
                            "{label} equality is referencing attribute {}[{n}] which is included in equality of {definer}",
                            self.member_definer(parent, n)
                        ));
                    }
                }
                Some(m)
            }
            None => self
                .attributes
                .iter()
                .find(|a| a.name == n)
                .map(|a| MemberRef::Attribute(a.clone()))
                .or_else(|| {
                    self.functions
                        .iter()
                        .find(|f| f.name == n)
                        .map(|f| MemberRef::Function(f.clone()))
                }),
        };
        match found {
            None => Err(format!(
                "{label} equality is referencing non existent attribute '{n}'"
            )),
            Some(MemberRef::Function(_)) => Err(format!(
                "{label} equality is referencing function {}[{n}]. Only attribute references are allowed",
                self.member_definer(parent, n)
            )),
            Some(MemberRef::Attribute(a)) if a.is_constant() => Err(format!(
                "{label} equality is referencing constant attribute {}[{n}]. Reference to constant is not allowed in equality",
                self.member_definer(parent, n)
            )),
            Some(_) => Ok(()),
        }
    }

    /// The label of the type declaring member `n` (own, else inherited).
    fn member_definer(&self, parent: Option<&ObjectType>, n: &str) -> String {
        if let Some(p) = parent {
            if let Some(l) = p.member_owner(n) {
                return l;
            }
        }
        self.label()
    }

    fn member_owner(&self, n: &str) -> Option<String> {
        if let Some(p) = self.parent_object() {
            if let Some(l) = p.member_owner(n) {
                if !self.attributes.iter().any(|a| a.name == n)
                    && !self.functions.iter().any(|f| f.name == n)
                {
                    return Some(l);
                }
            }
        }
        (self.attributes.iter().any(|a| a.name == n) || self.functions.iter().any(|f| f.name == n))
            .then(|| self.label())
    }

    /// Puppet's `find_equality_definer_of`: the topmost ancestor whose
    /// equality attributes include `n`.
    fn equality_definer(&self, n: &str) -> String {
        match self.parent_object() {
            Some(p) if p.equality_attributes().iter().any(|a| a.name == n) => p.equality_definer(n),
            _ => self.label(),
        }
    }

    /// Puppet's `equality_attributes`: inherited first; a level without an
    /// `equality` contributes its non-constant attributes.
    pub fn equality_attributes(&self) -> Vec<Attribute> {
        let mut out = match self.parent_object() {
            Some(p) => p.equality_attributes(),
            None => Vec::new(),
        };
        let own: Vec<Attribute> = match &self.equality {
            None => self
                .attributes
                .iter()
                .filter(|a| !a.is_constant())
                .cloned()
                .collect(),
            Some(names) => names
                .iter()
                .filter_map(|n| self.attributes.iter().find(|a| &a.name == n).cloned())
                .collect(),
        };
        for a in own {
            match out.iter_mut().find(|x| x.name == a.name) {
                Some(x) => *x = a,
                None => out.push(a),
            }
        }
        out
    }

    /// The base type of an extension (`P` of `P[1]`), else itself.
    pub fn base(self: &Arc<Self>) -> Arc<ObjectType> {
        if self.extension.is_some() {
            let mut b = (**self).clone();
            b.extension = None;
            Arc::new(b)
        } else {
            self.clone()
        }
    }

    /// Type parameters, inherited ones first.
    pub fn all_type_parameters(&self) -> Vec<TypeParameter> {
        let mut out = match self.parent_object() {
            Some(p) => p.all_type_parameters(),
            None => Vec::new(),
        };
        for t in &self.type_parameters {
            match out.iter_mut().find(|x| x.name == t.name) {
                Some(x) => *x = t.clone(),
                None => out.push(t.clone()),
            }
        }
        out
    }

    fn type_parameter_definer(&self, n: &str) -> String {
        match self.parent_object() {
            Some(p) if p.all_type_parameters().iter().any(|t| t.name == n) => {
                p.type_parameter_definer(n)
            }
            _ => self.label(),
        }
    }

    /// A member (attribute or function), own or inherited.
    fn member(&self, n: &str) -> Option<MemberRef> {
        if let Some(a) = self.attributes.iter().find(|a| a.name == n) {
            return Some(MemberRef::Attribute(a.clone()));
        }
        if let Some(f) = self.functions.iter().find(|f| f.name == n) {
            return Some(MemberRef::Function(f.clone()));
        }
        self.parent_object()?.member(n)
    }

    /// A function, own or inherited, with its label.
    pub fn function(&self, n: &str) -> Option<(Function, String)> {
        if let Some(f) = self.functions.iter().find(|f| f.name == n) {
            return Some((f.clone(), format!("function {}[{n}]", self.label())));
        }
        if self.attributes.iter().any(|a| a.name == n) {
            return None;
        }
        self.parent_object()?.function(n)
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
    /// An extension (`P[1]`) also needs `o`'s parameters to match its own
    /// (`test_assignable?`); a base type takes its extensions.
    pub fn takes(&self, o: &ObjectType) -> bool {
        let (Some(mine), ob) = (&self.extension, o) else {
            return self.takes_base(&strip(o));
        };
        let mut base = self.clone();
        base.extension = None;
        if !base.takes_base(&strip(ob)) {
            return false;
        }
        let theirs = ob.extension.as_deref().unwrap_or(&[]);
        mine.iter().all(|(n, b)| {
            theirs.iter().find(|(m, _)| m == n).is_some_and(|(_, a)| {
                param_match(a, b)
                    || matches!((a, b), (Value::Type(x), Value::Type(y)) if super::is_assignable(y, x))
            })
        })
    }

    fn takes_base(&self, o: &ObjectType) -> bool {
        if self == o {
            return true;
        }
        match o.parent_object() {
            Some(p) => self.takes_base(&strip(&p)),
            None => false,
        }
    }

    /// Is `v` an instance: of the base type, with attribute values matching
    /// an extension's parameters (`test_instance?`).
    pub fn is_instance(&self, v: &ObjectValue) -> bool {
        let Some(params) = &self.extension else {
            return self.takes_base(&strip(&v.ty));
        };
        let mut base = self.clone();
        base.extension = None;
        base.takes_base(&strip(&v.ty))
            && params
                .iter()
                .all(|(n, b)| v.get(n).is_some_and(|a| param_match(&a, b)))
    }

    /// `P[args]` (`PObjectTypeExtension.new`): by position, or by name
    /// from one hash the first parameter's type does not take.
    pub fn parameterize(self: &Arc<Self>, args: &[Value]) -> Result<ObjectType, String> {
        let label = self.label();
        let pts = self.all_type_parameters();
        if pts.is_empty() {
            return Err(format!("The {label}-Type cannot be parameterized using []"));
        }
        let check = |tp: &TypeParameter, v: &Value| -> Result<(), String> {
            let t = PType::optional(tp.ty.clone());
            if super::is_instance(&t, v) {
                return Ok(());
            }
            Err(super::describe_mismatch_named(
                &format!(
                    "type_parameter {}[{}] has wrong type,",
                    self.type_parameter_definer(&tp.name),
                    tp.name
                ),
                &t,
                &super::infer_set(v),
            ))
        };
        let mut by_name: Vec<(String, Value)> = Vec::new();
        let named = match args {
            [Value::Hash(h)]
                if !super::is_instance(&PType::optional(pts[0].ty.clone()), &args[0]) =>
            {
                Some(h)
            }
            _ => None,
        };
        if let Some(h) = named {
            for (k, v) in h.iter() {
                let tp = k
                    .as_str()
                    .and_then(|k| pts.iter().find(|t| t.name == k))
                    .ok_or_else(|| {
                        format!(
                            "'{}' is not a known type parameter for {label}-Type",
                            k.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| k.to_string())
                        )
                    })?;
                if !matches!(v, Value::Default) {
                    check(tp, v)?;
                    by_name.push((tp.name.clone(), v.clone()));
                }
            }
        } else {
            for (tp, v) in pts.iter().zip(args) {
                if !matches!(v, Value::Default) {
                    check(tp, v)?;
                    by_name.push((tp.name.clone(), v.clone()));
                }
            }
        }
        if by_name.is_empty() {
            return Err(format!(
                "The {label}-Type cannot be parameterized using an empty parameter list"
            ));
        }
        let mut ext = (**self).clone();
        ext.extension = Some(by_name);
        Ok(ext)
    }

    /// Puppet's `init_parameters` for printing `P[...]`: more than two type
    /// parameters print as a hash, else positionally with `default` for the
    /// missing ones (trailing ones dropped).
    pub fn extension_arguments(&self) -> Option<Vec<Value>> {
        let params = self.extension.as_ref()?;
        let pts = self.all_type_parameters();
        if pts.len() > 2 {
            let mut m = Map::default();
            for (n, v) in params {
                m.insert(Value::string(n.as_str()), v.clone());
            }
            return Some(vec![Value::hash(m)]);
        }
        let mut out: Vec<Value> = pts
            .iter()
            .map(|tp| {
                params
                    .iter()
                    .find(|(n, _)| *n == tp.name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or(Value::Default)
            })
            .collect();
        while matches!(out.last(), Some(Value::Default)) {
            out.pop();
        }
        Some(out)
    }

    /// The type Puppet infers for an instance: an extension by the values of
    /// the type parameters when the type has any (`create_from_instance`).
    pub fn inferred_for(self: &Arc<Self>, v: &ObjectValue) -> Arc<ObjectType> {
        let pts = self.all_type_parameters();
        if pts.is_empty() {
            return self.clone();
        }
        let attrs = self.all_attributes();
        let params = pts
            .iter()
            .map(|tp| {
                let value = if attrs.iter().any(|a| a.name == tp.name) {
                    v.get(&tp.name).unwrap_or(Value::Undef)
                } else {
                    Value::Undef
                };
                (tp.name.clone(), value)
            })
            .collect();
        let mut ext = (**self).clone();
        ext.extension = Some(params);
        Arc::new(ext)
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

    /// The label of a member (`attribute P[x]`, `function P[f]`, by the
    /// type declaring it).
    pub fn member_label(&self, name: &str) -> Option<String> {
        if self.attributes.iter().any(|a| a.name == name) {
            return Some(format!("attribute {}[{name}]", self.label()));
        }
        if self.functions.iter().any(|f| f.name == name) {
            return Some(format!("function {}[{name}]", self.label()));
        }
        self.parent_object()?.member_label(name)
    }

    /// Does it inherit (or is it) `Annotation`?
    pub fn is_annotation(&self) -> bool {
        self.name.as_deref() == Some("Annotation")
            || self.parent_object().is_some_and(|p| p.is_annotation())
    }
}

/// Pcore's `MemberName`: `Pattern[/\A[a-z_]\w*\z/]`.
fn member_name() -> PType {
    PType::Pattern(vec![r"\A[a-z_]\w*\z".to_string()])
}

/// Puppet's `TYPE_OBJECT_I12N`: the type of `Object[{...}]`'s hash.
fn init_hash_type() -> PType {
    let member = |name: &str, value: PType| StructMember {
        name: name.to_string(),
        optional_key: true,
        value,
    };
    let not_undef = PType::NotUndef(None);
    let annotations = PType::optional(PType::hash(
        PType::Type(Some(Box::new(PType::ObjectDef(Arc::new(
            ObjectType::builtin("Annotation"),
        ))))),
        PType::hash(member_name(), PType::Any, None),
        None,
    ));
    PType::Struct(vec![
        member(
            "name",
            PType::Pattern(vec![r"\A[A-Z][\w]*(?:::[A-Z][\w]*)*\z".to_string()]),
        ),
        member("parent", PType::Type(None)),
        member(
            "type_parameters",
            PType::hash(member_name(), not_undef.clone(), None),
        ),
        member(
            "attributes",
            PType::hash(member_name(), not_undef.clone(), None),
        ),
        member("constants", PType::hash(member_name(), PType::Any, None)),
        member(
            "functions",
            PType::hash(
                PType::Variant(vec![
                    member_name(),
                    PType::enumeration(vec!["[]".to_string()], false),
                ]),
                not_undef,
                None,
            ),
        ),
        member(
            "equality",
            PType::Variant(vec![member_name(), PType::array(member_name(), None)]),
        ),
        member("equality_include_type", PType::Boolean(None)),
        member("checks", PType::Any),
        member("annotations", annotations),
    ])
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
            final_: false,
            override_: false,
            annotations: None,
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
            let kind = get("kind").and_then(|k| k.as_str()).map(str::to_string);
            let mut final_ = matches!(get("final"), Some(Value::Boolean(true)));
            if kind.as_deref() == Some("constant") {
                if matches!(get("final"), Some(Value::Boolean(false))) {
                    return Err(format!(
                        "{alabel} of kind 'constant' cannot be combined with final => false"
                    ));
                }
                final_ = true;
            }
            let override_ = matches!(get("override"), Some(Value::Boolean(true)));
            let annotations = get("annotations").cloned();
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
                final_,
                override_,
                annotations,
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

/// The base of a possibly extended type.
fn strip(o: &ObjectType) -> ObjectType {
    let mut b = o.clone();
    b.extension = None;
    b
}

/// Puppet's `match?` of a type parameter's value against a constraint:
/// a type takes instances, a regexp matches strings, else `==`.
fn param_match(a: &Value, b: &Value) -> bool {
    match b {
        Value::Type(t) => super::is_instance(t, a),
        Value::Regexp(src) => match (a, super::regex::compile_ruby(src)) {
            (Value::String(s), Ok(re)) => re.is_match(&**s).unwrap_or(false),
            _ => false,
        },
        _ => a.puppet_eq(b),
    }
}

/// A member being declared, for `assert_override`.
enum Member<'a> {
    Attribute(&'a Attribute),
    Function(&'a Function),
}

/// An existing member.
#[derive(Clone)]
enum MemberRef {
    Attribute(Attribute),
    Function(Function),
}

impl MemberRef {
    fn ty(&self) -> &PType {
        match self {
            MemberRef::Attribute(a) => &a.ty,
            MemberRef::Function(f) => &f.ty,
        }
    }
}

/// Puppet's `assert_override` / `assert_can_be_overridden`.
fn assert_override(label: &str, m: &Member<'_>, parent: Option<&ObjectType>) -> Result<(), String> {
    let (kind, name, override_, ty, constant) = match m {
        Member::Attribute(a) => ("attribute", &a.name, a.override_, &a.ty, a.is_constant()),
        Member::Function(f) => ("function", &f.name, f.override_, &f.ty, false),
    };
    let mlabel = format!("{kind} {label}[{name}]");
    let inherited = parent.and_then(|p| p.member(name).map(|r| (r, p.member_label(name))));
    let Some((pm, Some(plabel))) = inherited else {
        if override_ {
            return Err(format!(
                "expected {mlabel} to override an inherited {kind}, but no such {kind} was found"
            ));
        }
        return Ok(());
    };
    let (same_class, pfinal, pconstant) = match (&pm, m) {
        (MemberRef::Attribute(p), Member::Attribute(_)) => (true, p.final_, p.is_constant()),
        (MemberRef::Function(p), Member::Function(_)) => (true, p.final_, false),
        (MemberRef::Attribute(p), _) => (false, p.final_, p.is_constant()),
        (MemberRef::Function(p), _) => (false, p.final_, false),
    };
    if !same_class {
        return Err(format!("{mlabel} attempts to override {plabel}"));
    }
    if pfinal && !(pconstant && constant) {
        return Err(format!("{mlabel} attempts to override final {plabel}"));
    }
    if !override_ {
        return Err(format!(
            "{mlabel} attempts to override {plabel} without having override => true"
        ));
    }
    if !super::is_assignable(pm.ty(), ty) {
        return Err(format!(
            "{mlabel} attempts to override {plabel} with a type that does not match"
        ));
    }
    Ok(())
}

/// Puppet's `TYPE_FUNCTION`: a function spec hash's type.
fn function_spec_type() -> PType {
    let member = |name: &str, optional_key: bool, value: PType| StructMember {
        name: name.to_string(),
        optional_key,
        value,
    };
    PType::Struct(vec![
        member("type", false, PType::Type(Some(Box::new(callable_type())))),
        member("final", true, PType::Boolean(None)),
        member("override", true, PType::Boolean(None)),
        member(
            "annotations",
            true,
            PType::hash(PType::Type(None), PType::Any, None),
        ),
    ])
}

fn callable_type() -> PType {
    PType::Callable {
        params: None,
        block: None,
        return_type: None,
    }
}

/// A function from its spec: `Callable[...]` or `{type => Callable[...], ...}`.
fn function(label: &str, name: &str, spec: &Value) -> Result<Function, String> {
    let flabel = format!("function {label}[{name}]");
    match spec {
        Value::Type(t) if matches!(super::assignable::unalias(t), PType::Callable { .. }) => {
            Ok(Function {
                name: name.to_string(),
                ty: (**t).clone(),
                final_: false,
                override_: false,
                annotations: None,
            })
        }
        Value::Hash(h) => {
            let spec_type = function_spec_type();
            if !super::is_instance(&spec_type, spec) {
                return Err(super::describe_mismatch_named(
                    &format!("initializer for {flabel} has wrong type,"),
                    &spec_type,
                    &super::infer_set(spec),
                ));
            }
            let get = |k: &str| h.get(&Value::string(k));
            let Some(Value::Type(ty)) = get("type") else {
                return Err(format!("pverify: {flabel} needs a type"));
            };
            Ok(Function {
                name: name.to_string(),
                ty: (**ty).clone(),
                final_: matches!(get("final"), Some(Value::Boolean(true))),
                override_: matches!(get("override"), Some(Value::Boolean(true))),
                annotations: get("annotations").cloned(),
            })
        }
        other => Err(super::describe_mismatch_named(
            &format!("{flabel} has wrong type,"),
            &PType::Type(Some(Box::new(callable_type()))),
            &super::infer_set(other),
        )),
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
    /// The `eql?` (aliased `==`) Puppet's `RubyGenerator` writes for each
    /// level of the type's ancestry: a level compares its `equality`
    /// attributes (by default its own non-constant ones) and, when it
    /// includes the type and its parent does not, that both are instances
    /// of the same class; a level comparing nothing defines nothing, and
    /// with no level defining it a value equals only itself. Annotation
    /// types keep Ruby's identity equality.
    fn eq(&self, o: &ObjectValue) -> bool {
        self.try_eq(o).unwrap_or(false)
    }
}

impl ObjectValue {
    /// `==` as [`PartialEq`], or the error Puppet's `eql?` raises when it
    /// reaches a derived attribute named in an `equality` (its reader has
    /// no implementation).
    pub fn try_eq(&self, o: &ObjectValue) -> Result<bool, String> {
        if std::ptr::eq(self, o) {
            return Ok(true);
        }
        if self.ty.is_annotation() {
            return Ok(false);
        }
        let mut levels = Vec::new();
        let mut t = Some(Arc::new(strip(&self.ty)));
        while let Some(l) = t {
            t = l.parent_object();
            levels.push(l);
        }
        let mut defined = false;
        for l in levels.iter().rev() {
            let parent_includes = l.parent_object().is_some_and(|p| p.equality_include_type);
            let include_type = l.equality_include_type && !parent_includes;
            let names: Vec<String> = match &l.equality {
                Some(n) => n.clone(),
                None => l
                    .attributes
                    .iter()
                    .filter(|a| !a.is_constant() && a.kind.as_deref() != Some("derived"))
                    .map(|a| a.name.clone())
                    .collect(),
            };
            if names.is_empty() && !include_type {
                continue;
            }
            defined = true;
            if include_type && strip(&self.ty) != strip(&o.ty) {
                return Ok(false);
            }
            for n in &names {
                let mine = self.values.iter().find(|(x, _)| x == n).map(|(_, v)| v);
                let theirs = o.values.iter().find(|(x, _)| x == n).map(|(_, v)| v);
                match (mine, theirs) {
                    (Some(a), Some(b)) if a == b => {}
                    (_, None)
                        if o.ty
                            .all_attributes()
                            .iter()
                            .any(|a| &a.name == n && a.kind.as_deref() == Some("derived")) =>
                    {
                        let label = o.member_label(n).unwrap_or_default();
                        return Err(format!("no method is implemented for derived {label}"));
                    }
                    _ => return Ok(false),
                }
            }
        }
        Ok(defined)
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
