//! The resource types Puppet 8 finds in its vendored modules
//! (`vendormoduledir`, `/usr/share/puppet/vendor_modules` in Debian 13's
//! `puppet-agent`: augeas_core, cron_core, host_core, mount_core,
//! scheduled_task, selinux_core, sshkeys_core, yumrepo_core, zfs_core,
//! zone_core). Every environment's modulepath ends with that directory, so
//! these types are known wherever no module on the modulepath defines the
//! name; Puppet 7.23 as Debian 12 packages it has an empty one.
//!
//! Each entry is what Puppet 8.10 reports of the loaded type
//! (`Puppet::Type.type(:x)`: `parameters`, `validproperties`,
//! `key_attributes`, `isomorphic?`, `title_patterns`), providers loaded.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::{TitlePattern, TypeDef};

/// A vendored type of that name (lower case), if Puppet 8 has one.
pub fn vendored(name: &str) -> Option<&'static Arc<TypeDef>> {
    static TABLE: OnceLock<HashMap<&'static str, Arc<TypeDef>>> = OnceLock::new();
    TABLE
        .get_or_init(|| TYPES.iter().map(|t| (t.name, Arc::new(t.def()))).collect())
        .get(name)
}

struct Vendored {
    name: &'static str,
    parameters: &'static [&'static str],
    properties: &'static [&'static str],
    key_attributes: &'static [&'static str],
    /// `(regex, attributes)`; empty for Puppet's default pattern.
    title_patterns: &'static [(&'static str, &'static [&'static str])],
}

impl Vendored {
    fn def(&self) -> TypeDef {
        let mut def = TypeDef::new(
            self.name,
            self.parameters,
            self.properties,
            self.key_attributes,
            true,
        );
        if !self.title_patterns.is_empty() {
            def.title_patterns = Some(
                self.title_patterns
                    .iter()
                    .map(|(regex, attributes)| TitlePattern {
                        regex: regex.to_string(),
                        attributes: attributes.iter().map(|a| a.to_string()).collect(),
                    })
                    .collect(),
            );
        }
        def
    }
}

const TYPES: &[Vendored] = &[
    Vendored {
        name: "augeas",
        parameters: &[
            "name",
            "context",
            "onlyif",
            "changes",
            "root",
            "load_path",
            "force",
            "type_check",
            "lens",
            "incl",
            "show_diff",
            "provider",
        ],
        properties: &["returns"],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "cron",
        parameters: &["name", "provider"],
        properties: &[
            "ensure",
            "command",
            "special",
            "minute",
            "hour",
            "weekday",
            "month",
            "monthday",
            "environment",
            "user",
            "target",
        ],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "host",
        parameters: &["name", "provider"],
        properties: &["ensure", "ip", "host_aliases", "comment", "target"],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "mount",
        parameters: &["name", "remounts", "provider"],
        properties: &[
            "ensure",
            "device",
            "blockdevice",
            "fstype",
            "options",
            "pass",
            "atboot",
            "dump",
            "target",
        ],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "scheduled_task",
        parameters: &["name", "password", "provider"],
        properties: &[
            "ensure",
            "enabled",
            "command",
            "working_dir",
            "arguments",
            "description",
            "user",
            "compatibility",
            "trigger",
        ],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "selboolean",
        parameters: &["name", "persistent", "provider"],
        properties: &["value"],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "selmodule",
        parameters: &["name", "selmoduledir", "selmodulepath", "provider"],
        properties: &["ensure", "syncversion"],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "ssh_authorized_key",
        parameters: &["name", "drop_privileges", "provider"],
        properties: &["ensure", "type", "key", "user", "target", "options"],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "sshkey",
        parameters: &["type", "name", "provider"],
        properties: &["ensure", "key", "host_aliases", "target"],
        key_attributes: &["type", "name"],
        title_patterns: &[
            ("^(.*?)@(.*)$", &["name", "type"]),
            ("^([^@]+)$", &["name"]),
        ],
    },
    Vendored {
        name: "yumrepo",
        parameters: &["name", "target", "provider"],
        properties: &[
            "ensure",
            "descr",
            "mirrorlist",
            "baseurl",
            "enabled",
            "gpgcheck",
            "payload_gpgcheck",
            "repo_gpgcheck",
            "gpgkey",
            "mirrorlist_expire",
            "include",
            "exclude",
            "gpgcakey",
            "includepkgs",
            "enablegroups",
            "module_hotfixes",
            "failovermethod",
            "keepalive",
            "retries",
            "http_caching",
            "timeout",
            "metadata_expire",
            "protect",
            "priority",
            "minrate",
            "throttle",
            "bandwidth",
            "cost",
            "proxy",
            "proxy_username",
            "proxy_password",
            "s3_enabled",
            "sslcacert",
            "sslverify",
            "sslclientcert",
            "sslclientkey",
            "metalink",
            "skip_if_unavailable",
            "assumeyes",
            "deltarpm_percentage",
            "deltarpm_metadata_percentage",
            "username",
            "password",
        ],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "zfs",
        parameters: &["name", "provider"],
        properties: &[
            "ensure",
            "aclinherit",
            "aclmode",
            "acltype",
            "atime",
            "canmount",
            "checksum",
            "compression",
            "copies",
            "dedup",
            "defaultuserquota",
            "devices",
            "exec",
            "logbias",
            "mountpoint",
            "nbmand",
            "overlay",
            "primarycache",
            "quota",
            "readonly",
            "recordsize",
            "refquota",
            "refreservation",
            "relatime",
            "reservation",
            "secondarycache",
            "setuid",
            "shareiscsi",
            "sharenfs",
            "sharesmb",
            "snapdir",
            "sync",
            "version",
            "volsize",
            "vscan",
            "xattr",
            "zoned",
        ],
        key_attributes: &["name"],
        title_patterns: &[],
    },
    Vendored {
        name: "zpool",
        parameters: &["pool", "raid_parity", "provider"],
        properties: &[
            "ensure",
            "disk",
            "mirror",
            "raidz",
            "spare",
            "log",
            "cache",
            "ashift",
            "autoexpand",
            "failmode",
        ],
        key_attributes: &["pool"],
        title_patterns: &[],
    },
    Vendored {
        name: "zone",
        parameters: &[
            "name",
            "id",
            "clone",
            "sysidcfg",
            "create_args",
            "install_args",
            "realhostname",
            "provider",
        ],
        properties: &[
            "ensure", "ip", "iptype", "autoboot", "path", "pool", "shares", "dataset", "inherit",
        ],
        key_attributes: &["name"],
        title_patterns: &[],
    },
];
