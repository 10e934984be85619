//! `--format html` in a real browser: Debian's headless Chromium, driven
//! through chromedriver's WebDriver HTTP API, opens reports written by the
//! `pverify` binary and checks what a reader does with them: the groups
//! are drawn, the filter hides what does not match, an expander opens a
//! file's diff (unified and side by side), nothing from hostile data runs,
//! and a 1,000-node, 10,000-change report opens and filters quickly.
//!
//! Screenshots are kept under `$CARGO_TARGET_TMPDIR/html-report/` (the
//! path is printed). Without `chromium` and `chromedriver` the tests say
//! so and pass, except under `CI=true`, where their absence fails them
//! (`.ci/run` installs both).

mod common;
use common::{copy_dir, edit, pverify, temp_example_repo, EXAMPLE};

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value as J};

// ---------------------------------------------------------------- browser

/// A chromedriver and one headless Chromium session, both ended on drop.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    _profile: tempfile::TempDir,
}

/// The real Chromium binary (Debian's /usr/bin/chromium is a wrapper
/// script) and chromedriver, or `None` outside CI when either is missing.
fn tools(what: &str) -> Option<(PathBuf, PathBuf)> {
    let find = |names: &[&str]| {
        names
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .or_else(|| which(names[names.len() - 1]))
    };
    let chromium = find(&["/usr/lib/chromium/chromium", "chromium"]);
    let driver = find(&["/usr/bin/chromedriver", "chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ if std::env::var_os("CI").is_none() => {
            eprintln!("{what}: not run: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)");
            None
        }
        _ => {
            panic!("CI=true but chromium or chromedriver is not installed (.ci/run installs them)")
        }
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn call(method: &str, url: &str, body: Option<&J>) -> Result<J, String> {
    let req = ureq::request(method, url).timeout(Duration::from_secs(120));
    let resp = match body {
        Some(b) => req
            .set("Content-Type", "application/json")
            .send_string(&b.to_string()),
        None => req.call(),
    };
    let text = match resp {
        Ok(r) => r.into_string().map_err(|e| e.to_string())?,
        Err(ureq::Error::Status(code, r)) => {
            return Err(format!(
                "{method} {url}: HTTP {code}: {}",
                r.into_string().unwrap_or_default()
            ))
        }
        Err(e) => return Err(format!("{method} {url}: {e}")),
    };
    let v: J = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    Ok(v.get("value").cloned().unwrap_or(J::Null))
}

impl Browser {
    fn start(what: &str) -> Option<Browser> {
        let (chromium, driver) = tools(what)?;
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while call("GET", &format!("{base}/status"), None)
            .ok()
            .and_then(|v| v.get("ready").and_then(J::as_bool))
            != Some(true)
        {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            _profile: profile,
        };
        let created = call("POST", &format!("{}/session", browser.base), Some(&caps))
            .expect("a Chromium session");
        browser.session = created["sessionId"].as_str().unwrap().to_string();
        Some(browser)
    }

    fn cmd(&self, method: &str, path: &str, body: Option<J>) -> J {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        call(method, &url, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens a file and waits for the page's script to finish drawing;
    /// returns the wall time from the request to that point.
    fn open(&self, file: &Path) -> Duration {
        let t = Instant::now();
        self.cmd(
            "POST",
            "/url",
            Some(json!({"url": format!("file://{}", file.display())})),
        );
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.js("return document.documentElement.dataset.ready || ''") != json!("true") {
            assert!(Instant::now() < deadline, "{} never drew", file.display());
            std::thread::sleep(Duration::from_millis(20));
        }
        t.elapsed()
    }

    fn js(&self, script: &str) -> J {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn find(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(J::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// A real click (WebDriver moves the pointer and clicks).
    fn click(&self, css: &str) {
        let id = self.find(css);
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Types into an element, as a user does (`\u{E007}` is Enter).
    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let v = self.cmd("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap();
        let dir = artefacts();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
        path
    }

    /// The labels of the drawn items of a section (`groups`, `nodes`,
    /// `resources`).
    fn labels(&self, section: &str) -> Vec<String> {
        let v = self.js(&format!(
            "return Array.from(document.querySelectorAll('#{section} .item > .item-head .label')).map(e => e.textContent)"
        ));
        serde_json::from_value(v).unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = call(
                "DELETE",
                &format!("{}/session/{}", self.base, self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Where screenshots and the reports themselves are kept.
fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn keep(name: &str, from: &Path) -> PathBuf {
    let to = artefacts().join(name);
    std::fs::copy(from, &to).unwrap();
    to
}

// ---------------------------------------------------------------- reports

/// A diff of the example repo with a Hiera value and a template changed:
/// a parameter change on two nodes and file contents on four.
fn small_diff_report(out: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        Path::new("tests/fixtures/factsets"),
        &tmp.path().join("factsets"),
    );
    let (a, b) = (tmp.path().join("from"), tmp.path().join("to"));
    copy_dir(Path::new(EXAMPLE), &a);
    copy_dir(Path::new(EXAMPLE), &b);
    // Ten nodes (the example size): two more names on both sides.
    for side in [&a, &b] {
        edit(
            &side.join("pverify.yaml"),
            "app01.example.com]",
            "app01.example.com, web02.example.com, db02.example.com]",
        );
    }
    edit(
        &b.join("data/common.yaml"),
        "profile::db::max_connections: 100",
        "profile::db::max_connections: 250",
    );
    edit(
        &b.join("modules/profile/templates/index.html.epp"),
        "<p>port <%= $port %></p>",
        "<p>listening on port <%= $port %></p>",
    );
    let (code, _, err) = pverify(&[
        "diff",
        "--from",
        a.to_str().unwrap(),
        "--to",
        b.to_str().unwrap(),
        "--format",
        "html",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
}

fn resource(kind: &str, title: &str, params: J) -> J {
    json!({"type": kind, "title": title, "tags": [], "exported": false, "parameters": params})
}

fn catalog(name: &str, resources: Vec<J>) -> J {
    json!({"name": name, "version": 1, "environment": "production",
           "resources": resources, "edges": [], "classes": []})
}

fn write_json(path: &Path, v: &J) {
    std::fs::write(path, serde_json::to_vec(v).unwrap()).unwrap();
}

/// Two catalog directories for `nodes` nodes with ten changes each: two
/// shared by every node, one file whose content differs per node, one
/// parameter with ten distinct values, six resources added per node.
fn synthetic_catalogs(dir: &Path, nodes: usize) -> (PathBuf, PathBuf) {
    let (from, to) = (dir.join("from"), dir.join("to"));
    std::fs::create_dir_all(&from).unwrap();
    std::fs::create_dir_all(&to).unwrap();
    for i in 0..nodes {
        let name = format!("node{i:04}.example.com");
        let conf = |port: usize| {
            format!("# app.conf for {name}\n[server]\nhost = {name}\nport = {port}\nworkers = 4\n")
        };
        let old = vec![
            resource("File", "/etc/motd", json!({"content": "Welcome\n"})),
            resource("Package", "openssl", json!({"ensure": "3.0.1"})),
            resource("File", "/etc/app/app.conf", json!({"content": conf(8080)})),
            resource("Service", "app", json!({"ensure": "running", "limit": 100})),
        ];
        let mut new = vec![
            resource(
                "File",
                "/etc/motd",
                json!({"content": "Welcome to the fleet\n"}),
            ),
            resource("Package", "openssl", json!({"ensure": "3.0.2"})),
            resource(
                "File",
                "/etc/app/app.conf",
                json!({"content": conf(9000 + i)}),
            ),
            resource(
                "Service",
                "app",
                json!({"ensure": "running", "limit": 101 + i % 10}),
            ),
        ];
        for k in 0..6 {
            new.push(resource(
                "File",
                // Not the node's name: a title holding it would group
                // across nodes (`<certname>`), and this report wants
                // thousands of groups.
                &format!("/srv/vol{i}/data{k}"),
                json!({"ensure": "directory"}),
            ));
        }
        write_json(&from.join(format!("{name}.json")), &catalog(&name, old));
        write_json(&to.join(format!("{name}.json")), &catalog(&name, new));
    }
    (from, to)
}

// ---------------------------------------------------------------- tests

#[test]
fn small_report_groups_filter_and_diffs() {
    let Some(browser) = Browser::start("small_report_groups_filter_and_diffs") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("diff.html");
    small_diff_report(&file);
    let file = keep("small-diff.html", &file);
    browser.open(&file);

    let groups = browser.labels("groups");
    assert!(
        groups
            .iter()
            .any(|g| g == "Class[Profile::Db] parameter max_connections changed"),
        "{groups:?}"
    );
    assert_eq!(
        groups
            .iter()
            .filter(|g| g.contains("content changed"))
            .count(),
        4,
        "{groups:?}"
    );
    assert_eq!(browser.labels("nodes").len(), 10);
    assert!(!browser.labels("resources").is_empty());
    browser.screenshot("small-1-loaded");

    // An expander opens a file's diff, coloured; the toggle redraws it side
    // by side.
    let conf = groups
        .iter()
        .position(|g| g.starts_with("File[/etc/postgresql/15/main/postgresql.conf]"))
        .expect("the postgresql.conf group");
    browser.click(&format!(
        "#groups .item:nth-child({}) > .item-head",
        conf + 1
    ));
    let unified = browser.js(
        "const t = document.querySelector('#groups .item.open table.diff.unified');
         return t ? [t.querySelector('tr.del td.code').textContent,
                     t.querySelector('tr.add td.code').textContent,
                     t.querySelectorAll('span.tok-num, span.tok-com, span.tok-str').length] : null",
    );
    assert_eq!(unified[0], "max_connections = 100", "{unified}");
    assert_eq!(unified[1], "max_connections = 250", "{unified}");
    assert!(
        unified[2].as_u64().unwrap() > 0,
        "syntax colouring: {unified}"
    );
    browser.screenshot("small-2-unified-diff");
    browser.click("#view-split");
    let split = browser.js(
        "const t = document.querySelector('#groups .item.open table.diff.split');
         return t ? [t.querySelector('td.code.del').textContent,
                     t.querySelector('td.code.add').textContent] : null",
    );
    assert_eq!(
        split,
        json!(["max_connections = 100", "max_connections = 250"])
    );
    browser.screenshot("small-3-side-by-side");

    // The filter hides the nodes (and groups) that do not match.
    browser.type_into("#filter", "db01\u{E007}");
    let nodes = browser.labels("nodes");
    assert_eq!(nodes.len(), 2, "{nodes:?}");
    assert!(nodes.iter().all(|n| n.starts_with("db01.")), "{nodes:?}");
    let groups = browser.labels("groups");
    assert!(
        groups.iter().all(|g| !g.contains("index.html")),
        "{groups:?}"
    );
    // The open group stays open through the filter.
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#groups .item.open table.diff.split').length"),
        json!(1)
    );
    // Words narrow: a node and a title.
    browser.type_into("#filter", " /var/lib\u{E007}");
    assert_eq!(
        browser.labels("groups"),
        vec!["File[/var/lib/pgsql/data/postgresql.conf] content changed"]
    );
    assert_eq!(
        browser.labels("nodes"),
        vec!["db01.example.com@redhat-9-x86_64"]
    );
    browser.screenshot("small-4-filtered");
    // A node's own changes.
    browser.click("#nodes .item:first-child > .item-head");
    let changes = browser.js(
        "return Array.from(document.querySelectorAll('#nodes .item.open .change-head')).map(e => e.textContent)",
    );
    assert!(
        changes
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("max_connections")),
        "{changes}"
    );
}

#[test]
fn check_report_shows_failures_and_golden_differences() {
    let Some(browser) = Browser::start("check_report_shows_failures_and_golden_differences") else {
        return;
    };
    let (_tmp, repo) = temp_example_repo();
    edit(
        &repo.join("data/common.yaml"),
        "profile::db::max_connections: 100",
        "profile::db::max_connections: 250",
    );
    edit(
        &repo.join("modules/profile/manifests/web.pp"),
        "  case $facts['os']['family'] {",
        "  fail('web is broken')\n  case $facts['os']['family'] {",
    );
    let (code, html, err) = pverify(&["check", repo.to_str().unwrap(), "--format", "html"]);
    assert_eq!(code, 1, "{err}");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("check.html");
    std::fs::write(&file, html).unwrap();
    let file = keep("check.html", &file);
    browser.open(&file);
    let groups = browser.labels("groups");
    assert!(
        groups.iter().any(|g| g.contains("max_connections")),
        "{groups:?}"
    );
    // Every node is listed, failed ones first; a compile error keeps its
    // file and line.
    let nodes = browser.labels("nodes");
    assert_eq!(nodes.len(), 6, "{nodes:?}");
    let web = nodes
        .iter()
        .position(|n| n.starts_with("web01."))
        .expect("a web node");
    browser.click(&format!("#nodes .item:nth-child({}) > .item-head", web + 1));
    let text = browser.js("return document.querySelector('#nodes .item.open').textContent");
    let text = text.as_str().unwrap();
    assert!(
        text.contains("web is broken") && text.contains("web.pp"),
        "{text}"
    );
    browser.screenshot("check-1-failed-node");
}

/// Node name, titles, parameter names and values and file contents that
/// try to break out of the page.
const PAYLOADS: [&str; 5] = [
    "<script>window.__pwned = 1</script>",
    "</script><script>window.__pwned = 2</script>",
    "\"><img src=x onerror=\"window.__pwned = 3\">",
    "'><svg onload='window.__pwned = 4'>",
    "<!-- \u{2028}\u{2029} -->",
];
const HOSTILE_NODE: &str = "\"><img src=x onerror=window.__pwned=5>";

/// `pverify diff --format html` of two catalogs made of [`PAYLOADS`].
fn hostile_report(file: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let (from, to) = (tmp.path().join("from"), tmp.path().join("to"));
    std::fs::create_dir_all(&from).unwrap();
    std::fs::create_dir_all(&to).unwrap();
    let params = |p: &str, content: String, value: String| {
        let mut m = serde_json::Map::new();
        m.insert("content".into(), J::String(content));
        m.insert(p.into(), J::String(value));
        J::Object(m)
    };
    let old: Vec<J> = PAYLOADS
        .iter()
        .map(|p| resource("File", p, params(p, format!("{p}\n"), p.to_string())))
        .collect();
    let new: Vec<J> = PAYLOADS
        .iter()
        .map(|p| resource("File", p, params(p, format!("{p}\n{p}\n"), format!("{p}!"))))
        .chain([resource(
            "Exec",
            "</script>",
            json!({"command": "</script>"}),
        )])
        .collect();
    let node = HOSTILE_NODE;
    write_json(&from.join(format!("{node}.json")), &catalog(node, old));
    write_json(&to.join(format!("{node}.json")), &catalog(node, new));
    let (code, _, err) = pverify(&[
        "diff",
        "--from-catalogs",
        from.to_str().unwrap(),
        "--to-catalogs",
        to.to_str().unwrap(),
        "--format",
        "html",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
}

/// The file itself, browser or not: the data sits in its JSON element
/// only, as escapes, under a policy that loads nothing.
#[test]
fn hostile_data_is_escaped_in_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hostile.html");
    hostile_report(&file);
    let html = std::fs::read_to_string(&file).unwrap();
    assert_eq!(html.matches("</script>").count(), 2, "the page's own two");
    assert_eq!(html.matches("<script").count(), 2);
    for absent in ["<img", "<svg", "<!-- ", "\u{2028}", "__pwned = 1<"] {
        assert!(!html.contains(absent), "{absent:?} in the page");
    }
    assert!(html.contains("window.__pwned = 1\\u003c/script\\u003e"));
    assert!(html.contains("content=\"default-src 'none'; script-src 'sha256-"));
    assert!(html.contains("require-trusted-types-for 'script'"));
}

#[test]
fn hostile_data_stays_text() {
    let Some(browser) = Browser::start("hostile_data_stays_text") else {
        return;
    };
    let file = artefacts().join("hostile.html");
    hostile_report(&file);
    let node = HOSTILE_NODE;
    browser.open(&file);
    // Open every item of every section, both diff views, and filter by a
    // payload: the data is drawn, and only as text.
    browser.js("document.querySelectorAll('.item > .item-head').forEach(h => h.click()); return 0");
    browser.click("#view-split");
    browser.type_into("#filter", "</script>\u{E007}");
    browser.js(
        "document.querySelectorAll('.item:not(.open) > .item-head').forEach(h => h.click()); return 0",
    );
    browser.screenshot("hostile-1-opened");
    let seen = browser.js(
        "return [typeof window.__pwned, document.querySelectorAll('img, svg, iframe, object, embed').length,
                 document.querySelectorAll('script').length, document.body.textContent]",
    );
    assert_eq!(seen[0], "undefined", "a payload ran");
    assert_eq!(seen[1], 0, "a payload became markup");
    assert_eq!(seen[2], 2, "a payload became a script element");
    let text = seen[3].as_str().unwrap();
    assert!(
        text.contains("</script><script>window.__pwned = 2</script>") && text.contains(node),
        "the payloads are shown as text"
    );
}

#[test]
fn thousand_node_report_loads_and_filters_quickly() {
    let Some(browser) = Browser::start("thousand_node_report_loads_and_filters_quickly") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (from, to) = synthetic_catalogs(tmp.path(), 1000);
    let file = artefacts().join("thousand-nodes.html");
    let t = Instant::now();
    let (code, _, err) = pverify(&[
        "diff",
        "--from-catalogs",
        from.to_str().unwrap(),
        "--to-catalogs",
        to.to_str().unwrap(),
        "--format",
        "html",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let written = t.elapsed();
    let size = std::fs::metadata(&file).unwrap().len();
    let changes = browser_count_changes(&file);
    assert_eq!(changes, 10_000);

    let load = browser.open(&file);
    let render_ms = browser.js("return +document.documentElement.dataset.renderMs");
    let groups = browser.labels("groups").len();
    assert_eq!(groups, 200, "the first page of groups");
    assert_eq!(browser.labels("nodes").len(), 200);
    browser.screenshot("thousand-1-loaded");

    // Filtering as a user does (typing, Enter), timed from the keys to the
    // redrawn lists.
    let t = Instant::now();
    browser.type_into("#filter", "node0500\u{E007}");
    let nodes = browser.labels("nodes");
    let filter = t.elapsed();
    assert_eq!(nodes, vec!["node0500.example.com"]);
    // The shared changes and this node's own (the per-node file, the
    // service limit and its six directories).
    let groups = browser.labels("groups");
    assert_eq!(groups.len(), 10, "{groups:?}");
    // The group of 1,000 variants opens.
    let conf = groups
        .iter()
        .position(|g| g.starts_with("File[/etc/app/app.conf]"))
        .unwrap();
    let t = Instant::now();
    browser.click(&format!(
        "#groups .item:nth-child({}) > .item-head",
        conf + 1
    ));
    let expand = t.elapsed();
    let tables =
        browser.js("return document.querySelectorAll('#groups .item.open table.diff').length");
    assert_eq!(tables, 50, "the first page of variants");
    // The filtered node's own variant comes first.
    let first = browser
        .js("return document.querySelector('#groups .item.open .variant .nodes-list').textContent");
    assert_eq!(
        first,
        "Variant 501 of 1000, on 1 node: node0500.example.com"
    );
    browser.screenshot("thousand-2-filtered");
    eprintln!(
        "1,000 nodes, 10,000 changes: {} KB of HTML (written in {:.2} s); loaded and drawn in {:.2} s (first drawing {render_ms} ms); filtered in {:.2} s; the group of 1,000 variants opened in {:.2} s",
        size / 1024,
        written.as_secs_f64(),
        load.as_secs_f64(),
        filter.as_secs_f64(),
        expand.as_secs_f64(),
    );
    assert!(load < Duration::from_secs(5), "load took {load:?}");
    assert!(filter < Duration::from_secs(2), "filter took {filter:?}");
}

/// The number of changes in a page's data, read back from the file (the
/// page stores each node's changes as references to groups).
fn browser_count_changes(file: &Path) -> usize {
    let mut html = String::new();
    std::fs::File::open(file)
        .unwrap()
        .read_to_string(&mut html)
        .unwrap();
    let start = html.find("id=\"report-data\">").unwrap() + "id=\"report-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: J = serde_json::from_str(&html[start..end]).unwrap();
    data["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["changes"].as_array().unwrap().len())
        .sum()
}
