//! Ruby library behaviour that Puppet's functions and the ERB interpreter
//! both show: JSON generation, `to_s`/`inspect`, file names, shell quoting,
//! digests; which Ruby (3.1 or 3.3) they are those of.

pub mod digest;
pub mod json;
pub mod json_parse;
pub mod text;
pub mod version;

pub use digest::{ruby_digest, ruby_hexdigest};
pub use json::{
    json_nesting_error, json_string, json_utf8_error, ruby_inspect, ruby_json, ruby_json_pretty,
    ruby_to_s,
};
pub use json_parse::JsonParseError;
pub use text::{ruby_basename, ruby_dirname, shell_escape};
pub use version::{Receiver, RubyVersion};
