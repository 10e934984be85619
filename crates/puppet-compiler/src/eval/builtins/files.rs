//! Functions that read the environment's files and modules: `file`,
//! `find_file`, `module_directory`; `generate`, which pverify refuses; and
//! `call`, a function called by name.

use super::registry::{self, Caller, Resolved};
use super::ruby_format::args3;
use super::signatures::{sig, Sig};
use super::Cx;
use crate::eval::expr::R;
use crate::eval::value::Value;
use puppet_model::ruby::ruby_to_s;
use puppet_model::types::text::ty;

/// Puppet's `Parser::Files.find_file`: an absolute path as it is, else
/// `module/rest` as `<module>/files/rest` when that exists.
fn find_in_modules(cx: &Cx<'_, '_>, reference: &str) -> Option<std::path::PathBuf> {
    if reference.starts_with('/') {
        return Some(std::path::PathBuf::from(reference));
    }
    if reference.is_empty() {
        return None;
    }
    let (module, rest) = reference.split_once('/')?;
    let dir = cx.c.env.module_dir(module)?;
    let p = dir.join("files").join(rest);
    cx.c.env.files().exists(&p).then_some(p)
}

/// `binary_file(path)`: a file's bytes as a Binary (`module/file` in the
/// module's `files/`, or an absolute path), confined like `file()`.
pub(super) fn binary_file(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.dispatch(&[sig(&[("String", "path")])], args)?;
    let reference = args[0].as_str().unwrap_or_default().to_string();
    let Some(p) = find_in_modules(cx, &reference).filter(|p| cx.c.env.files().exists(p)) else {
        return cx.fail(format!(
            "binary_file(): The given file '{reference}' does not exist"
        ));
    };
    match cx.c.env.files().read(&p) {
        Ok(bytes) => Ok(Value::Binary(bytes.into())),
        Err(e) => cx.fail(format!("{}: {e}", p.display())),
    }
}

/// `file(path, ...)` (3.x): the contents of the first file that exists.
pub(super) fn file(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    cx.arity3(args, -2)?;
    let args = args3(args);
    for a in &args {
        let reference = ruby_to_s(a);
        if let Some(p) = find_in_modules(cx, &reference).filter(|p| cx.c.env.files().exists(p)) {
            return match cx.c.env.files().read(&p) {
                Ok(bytes) => {
                    let text = crate::bad_bytes::decode(&bytes);
                    if matches!(text, std::borrow::Cow::Owned(_)) && cx.c.invalid_utf8.is_none() {
                        cx.c.invalid_utf8 = Some(p.clone());
                    }
                    Ok(Value::string(text.as_ref()))
                }
                Err(e) => cx.fail(format!("{}: {e}", p.display())),
            };
        }
    }
    let all: Vec<String> = args.iter().map(ruby_to_s).collect();
    cx.fail(format!("Could not find any files from {}", all.join(", ")))
}

/// The strings of `repeated_param 'String'` or `repeated_param 'Array[String]'`.
fn names_arg(cx: &Cx<'_, '_>, args: &[Value], sigs: &[Sig; 2]) -> R<Vec<String>> {
    let i = cx.dispatch(sigs, args)?;
    let mut out = Vec::new();
    for a in args {
        match a {
            Value::Array(items) if i == 1 => {
                out.extend(items.iter().filter_map(|v| v.as_str().map(String::from)))
            }
            other => out.extend(other.as_str().map(String::from)),
        }
    }
    Ok(out)
}

/// `find_file` (4.x): the path of the first file that exists, or undef.
pub(super) fn find_file(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    const SIGS: [Sig; 2] = [
        sig(&[("String", "paths")]).rest(0),
        sig(&[("Array[String]", "paths_array")]).rest(0),
    ];
    for reference in names_arg(cx, args, &SIGS)? {
        if let Some(p) = find_in_modules(cx, &reference).filter(|p| cx.c.env.files().exists(p)) {
            return Ok(Value::string(p.display().to_string()));
        }
    }
    Ok(Value::Undef)
}

/// `find_template` (4.x): the path of the first template that exists
/// (`mod/file` in the module's `templates`, or an absolute path), or undef;
/// confined as `template()` is.
pub(super) fn find_template(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    const SIGS: [Sig; 2] = [
        sig(&[("String", "paths")]).rest(0),
        sig(&[("Array[String]", "paths_array")]).rest(0),
    ];
    for reference in names_arg(cx, args, &SIGS)? {
        if let Some(p) = cx.c.env.find_template(&reference) {
            return Ok(Value::string(p.display().to_string()));
        }
    }
    Ok(Value::Undef)
}

/// `module_directory` (4.x): the directory of the first module found.
pub(super) fn module_directory(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    const SIGS: [Sig; 2] = [
        sig(&[("String", "names")]).rest(0),
        sig(&[("Array[String]", "names")]).rest(0),
    ];
    for name in names_arg(cx, args, &SIGS)? {
        if let Some(d) = cx.c.env.module_dir(&name) {
            return Ok(Value::string(d.display().to_string()));
        }
    }
    Ok(Value::Undef)
}

