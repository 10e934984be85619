//! A fleet of the benchmark's own for the warm ratio (issue 29: "your own
//! repo, not the bundled one alone"): a control repo generated at bench
//! time over the Debian module packages installed on the host
//! (`/usr/share/puppet/modules`, on the modulepath, not copied: none of
//! their code is committed here), with nodes of about 40 to 290 resources.
//!
//! Six roles (a baseline alone, web, database, load balancer, cache, file
//! server), each a class of the generated `fleet` module over the packaged
//! modules (apache, mysql, haproxy, redis, rsync, xinetd, ntp, chrony, apt,
//! sysctl, systemd, inifile, concat, stdlib). Each node's role and sizes
//! (vhosts, databases, balancer members, shares, users, kernel tunables)
//! are its ENC classes and parameters in the matrix of `pverify.yaml`,
//! drawn from its index by a fixed hash, so the catalogs spread in size as
//! a real fleet's do. The fact sets are the bundled control repo's.
//!
//! `bench_fleet::sample_ratio` times a sample spread over it against
//! Puppet, fresh and cached environment.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pverify_harness::control::{NodeSpec, Repo};

use crate::bench_fleet::SOURCE_REPO;

/// Nodes in the generated fleet (its sample is spread over them).
pub(crate) const NODES: usize = 1_000;

