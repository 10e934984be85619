//! Ruby's `to_yaml` in templates and interpreted functions
//! (`@config.to_yaml`, stdlib's `data.to_yaml(options)`): the Ruby value as
//! Psych's tree, written by `puppet_model::psych`. Ruby values here are copies, so
//! an object met twice is written twice, where Psych would alias it; a
//! Puppet value Ruby holds unchanged is written from Puppet's own value,
//! whose shared objects are aliased (`puppet_to_yaml`).

use super::value::{to_puppet, RValue};
use puppet_model::psych::{self, Node};

pub fn to_yaml(recv: &RValue, options: Option<&RValue>) -> Result<String, String> {
    let opts = options_of(options)?;
    let node = node(recv, opts.fold_width)?;
    psych::dump(&node, &opts)
}

/// `to_yaml` of a Puppet value Ruby holds unchanged (an argument, an
/// instance variable): the Puppet value itself, so that an object met
/// twice is aliased as Psych aliases it.
pub fn puppet_to_yaml(
    v: &puppet_model::value::Value,
    options: Option<&RValue>,
) -> Result<String, String> {
    let opts = options_of(options)?;
    let node = psych::value_node(v, opts.fold_width)?;
    psych::dump(&node, &opts)
}

fn options_of(options: Option<&RValue>) -> Result<psych::Options, String> {
    Ok(match options.map(to_puppet) {
        Some(puppet_model::value::Value::Hash(ref h)) => psych::options_from(h)?,
        Some(puppet_model::value::Value::Undef) | None => psych::Options::default(),
        Some(_) => return Err("no implicit conversion into Hash".into()),
    })
}

fn node(v: &RValue, fold: Option<usize>) -> Result<Node, String> {
    super::value::deep(|| node_nested(v, fold))
}

fn node_nested(v: &RValue, fold: Option<usize>) -> Result<Node, String> {
    // Copies are written once per path, as Ruby writes them: data shared
    // at every level is exponential, and the budget ends it (the node then
    // fails with the budget's text).
    if v.walk_stops() {
        return Ok(Node::null());
    }
    Ok(match v {
        RValue::Nil => Node::null(),
        RValue::Bool(b) => Node::bool(*b),
        RValue::Int(i) => Node::int(i),
        RValue::Big(b) => Node::int(b),
        RValue::Float(f) => Node::float(*f),
        RValue::Str(s) => Node::Scalar(psych::string_scalar(s, fold)),
        RValue::Sym(s) => Node::symbol(s),
        RValue::Regex(src) => psych::regexp_node(src),
        RValue::Array(items) => Node::seq(
            items
                .iter()
                .map(|x| node(x, fold))
                .collect::<Result<_, _>>()?,
        ),
        RValue::Hash(pairs) => Node::map(
            pairs
                .iter()
                .map(|(k, x)| Ok((node(k, fold)?, node(x, fold)?)))
                .collect::<Result<_, String>>()?,
        ),
        RValue::Opaque(v) => psych::value_node(v, fold)?,
        other => {
            return Err(format!(
                "pverify does not write a Ruby {} as YAML",
                other.class_name()
            ))
        }
    })
}
