//! create_resources (3.x).

use super::Cx;
use crate::eval::error::{EvalError, Location};
use crate::eval::expr::R;
use crate::eval::value::{Map, Value};
use puppet_model::ruby::ruby_to_s;
use puppet_syntax::util::NameStr as _;

pub(super) fn create_resources(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    use puppet_syntax::ast::ResourceForm;
    cx.arity3(args, -3)?;
    if args.len() > 3 {
        return cx.fail(format!(
            "create_resources(): wrong number of arguments ({}; must be 2 or 3)",
            args.len()
        ));
    }
    let Value::Hash(instances) = &args[1] else {
        return cx.fail("create_resources(): second argument must be a hash");
    };
    let defaults = match args.get(2) {
        None => Map::default(),
        Some(Value::Hash(h)) => (**h).clone(),
        Some(_) => {
            return cx.fail("create_resources(): third argument, if provided, must be a hash")
        }
    };
    let type_arg = match &args[0] {
        Value::String(s) => s.to_string(),
        other => return cx.fail(format!("undefined method `sub' for {}", ruby_to_s(other))),
    };
    let (form, bare) = if let Some(t) = type_arg.strip_prefix("@@") {
        (ResourceForm::Exported, t)
    } else if let Some(t) = type_arg.strip_prefix('@') {
        (ResourceForm::Virtual, t)
    } else {
        (ResourceForm::Regular, type_arg.as_str())
    };
    let key = bare.trim_colons().to_lowercase();
    if key == "class" && form != ResourceForm::Regular {
        return Err(EvalError::Issue {
            detail: crate::eval::issues::resources::CLASS_NOT_VIRTUALIZABLE.into(),
            at: Location {
                column: None,
                ..cx.at.clone()
            },
        });
    }
    let at = cx.at.clone();
    for (title, params) in instances.iter() {
        let mut merged = defaults.clone();
        if let Value::Hash(p) = params {
            for (k, v) in p.iter() {
                merged.insert(k.clone(), v.clone());
            }
        }
        let titles: Vec<Value> = match title {
            Value::Array(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        for t in titles {
            let title = t.to_string();
            if key == "class" {
                let ckey = title.trim_colons().to_lowercase();
                let Some(def) = cx.c.find_class(&ckey)? else {
                    return cx.fail(crate::eval::issues::resources::declared_class_not_found(
                        &title,
                    ));
                };
                let params: puppet_model::value::Params = merged
                    .iter()
                    .map(|(k, v)| (k.to_string().into(), v.clone()))
                    .collect();
                let id =
                    cx.c.declare_class(&ckey, def, Some(params), cx.scope, &at)?;
                // As for other resources of the 3.x function: `exported`
                // is unset, and written after `kind`.
                cx.c.catalog[id].exported_nil = true;
                continue;
            }
            let ops: Vec<(puppet_model::value::Name, bool, Value)> = merged
                .iter()
                .map(|(k, v)| (k.to_string().into(), false, v.clone()))
                .collect();
            let id =
                cx.c.create_resource(&key, title.as_str().into(), &ops, form, cx.scope, &at)?;
            if form == ResourceForm::Regular {
                cx.c.catalog[id].exported_nil = true;
            }
            if !matches!(t, Value::String(_)) {
                // A title that is not a string (an Integer hash key) is not a
                // tag (Puppet's `valid_tag?` wants a String), and for a defined
                // type Puppet's `to_data_hash` writes the `name` that
                // `parse_title` derives from it, since it no longer equals
                // the title (built-in types get a string title earlier).
                let res = &mut cx.c.catalog[id];
                res.tags.retain(|tag| **tag != *title);
                if res.define.is_some() && !res.params.contains_key("name") {
                    res.params
                        .shift_insert(0, "name".into(), Value::string(title.as_str()));
                }
            }
        }
    }
    Ok(Value::Undef)
}