/// `generate` (3.x): Puppet's checks of the command, then, only when the node
/// allows it (`--allow-generate`), the command itself; refused otherwise (the
/// result would depend on the machine pverify runs on, not the node's).
pub(super) fn generate(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    let args = args3(args);
    let words: Vec<String> = args.iter().map(ruby_to_s).collect();
    let command = words.first().cloned().unwrap_or_default();
    if !command.starts_with('/') {
        return cx.fail("Generators must be fully qualified");
    }
    if !command
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || "-/.+".contains(c))
    {
        return cx.fail("Generators can only contain alphanumerics, file separators, and dashes");
    }
    if command.contains("..") {
        return cx.fail("Can not use generators with '..' in them.");
    }
    if !cx.c.node.allow_generate {
        return cx.fail(format!(
            "pverify does not run generate() commands ({command}); allow them with --allow-generate \
             (or `allow_generate: true` in pverify.yaml), or mock generate (--mock-functions)"
        ));
    }
    match run_generator(&words) {
        Ok(output) => Ok(Value::string(output)),
        Err(detail) => cx.fail(format!("Failed to execute generator {command}: {detail}")),
    }
}

/// Runs a generator as Puppet's `Puppet::Util::Execution.execute` does: no
/// shell, in the command's directory, stdin from /dev/null, stderr merged
/// into stdout, `LANG`/`LC_ALL` `C` and the other locale and user variables
/// unset. Returns the output, or Puppet's `ExecutionFailure` text.
fn run_generator(words: &[String]) -> Result<String, String> {
    use std::process::{Command, Stdio};
    const LOCALE_VARS: &[&str] = &[
        "LANG",
        "LC_ALL",
        "LC_MESSAGES",
        "LANGUAGE",
        "LC_COLLATE",
        "LC_CTYPE",
        "LC_MONETARY",
        "LC_NUMERIC",
        "LC_TIME",
    ];
    const USER_VARS: &[&str] = &["HOME", "USER", "LOGNAME"];
    let command = &words[0];
    let shown = words.join(" ");
    let failed = |status: &str, output: &str| {
        format!(
            "Execution of '{shown}' returned {status}: {}",
            output.trim()
        )
    };
    let dir = std::path::Path::new(command)
        .parent()
        .unwrap_or(std::path::Path::new("/"));
    let (mut reader, writer) = std::io::pipe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(command);
    cmd.args(&words[1..])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().map_err(|e| e.to_string())?)
        .stderr(writer);
    for var in LOCALE_VARS.iter().chain(USER_VARS) {
        cmd.env_remove(var);
    }
    cmd.env("LANG", "C").env("LC_ALL", "C");
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        // Puppet's forked child logs the exec error and exits 1.
        Err(e) => {
            let reason = e.to_string();
            let reason = reason.split(" (os error").next().unwrap_or_default();
            return Err(failed(
                "1",
                &format!("Error: Could not execute posix command: {reason} - {command}"),
            ));
        }
    };
    // The command's copies of the pipe's writer are the only ones left.
    drop(cmd);
    let mut output = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut output).map_err(|e| e.to_string())?;
    let status = child.wait().map_err(|e| e.to_string())?;
    let output = String::from_utf8_lossy(&output).into_owned();
    if status.success() {
        Ok(output)
    } else {
        // Ruby's exit status of a signalled process is nil, shown empty.
        let code = status.code().map(|c| c.to_string()).unwrap_or_default();
        Err(failed(&code, &output))
    }
}

/// `call(name, args...)`: the named function with the arguments and block.
pub(super) fn call_fn(cx: &mut Cx<'_, '_>, args: &[Value]) -> R<Value> {
    if args.len() == 1 && !matches!(args[0], Value::String(_)) {
        // The second signature takes a Deferred, which pverify does not have.
        let got = puppet_model::types::describe_mismatch(&ty("String"), &args[0]);
        let got = got.rsplit(", got ").next().unwrap_or_default().to_string();
        return cx.fail(format!(
            "The function 'call' was called with arguments it does not accept. It expects one of:\n  \
             (String function_name, Any arguments*, Callable block?)\n    \
             rejected: parameter 'function_name' expects a String value, got {got}\n  \
             (Object[{{name => 'Deferred', attributes => {{'name' => \
             Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => \
             {{type => Optional[Array], value => undef}}}}}}] deferred)\n    \
             rejected: parameter 'deferred' expects a Deferred value, got {got}"
        ));
    }
    cx.dispatch(
        &[sig(&[("String", "function_name"), ("Any", "arguments")])
            .rest(1)
            .opt_block("Callable")],
        args,
    )?;
    let name = args[0].as_str().unwrap_or_default().to_string();
    let rest = &args[1..];
    match registry::resolve(cx.c, &name, Caller::Call)? {
        Resolved::Native(entry) => {
            super::call_library(cx.c, entry, rest, cx.lambda, cx.scope, cx.ctx, cx.at)
        }
        Resolved::TypeNew => {
            super::call_type_new(cx.c, &name, rest, cx.lambda, cx.scope, cx.ctx, cx.at)
        }
        Resolved::Puppet(def) => cx.c.call_puppet_function(&def, rest.to_vec(), cx.scope),
        Resolved::Mock(_) | Resolved::Ruby(_) | Resolved::Unknown => {
            cx.fail(format!("Unknown function '{name}'"))
        }
    }
}