/// The `fleet` module's classes.
const MANIFESTS: &[(&str, &str)] = &[
    (
        "base.pp",
        r#"# Every node: time, packages, admin accounts, kernel tunables, motd.
class fleet::base (
  Integer[0] $users    = 1,
  Integer[0] $tunables = 2,
) {
  if $facts['os']['family'] == 'RedHat' {
    class { 'chrony':
      servers => ['0.pool.ntp.org', '1.pool.ntp.org'],
    }
  } else {
    class { 'ntp':
      servers => ['0.pool.ntp.org', '1.pool.ntp.org'],
    }
    class { 'apt':
      purge => { 'sources.list.d' => true },
    }
    apt::setting { 'conf-norecommends':
      content => "APT::Install-Recommends \"false\";\n",
    }
  }
  ensure_packages(['curl', 'vim', 'htop', 'tmux', 'git'], { ensure => 'installed' })
  ['sshd', 'cron', 'rsyslog'].each |String $s| {
    service { $s:
      ensure => running,
      enable => true,
    }
  }
  $infra = { 'puppet' => '10.0.0.2', 'mirror' => '10.0.0.3', 'syslog' => '10.0.0.4' }
  $infra.each |$h, $ip| {
    host { "${h}.${trusted['domain']}":
      ip           => $ip,
      host_aliases => [$h],
    }
  }
  $users.each |Integer $i| {
    $name = "admin${i}"
    group { $name:
      ensure => present,
      gid    => 3000 + $i,
    }
    user { $name:
      ensure     => present,
      uid        => 3000 + $i,
      gid        => 3000 + $i,
      home       => "/home/${name}",
      managehome => true,
      require    => Group[$name],
    }
    file { "/home/${name}/.ssh":
      ensure  => directory,
      owner   => $name,
      mode    => '0700',
      require => User[$name],
    }
    file { "/etc/sudoers.d/${name}":
      ensure  => file,
      mode    => '0440',
      content => "${name} ALL=(ALL) NOPASSWD: ALL\n",
    }
  }
  $tunables.each |Integer $i| {
    sysctl::value { "net.ipv4.conf.eth${i}.rp_filter":
      value => '1',
    }
  }
  ini_setting { 'journald storage':
    ensure  => present,
    path    => '/etc/systemd/journald.conf',
    section => 'Journal',
    setting => 'Storage',
    value   => 'persistent',
  }
  systemd::tmpfile { 'fleet.conf':
    content => "d /run/fleet 0755 root root -\n",
  }
  file { '/etc/motd':
    ensure  => file,
    content => "${trusted['certname']}: ${facts['os']['name']} ${facts['os']['release']['full']}\n",
  }
}
"#,
    ),
    (
        "web.pp",
        r#"# Apache with `sites` name-based vhosts.
class fleet::web (Integer[1] $sites = 1) {
  class { 'apache':
    default_vhost => false,
    server_tokens => 'Prod',
  }
  include apache::mod::headers
  include apache::mod::rewrite
  $sites.each |Integer $i| {
    $name = "site${i}.${trusted['domain']}"
    apache::vhost { $name:
      port        => 80,
      docroot     => "/var/www/${name}",
      directories => [
        { 'path' => "/var/www/${name}", 'allow_override' => ['None'], 'options' => ['-Indexes'] },
      ],
      headers     => ['set X-Frame-Options "SAMEORIGIN"'],
    }
  }
}
"#,
    ),
    (
        "db.pp",
        r#"# MySQL with `databases` application databases.
class fleet::db (Integer[1] $databases = 1) {
  class { 'mysql::server':
    root_password    => 'fleet-root',
    override_options => {
      'mysqld' => { 'max_connections' => 100 + $databases * 50 },
    },
  }
  $databases.each |Integer $i| {
    mysql::db { "app${i}":
      user     => "app${i}",
      password => "app${i}-pass",
      host     => 'localhost',
      grant    => ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
    }
  }
}
"#,
    ),
    (
        "lb.pp",
        r#"# HAProxy over `members` web servers.
class fleet::lb (Integer[1] $members = 2) {
  include haproxy
  haproxy::listen { 'web':
    ipaddress => $facts['networking']['ip'],
    ports     => '80',
    mode      => 'http',
    options   => { 'balance' => 'roundrobin', 'option' => ['httplog'] },
  }
  $members.each |Integer $i| {
    haproxy::balancermember { "web${i}":
      listening_service => 'web',
      server_names      => "web${i}.${trusted['domain']}",
      ipaddresses       => "10.1.0.${$i + 10}",
      ports             => '80',
      options           => 'check',
    }
  }
}
"#,
    ),
    (
        "cache.pp",
        r#"# Redis with its limits.
class fleet::cache (String $maxmemory = '256mb') {
  class { 'redis':
    bind      => ['127.0.0.1', $facts['networking']['ip']],
    maxmemory => $maxmemory,
  }
  systemd::dropin_file { 'limits.conf':
    unit    => 'redis-server.service',
    content => "[Service]\nLimitNOFILE=65536\n",
  }
}
"#,
    ),
    (
        "files.pp",
        r#"# rsync under xinetd with `shares` modules.
class fleet::files (Integer[1] $shares = 1) {
  include xinetd
  class { 'rsync::server':
    use_xinetd => true,
  }
  $shares.each |Integer $i| {
    rsync::server::module { "share${i}":
      path      => "/srv/share${i}",
      read_only => 'yes',
    }
  }
}
"#,
    ),
];

/// Role, its class parameter and that parameter's range, the fact sets the
/// role's nodes run, and the role's weight in the fleet (of 20).
struct Role {
    class: &'static str,
    param: Option<(&'static str, u64, u64)>,
    factsets: &'static [&'static str],
    weight: usize,
    prefix: &'static str,
}

const ROLES: &[Role] = &[
    Role {
        class: "",
        param: None,
        factsets: &["redhat-9", "almalinux-9", "debian-12", "ubuntu-22.04"],
        weight: 6,
        prefix: "node",
    },
    Role {
        class: "fleet::web",
        param: Some(("sites", 1, 2)),
        factsets: &["debian-12", "ubuntu-22.04", "redhat-9"],
        weight: 4,
        prefix: "web",
    },
    Role {
        class: "fleet::db",
        param: Some(("databases", 1, 8)),
        factsets: &["debian-11", "debian-12", "redhat-8", "ubuntu-22.04"],
        weight: 3,
        prefix: "db",
    },
    Role {
        class: "fleet::lb",
        param: Some(("members", 2, 16)),
        factsets: &["debian-12", "ubuntu-20.04", "redhat-8", "rocky-9"],
        weight: 2,
        prefix: "lb",
    },
    Role {
        class: "fleet::cache",
        param: None,
        factsets: &["debian-11", "debian-12", "ubuntu-20.04"],
        weight: 3,
        prefix: "cache",
    },
    Role {
        class: "fleet::files",
        param: Some(("shares", 1, 8)),
        factsets: &["debian-11", "debian-12", "ubuntu-22.04"],
        weight: 2,
        prefix: "files",
    },
];

