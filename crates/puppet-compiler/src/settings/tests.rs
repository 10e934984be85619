use super::*;

fn set(name: &str, v: Value) -> Result<Settings, SettingError> {
    let mut s = Settings::default();
    s.set(name, &v).map(|_| s)
}

#[test]
fn typed_values_from_yaml_and_from_strings() {
    assert_eq!(
        set("strict", Value::string("error")).unwrap().strict,
        Some(Strict::Error)
    );
    assert_eq!(
        set("strict_variables", Value::Boolean(false))
            .unwrap()
            .strict_variables,
        Some(false)
    );
    assert_eq!(
        set("strict_variables", Value::string("true"))
            .unwrap()
            .strict_variables,
        Some(true)
    );
    assert_eq!(
        set("max_warnings", Value::string("3"))
            .unwrap()
            .max_warnings,
        Some(3)
    );
    let s = set(
        "disable_warnings",
        Value::string("deprecations, undefined_variables"),
    )
    .unwrap();
    assert!(s.warnings_disabled(WarningKind::Deprecations));
    assert!(s.warnings_disabled(WarningKind::UndefinedVariables));
}

#[test]
fn bad_values_and_unknown_names_are_errors_naming_the_setting() {
    let e = set("strict", Value::string("loud")).unwrap_err().0;
    assert!(
        e.contains("strict") && e.contains("off, warning, error"),
        "{e}"
    );
    // YAML 1.1's unquoted off.
    let e = set("strict", Value::Boolean(false)).unwrap_err().0;
    assert!(e.contains("'off'"), "{e}");
    assert!(set("strict_variables", Value::string("yes")).is_err());
    assert!(set("max_errors", Value::string("ten")).is_err());
    let e = set("disable_warnings", Value::string("loud"))
        .unwrap_err()
        .0;
    assert!(e.contains("disable_warnings") && e.contains("loud"), "{e}");
    let e = set("strcit", Value::string("error")).unwrap_err().0;
    assert!(e.starts_with("unknown Puppet setting 'strcit'"), "{e}");
    let e = set("environment_timeout", Value::string("0"))
        .unwrap_err()
        .0;
    assert!(e.contains("not supported by pverify"), "{e}");
}

#[test]
fn default_only_and_ignored_settings() {
    assert!(set("rich_data", Value::Boolean(true)).is_ok());
    let e = set("rich_data", Value::Boolean(false)).unwrap_err().0;
    assert!(
        e.contains("rich_data") && e.contains("only its default"),
        "{e}"
    );
    assert_eq!(
        set("certname", Value::string("x")).unwrap(),
        Settings::default()
    );
    let e = set("digest_algorithm", Value::string("sha512"))
        .unwrap_err()
        .0;
    assert!(e.contains("not supported"), "{e}");
}

#[test]
fn assignments() {
    let mut s = Settings::default();
    s.set_assignment("strict=off").unwrap();
    assert_eq!(s.strict, Some(Strict::Off));
    assert!(s.set_assignment("strict").is_err());
    s.set_assignment("code=notify { 'a=b': }").unwrap();
    assert_eq!(s.code.as_deref(), Some("notify { 'a=b': }"));
}

#[test]
fn every_registered_setting_is_a_puppet_setting_and_handled() {
    for s in REGISTRY {
        assert!(
            puppet_names::PUPPET_SETTINGS.contains(&s.name),
            "{}",
            s.name
        );
        // Its own default is accepted.
        if !matches!(s.kind, Kind::List(_))
            && !s.default7.starts_with('(')
            && !s.default7.starts_with('$')
        {
            let mut x = Settings::default();
            x.set(s.name, &Value::string(s.default7))
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn docs_settings_md_holds_the_registry() {
    let doc = include_str!("../../../../docs/settings.md");
    let table = markdown_table();
    assert!(
        doc.contains(&table),
        "docs/settings.md's table is stale; it should read:\n{table}"
    );
}
