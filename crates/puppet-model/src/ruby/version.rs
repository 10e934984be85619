//! Which Ruby a reference Puppet runs on, and the texts and behaviours in
//! which the two differ: Puppet 7.23 runs on Ruby 3.1 (Psych 4.0, json
//! 2.6), Puppet 8.10 on Ruby 3.3 (Psych 5.1, json 2.9). Each difference
//! here was seen with both Rubies (`ruby -e` on the host and in the
//! Debian 13 root).

use crate::yaml::{BadAlias, YamlError};

/// The Ruby whose behaviour a template or a module's Ruby function shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RubyVersion {
    /// Ruby 3.1 (Debian 12, under Puppet 7.23).
    V3_1,
    /// Ruby 3.3 (Debian 13, under Puppet 8.10).
    #[default]
    V3_3,
}

/// The object a `NoMethodError` or `NameError` names, as Ruby's message
/// describes it.
#[derive(Clone, Copy, Debug)]
pub enum Receiver<'a> {
    Nil,
    True,
    False,
    /// The top-level object (`main`).
    Main,
    /// A class, by its name.
    Class(&'a str),
    /// A module, by its name.
    Module(&'a str),
    /// Any other object: its `inspect` and its class's name.
    Instance {
        inspect: &'a str,
        class: &'a str,
    },
}

impl RubyVersion {
    /// `RUBY_VERSION`: Debian 12's Ruby and Debian 13's.
    pub fn release(self) -> &'static str {
        match self {
            RubyVersion::V3_1 => "3.1.2",
            RubyVersion::V3_3 => "3.3.8",
        }
    }

    /// The receiver part of `undefined method `m' for ...`: Ruby 3.1 writes
    /// the object's `inspect` and class (`"v":String`, `nil:NilClass`; an
    /// `inspect` of the `#<...>` form alone), Ruby 3.3 only the kind of
    /// object (`an instance of String`, `nil`, `class String`).
    pub fn receiver(self, recv: Receiver<'_>) -> String {
        match (self, recv) {
            (RubyVersion::V3_1, Receiver::Nil) => "nil:NilClass".into(),
            (RubyVersion::V3_1, Receiver::True) => "true:TrueClass".into(),
            (RubyVersion::V3_1, Receiver::False) => "false:FalseClass".into(),
            (RubyVersion::V3_1, Receiver::Main) => "main:Object".into(),
            (RubyVersion::V3_1, Receiver::Class(name)) => format!("{name}:Class"),
            (RubyVersion::V3_1, Receiver::Module(name)) => format!("{name}:Module"),
            (RubyVersion::V3_1, Receiver::Instance { inspect, class }) => {
                if inspect.starts_with("#<") {
                    inspect.to_string()
                } else {
                    format!("{inspect}:{class}")
                }
            }
            (RubyVersion::V3_3, Receiver::Nil) => "nil".into(),
            (RubyVersion::V3_3, Receiver::True) => "true".into(),
            (RubyVersion::V3_3, Receiver::False) => "false".into(),
            (RubyVersion::V3_3, Receiver::Main) => "main".into(),
            (RubyVersion::V3_3, Receiver::Class(name)) => format!("class {name}"),
            (RubyVersion::V3_3, Receiver::Module(name)) => format!("module {name}"),
            (RubyVersion::V3_3, Receiver::Instance { class, .. }) => {
                format!("an instance of {class}")
            }
        }
    }

    /// Ruby's `NoMethodError` text.
    pub fn no_method(self, name: &str, recv: Receiver<'_>) -> String {
        format!("undefined method `{name}' for {}", self.receiver(recv))
    }

    /// Ruby's `NameError` text for a bare name that is neither a local
    /// variable nor a method of `recv`.
    pub fn no_local_or_method(self, name: &str, recv: Receiver<'_>) -> String {
        format!(
            "undefined local variable or method `{name}' for {}",
            self.receiver(recv)
        )
    }

    /// A `SyntaxError`'s message as this Ruby's parser words it, from
    /// Ruby 3.1's wording: Ruby 3.3's parser (Lrama) adds `or dummy end`
    /// to a missing `end` at the end of the input.
    pub fn syntax_error(self, message: &str) -> String {
        match self {
            RubyVersion::V3_3 if message.ends_with("end-of-input, expecting `end'") => {
                format!("{message} or dummy end")
            }
            _ => message.to_string(),
        }
    }

    /// Whether `JSON.pretty_generate` writes an empty array or object as
    /// `[]`/`{}` (json 2.7 and later) rather than with its newlines and
    /// indent (`[\n\n  ]`, `{\n  }`, json 2.6).
    pub fn json_compact_empty(self) -> bool {
        self == RubyVersion::V3_3
    }

    /// Psych's `BadAlias` as this Ruby's Psych raises it: its class and
    /// message. Psych 4.0 says `Unknown alias: NAME` for any refused
    /// alias; Psych 5 raises a subclass saying why: aliases were not
    /// enabled (`YAML.load`), or the anchor is not defined.
    pub fn bad_alias(self, alias: &BadAlias) -> (&'static str, String) {
        match self {
            RubyVersion::V3_1 => ("Psych::BadAlias", format!("Unknown alias: {}", alias.name)),
            RubyVersion::V3_3 if !alias.aliases_enabled => (
                "Psych::AliasesNotEnabled",
                "Alias parsing was not enabled. To enable it, pass `aliases: true` to \
                 `Psych::load` or `Psych::safe_load`."
                    .into(),
            ),
            RubyVersion::V3_3 => (
                "Psych::AnchorNotDefined",
                format!("An alias referenced an unknown anchor: {}", alias.name),
            ),
        }
    }

    /// A YAML error as this Ruby's Psych words it (a `BadAlias` reworded,
    /// any other as it is).
    pub fn yaml_error(self, mut e: YamlError) -> YamlError {
        if let Some(alias) = &e.bad_alias {
            e.message = self.bad_alias(alias).1;
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_method_texts_as_each_ruby_writes_them() {
        let s = Receiver::Instance {
            inspect: "\"v\"",
            class: "String",
        };
        assert_eq!(
            RubyVersion::V3_1.no_method("x", s),
            "undefined method `x' for \"v\":String"
        );
        assert_eq!(
            RubyVersion::V3_3.no_method("x", s),
            "undefined method `x' for an instance of String"
        );
        assert_eq!(
            RubyVersion::V3_1.no_method("join", Receiver::Nil),
            "undefined method `join' for nil:NilClass"
        );
        assert_eq!(
            RubyVersion::V3_3.no_method("join", Receiver::Nil),
            "undefined method `join' for nil"
        );
        assert_eq!(
            RubyVersion::V3_3.no_method("x", Receiver::Class("String")),
            "undefined method `x' for class String"
        );
        assert_eq!(
            RubyVersion::V3_3.no_method("x", Receiver::Module("Kernel")),
            "undefined method `x' for module Kernel"
        );
        let obj = Receiver::Instance {
            inspect: "#<Object>",
            class: "Object",
        };
        assert_eq!(
            RubyVersion::V3_1.no_method("x", obj),
            "undefined method `x' for #<Object>"
        );
    }

    #[test]
    fn a_missing_end_is_a_dummy_end_in_3_3() {
        let m = "syntax error, unexpected end-of-input, expecting `end'";
        assert_eq!(RubyVersion::V3_1.syntax_error(m), m);
        assert_eq!(
            RubyVersion::V3_3.syntax_error(m),
            format!("{m} or dummy end")
        );
    }
}