/// A fixed hash of a node's index and a salt: its sizes, the same every run.
fn draw(i: usize, salt: u64, lo: u64, hi: u64) -> u64 {
    let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 32;
    lo + x % (hi - lo + 1)
}

/// Writes the fleet control repo under `dir` and returns it with its nodes.
pub(crate) fn build(workspace: &Path, dir: &Path) -> Result<(Repo, Vec<NodeSpec>), String> {
    let write = |rel: &str, text: &str| -> Result<(), String> {
        let p = dir.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    for (file, text) in MANIFESTS {
        write(&format!("site/fleet/manifests/{file}"), text)?;
    }
    // Every node's classes come from the matrix (its ENC).
    write("manifests/site.pp", "node default {}\n")?;
    write(
        "environment.conf",
        "modulepath = site:/usr/share/puppet/modules\n",
    )?;
    let factsets = workspace.join(SOURCE_REPO).join("factsets");
    let target: PathBuf = dir.join("factsets");
    std::fs::create_dir_all(&target).map_err(|e| format!("{}: {e}", target.display()))?;
    for e in std::fs::read_dir(&factsets).map_err(|e| format!("{}: {e}", factsets.display()))? {
        let e = e.map_err(|e| e.to_string())?;
        if e.path().extension().is_some_and(|x| x == "facts") {
            std::fs::copy(e.path(), target.join(e.file_name())).map_err(|e| e.to_string())?;
        }
    }
    let mut yaml = String::from(
        "# Generated by `cargo xtask bench`: a fleet over Debian's module packages.\n\
         puppet: 7\nenvironment: .\nfactsets: factsets\nnodes:\n  matrix:\n",
    );
    let wheel: Vec<&Role> = ROLES
        .iter()
        .flat_map(|r| std::iter::repeat_n(r, r.weight))
        .collect();
    for i in 0..NODES {
        let role = wheel[draw(i, 1, 0, wheel.len() as u64 - 1) as usize];
        let factset = role.factsets[i % role.factsets.len()];
        let users = draw(i, 2, 1, 3);
        let tunables = draw(i, 3, 2, 6);
        let mut classes = format!("fleet::base: {{users: {users}, tunables: {tunables}}}");
        if !role.class.is_empty() {
            let params = match role.param {
                Some((name, lo, hi)) => format!("{name}: {}", draw(i, 4, lo, hi)),
                None => String::new(),
            };
            let _ = write!(classes, ", {}: {{{params}}}", role.class);
        }
        let _ = writeln!(
            yaml,
            "    - names: [{}{i:04}.fleet.example.com]\n      factsets: [{factset}]\n      \
             classes: {{{classes}}}",
            role.prefix
        );
    }
    write("pverify.yaml", &yaml)?;
    let repo = Repo::open(dir)?;
    let nodes = repo.nodes()?;
    Ok((repo, nodes))
}

#[cfg(test)]
mod tests {
    use super::draw;

    #[test]
    fn draws_stay_in_range_and_spread() {
        let v: Vec<u64> = (0..1000).map(|i| draw(i, 4, 1, 10)).collect();
        assert!(v.iter().all(|&x| (1..=10).contains(&x)));
        for k in 1..=10 {
            assert!(v.iter().filter(|&&x| x == k).count() > 50, "{k} is rare");
        }
    }
}
