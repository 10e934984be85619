// pverify's HTML report (diff and check). No framework, no network: the
// report is the JSON of #report-data, drawn here with createElement and
// textContent only (never HTML from data; the page's CSP enforces it).
//
// The data (built by diff/render/html.rs and html/check.rs):
//   { command: "diff" | "check" | "run", title, summary: [[label, count]],
//     groups: [{ headline, kind, type, title, parameter,
//                nodes: [node index], variants: [{ detail, content, nodes }] }],
//     nodes: [{ name, status, note, changes: [[group, variant]],
//               errors: [{ against, message, expected, actual }] }] }
//
// Lists are drawn a page at a time and an item's body only when it is
// first opened, so a report of 10,000 changes opens at once.
(function () {
  'use strict';

  var PAGE = 200;
  var NAMES = 30;
  var VARIANTS = 50;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var groups = data.groups || [];
  var nodes = data.nodes || [];
  var state = { view: 'unified', terms: [], open: Object.create(null) };

  // ---- small DOM helpers (text only) ----
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  // ---- search: lower-cased texts, computed once ----
  nodes.forEach(function (n) { n.lname = String(n.name).toLowerCase(); });
  groups.forEach(function (g) {
    g.ltext = [g.headline, g.type, g.title, g.parameter || ''].join('\n').toLowerCase();
  });

  function nodeMatches(n, term) {
    if (n.lname.indexOf(term) >= 0) return true;
    for (var i = 0; i < n.changes.length; i++) {
      if (groups[n.changes[i][0]].ltext.indexOf(term) >= 0) return true;
    }
    return false;
  }
  function groupMatches(g, term) {
    if (g.ltext.indexOf(term) >= 0) return true;
    for (var i = 0; i < g.nodes.length; i++) {
      if (nodes[g.nodes[i]].lname.indexOf(term) >= 0) return true;
    }
    return false;
  }
  function all(terms, test, x) {
    for (var i = 0; i < terms.length; i++) if (!test(x, terms[i])) return false;
    return true;
  }

  // ---- syntax colouring: one line at a time, a small tokenizer for
  // Puppet, ERB/EPP, YAML, shell and ini-like text ----
  var KEYWORDS = {};
  ('class define node if elsif else unless case default include require contain inherits ' +
   'function type true false undef and or in notice each map filter reduce lookup ' +
   'then fi for do done while until esac return export local echo exit ' +
   'yes no on off null none end').split(' ').forEach(function (k) { KEYWORDS[k] = true; });

  function language(title) {
    var t = String(title || '').toLowerCase();
    if (/\.(ini|conf|cfg|cnf|properties|service|repo)$/.test(t)) return 'ini';
    if (/\.(ya?ml)$/.test(t)) return 'yaml';
    return 'text';
  }

  function tokens(line, lang) {
    var out = [];
    var i = 0, n = line.length, plain = '';
    function flush() { if (plain) { out.push([null, plain]); plain = ''; } }
    function push(cls, text) { flush(); out.push([cls, text]); }
    var lead = line.match(/^\s*/)[0].length;
    if (lang === 'ini' && (line[lead] === ';' || line[lead] === '#')) return [['tok-com', line]];
    if (lang === 'ini' && line[lead] === '[') return [['tok-kw', line]];
    if (lang === 'yaml') {
      var key = line.match(/^(\s*-?\s*)([A-Za-z0-9_.:\/-]+?)(:)(\s|$)/);
      if (key) { out.push([null, key[1]]); out.push(['tok-key', key[2]]); i = key[1].length + key[2].length; }
    }
    while (i < n) {
      var c = line[i];
      var prev = i > 0 ? line[i - 1] : ' ';
      if (c === '#' && /\s/.test(prev) && line.slice(i - 2, i) !== '<%') { push('tok-com', line.slice(i)); break; }
      if (c === '"' || c === "'") {
        var j = i + 1;
        while (j < n && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
        push('tok-str', line.slice(i, Math.min(j + 1, n)));
        i = j + 1;
        continue;
      }
      if ((c === '$' || c === '%') && line[i + 1] === '{') {
        var close = line.indexOf('}', i + 2);
        var end = close < 0 ? n : close + 1;
        push('tok-var', line.slice(i, end));
        i = end;
        continue;
      }
      if ((c === '$' || c === '@') && /[A-Za-z_:]/.test(line[i + 1] || '')) {
        var m = line.slice(i + 1).match(/^[A-Za-z0-9_:]+/);
        push('tok-var', c + m[0]);
        i += 1 + m[0].length;
        continue;
      }
      if (c === '<' && line[i + 1] === '%') {
        var tag = line.slice(i).match(/^<%[-=#]?/)[0];
        push('tok-tag', tag);
        i += tag.length;
        continue;
      }
      if ((c === '%' || c === '-') && line.slice(i).match(/^-?%>/)) {
        var t = line.slice(i).match(/^-?%>/)[0];
        push('tok-tag', t);
        i += t.length;
        continue;
      }
      if (/[0-9]/.test(c) && !/[A-Za-z0-9_]/.test(prev)) {
        var num = line.slice(i).match(/^[0-9][0-9._]*/)[0];
        push('tok-num', num);
        i += num.length;
        continue;
      }
      if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_]/.test(prev)) {
        var word = line.slice(i).match(/^[A-Za-z_][A-Za-z0-9_]*/)[0];
        if (KEYWORDS[word]) push('tok-kw', word); else plain += word;
        i += word.length;
        continue;
      }
      plain += c;
      i++;
    }
    flush();
    return out;
  }

  function code(parent, text, lang) {
    if (lang === 'plain') { parent.textContent = String(text); return parent; }
    tokens(text, lang).forEach(function (t) {
      if (t[0]) parent.appendChild(el('span', t[0], t[1]));
      else parent.appendChild(document.createTextNode(t[1]));
    });
    return parent;
  }

  // ---- unified diffs: parsed once, drawn unified or side by side ----
  function parseDiff(text) {
    var rows = [], oldNo = 0, newNo = 0, hunks = 0;
    String(text).split('\n').forEach(function (line, idx, lines) {
      if (line === '' && idx === lines.length - 1) return;
      var h = line.match(/^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/);
      if (h) { oldNo = +h[1]; newNo = +h[2]; hunks++; rows.push({ t: 'hunk', s: line }); return; }
      if (!hunks && (line.indexOf('--- ') === 0 || line.indexOf('+++ ') === 0)) { rows.push({ t: 'file', s: line }); return; }
      if (!hunks) { rows.push({ t: 'note', s: line }); return; }
      var sign = line[0], body = line.slice(1);
      if (sign === '+') rows.push({ t: 'add', s: body, n: newNo++ });
      else if (sign === '-') rows.push({ t: 'del', s: body, o: oldNo++ });
      else if (sign === '\\') rows.push({ t: 'note', s: line });
      else rows.push({ t: 'ctx', s: body, o: oldNo++, n: newNo++ });
    });
    return { rows: rows, hunks: hunks };
  }

  function cell(tr, cls, text) { var td = el('td', cls, text); tr.appendChild(td); return td; }

  function diffTable(text, lang, view) {
    var parsed = parseDiff(text);
    if (!parsed.hunks) return code(el('pre'), text, lang);
    var table = el('table', 'diff ' + view);
    // Column widths come from a colgroup (the table's layout is fixed,
    // and its first row may be a header spanning every column).
    var cols = el('colgroup');
    (view === 'split' ? ['ln', 'code', 'ln', 'code'] : ['ln', 'ln', 'sign', 'code']).forEach(function (c) {
      cols.appendChild(el('col', c));
    });
    table.appendChild(cols);
    var rows = parsed.rows;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i], tr = el('tr', r.t);
      if (r.t === 'hunk' || r.t === 'file' || r.t === 'note') {
        var td = cell(tr, null, r.s);
        td.colSpan = 4;
        table.appendChild(tr);
        continue;
      }
      if (view === 'unified') {
        cell(tr, 'ln', r.o !== undefined ? r.o : '');
        cell(tr, 'ln', r.n !== undefined ? r.n : '');
        cell(tr, 'sign', r.t === 'add' ? '+' : r.t === 'del' ? '-' : ' ');
        code(cell(tr, 'code'), r.s, lang);
        table.appendChild(tr);
        continue;
      }
      // Side by side: a run of removed lines beside the run of added
      // lines that follows it, row by row.
      if (r.t === 'ctx') {
        cell(tr, 'ln', r.o); code(cell(tr, 'code'), r.s, lang);
        cell(tr, 'ln', r.n); code(cell(tr, 'code'), r.s, lang);
        table.appendChild(tr);
        continue;
      }
      var dels = [], adds = [];
      while (i < rows.length && rows[i].t === 'del') dels.push(rows[i++]);
      while (i < rows.length && rows[i].t === 'add') adds.push(rows[i++]);
      i--;
      for (var k = 0; k < Math.max(dels.length, adds.length); k++) {
        var row = el('tr', 'pair'), d = dels[k], a = adds[k];
        cell(row, 'ln', d ? d.o : '');
        if (d) code(cell(row, 'code del'), d.s, lang); else cell(row, 'code empty');
        cell(row, 'ln', a ? a.n : '');
        if (a) code(cell(row, 'code add'), a.s, lang); else cell(row, 'code empty');
        table.appendChild(row);
      }
    }
    return table;
  }

  // Diffs already drawn, redrawn when the view changes.
  var diffs = [];
  function diffBlock(text, lang) {
    var holder = el('div', 'diff-holder');
    var entry = { holder: holder, text: text, lang: lang };
    diffs.push(entry);
    drawDiff(entry);
    return holder;
  }
  function drawDiff(entry) {
    clear(entry.holder);
    entry.holder.appendChild(diffTable(entry.text, entry.lang, state.view));
  }

  function detailBlock(g, detail, content) {
    if (detail === '' || detail === null || detail === undefined) return null;
    var lang = language(g.title);
    return content ? diffBlock(detail, lang) : code(el('pre'), detail, lang);
  }

  // ---- node name lists, long ones cut with a button for the rest ----
  function nameList(indices, label) {
    var p = el('div', 'nodes-list');
    p.appendChild(document.createTextNode(label));
    function draw(limit) {
      indices.slice(0, limit).forEach(function (ix, k) {
        if (k) p.appendChild(document.createTextNode(', '));
        p.appendChild(el('code', null, nodes[ix].name));
      });
      if (indices.length > limit) {
        var more = el('button', 'more-names', 'and ' + (indices.length - limit) + ' more');
        more.addEventListener('click', function () {
          clear(p);
          p.appendChild(document.createTextNode(label));
          draw(indices.length);
        });
        p.appendChild(document.createTextNode(' '));
        p.appendChild(more);
      }
    }
    draw(NAMES);
    return p;
  }

  // ---- collapsible items, bodies drawn on first open ----
  function item(key, label, count, cls, drawBody) {
    var box = el('div', 'item' + (cls ? ' ' + cls : ''));
    box.dataset.key = key;
    var head = el('button', 'item-head');
    head.type = 'button';
    head.setAttribute('aria-expanded', 'false');
    head.appendChild(el('span', 'label', label));
    head.appendChild(el('span', 'count', count));
    box.appendChild(head);
    var body = null;
    function set(open) {
      if (open && !body) {
        body = el('div', 'item-body');
        drawBody(body);
        box.appendChild(body);
      }
      if (body) body.hidden = !open;
      box.classList.toggle('open', open);
      head.setAttribute('aria-expanded', String(open));
      if (open) state.open[key] = true; else delete state.open[key];
    }
    head.addEventListener('click', function () { set(!box.classList.contains('open')); });
    if (state.open[key]) set(true);
    return box;
  }

  function groupBody(g) {
    return function (body) {
      body.appendChild(nameList(g.nodes, plural(g.nodes.length, 'node') + ': '));
      var many = g.variants.length > 1;
      var drawn = 0;
      var more = el('button', 'more');
      more.type = 'button';
      // While filtering, the variants of the nodes named by the filter
      // come first.
      var order = g.variants.map(function (v, i) { return i; });
      if (state.terms.length && many) {
        var named = function (i) {
          return g.variants[i].nodes.some(function (ix) {
            return state.terms.some(function (t) { return nodes[ix].lname.indexOf(t) >= 0; });
          });
        };
        order = order.filter(named).concat(order.filter(function (i) { return !named(i); }));
      }
      // Variants a page at a time: a per-node file has one per node.
      function page() {
        var end = Math.min(drawn + VARIANTS, g.variants.length);
        for (; drawn < end; drawn++) {
          var vi = order[drawn], v = g.variants[vi];
          var box = el('div', 'variant');
          if (many) box.appendChild(nameList(v.nodes, 'Variant ' + (vi + 1) + ' of ' + g.variants.length + ', on ' + plural(v.nodes.length, 'node') + ': '));
          var d = detailBlock(g, v.detail, v.content);
          if (d) box.appendChild(d);
          body.insertBefore(box, more.parentNode ? more : null);
        }
        if (drawn < g.variants.length) {
          more.textContent = 'Show ' + Math.min(VARIANTS, g.variants.length - drawn) + ' more variants (' + (g.variants.length - drawn) + ' left)';
          body.appendChild(more);
        } else if (more.parentNode) {
          more.parentNode.removeChild(more);
        }
      }
      more.addEventListener('click', page);
      page();
    };
  }

  function nodeBody(n) {
    return function (body) {
      if (n.note) body.appendChild(el('div', 'muted', n.note));
      (n.errors || []).forEach(function (e) {
        var box = el('div', 'change error');
        var head = el('div', 'change-head');
        if (e.against) head.appendChild(el('span', 'against', '[' + e.against + '] '));
        head.appendChild(document.createTextNode(e.message || ''));
        box.appendChild(head);
        if (e.expected !== null && e.expected !== undefined) {
          box.appendChild(el('div', 'muted', 'expected:'));
          box.appendChild(code(el('pre'), e.expected, 'plain'));
        }
        if (e.actual !== null && e.actual !== undefined) {
          box.appendChild(el('div', 'muted', e.expected !== null && e.expected !== undefined ? 'actual:' : ''));
          box.appendChild(code(el('pre'), e.actual, 'plain'));
        }
        body.appendChild(box);
      });
      n.changes.forEach(function (ref) {
        var g = groups[ref[0]], v = g.variants[ref[1]];
        var box = el('div', 'change');
        box.appendChild(el('div', 'change-head', g.headline));
        var d = detailBlock(g, v.detail, v.content);
        if (d) box.appendChild(d);
        body.appendChild(box);
      });
      if (!n.changes.length && !(n.errors || []).length && !n.note) body.appendChild(el('div', 'empty-note', 'No changes.'));
    };
  }

  // Resources: the groups of one subject (`Type[title]`) together.
  var resources = [];
  (function () {
    var by = Object.create(null);
    groups.forEach(function (g, gi) {
      var key = g.type + '[' + g.title + ']';
      if (!(key in by)) { by[key] = resources.length; resources.push({ name: key, groups: [] }); }
      resources[by[key]].groups.push(gi);
    });
  })();

  function resourceBody(r) {
    return function (body) {
      r.groups.forEach(function (gi) {
        var g = groups[gi];
        var box = el('div', 'change');
        box.appendChild(el('div', 'change-head', g.headline));
        groupBody(g)(box);
        body.appendChild(box);
      });
    };
  }

  // ---- sections: a heading, the matching items a page at a time ----
  var STATUS_RANK = { failed: 0, changed: 1, added: 2, removed: 3, skipped: 4, passed: 5, unchanged: 6 };
  var nodeOrder = nodes.map(function (n, i) { return i; }).sort(function (a, b) {
    var ra = STATUS_RANK[nodes[a].status], rb = STATUS_RANK[nodes[b].status];
    return (ra === undefined ? 9 : ra) - (rb === undefined ? 9 : rb) || a - b;
  });

  var sections = [
    {
      id: 'groups',
      title: data.command === 'diff' ? 'Changes, grouped across nodes' : 'Catalog differences from the goldens, grouped across nodes',
      empty: 'No changes.',
      all: groups.map(function (g, i) { return i; }),
      matches: function (i, terms) { return all(terms, groupMatches, groups[i]); },
      make: function (i) {
        var g = groups[i];
        return item('g' + i, g.headline, plural(g.nodes.length, 'node'), 'group', groupBody(g));
      }
    },
    {
      id: 'nodes',
      title: 'Nodes',
      empty: 'No nodes.',
      all: nodeOrder,
      matches: function (i, terms) { return all(terms, nodeMatches, nodes[i]); },
      make: function (i) {
        var n = nodes[i];
        var count = n.status + (n.changes.length ? ', ' + plural(n.changes.length, 'change') : '');
        return item('n' + i, n.name, count, 'node status-' + n.status, nodeBody(n));
      }
    },
    {
      id: 'resources',
      title: 'Resources',
      empty: 'No resources changed.',
      all: resources.map(function (r, i) { return i; }),
      matches: function (i, terms) {
        var r = resources[i];
        return all(terms, function (x, t) {
          return x.groups.some(function (gi) { return groupMatches(groups[gi], t); });
        }, r);
      },
      make: function (i) {
        var r = resources[i];
        return item('r' + i, r.name, plural(r.groups.length, 'change'), 'resource', resourceBody(r));
      }
    }
  ];

  function drawSection(s) {
    var root = document.getElementById(s.id);
    clear(root);
    var shown = state.terms.length ? s.all.filter(function (i) { return s.matches(i, state.terms); }) : s.all;
    s.shown = shown.length;
    var h = el('h2', null, s.title + ' (' + (shown.length === s.all.length ? shown.length : shown.length + ' of ' + s.all.length) + ')');
    root.appendChild(h);
    if (!shown.length) { root.appendChild(el('div', 'empty-note', state.terms.length ? 'Nothing matches the filter.' : s.empty)); return; }
    var list = el('div', 'list');
    root.appendChild(list);
    var drawn = 0;
    var more = el('button', 'more');
    more.type = 'button';
    function page() {
      var end = Math.min(drawn + PAGE, shown.length);
      var frag = document.createDocumentFragment();
      for (; drawn < end; drawn++) frag.appendChild(s.make(shown[drawn]));
      list.appendChild(frag);
      if (drawn < shown.length) {
        more.textContent = 'Show ' + Math.min(PAGE, shown.length - drawn) + ' more (' + (shown.length - drawn) + ' left)';
        root.appendChild(more);
      } else if (more.parentNode) {
        more.parentNode.removeChild(more);
      }
    }
    more.addEventListener('click', page);
    page();
  }

  function drawAll() {
    diffs = [];
    sections.forEach(drawSection);
    var count = document.getElementById('filter-count');
    count.textContent = state.terms.length
      ? sections.map(function (s) { return s.shown + ' ' + s.id; }).join(', ') + ' match'
      : '';
  }

  // ---- header: summary, filter, view toggle ----
  (function () {
    var summary = document.getElementById('summary');
    (data.summary || []).forEach(function (p) {
      var chip = el('span', 'chip ' + p[0]);
      chip.appendChild(el('b', null, p[1]));
      chip.appendChild(document.createTextNode(p[0]));
      summary.appendChild(chip);
    });
  })();

  var filter = document.getElementById('filter');
  var pending = null;
  function applyFilter() {
    pending = null;
    state.terms = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    drawAll();
  }
  filter.addEventListener('input', function () {
    if (pending) clearTimeout(pending);
    // Big reports wait for a pause in typing; small ones follow each key.
    pending = setTimeout(applyFilter, groups.length + nodes.length > 2000 ? 120 : 0);
  });
  filter.addEventListener('keydown', function (e) { if (e.key === 'Enter') { if (pending) clearTimeout(pending); applyFilter(); } });

  function setView(view) {
    state.view = view;
    document.getElementById('view-unified').classList.toggle('on', view === 'unified');
    document.getElementById('view-split').classList.toggle('on', view === 'split');
    diffs = diffs.filter(function (d) { return d.holder.isConnected; });
    diffs.forEach(drawDiff);
  }
  document.getElementById('view-unified').addEventListener('click', function () { setView('unified'); });
  document.getElementById('view-split').addEventListener('click', function () { setView('split'); });
  document.getElementById('collapse-all').addEventListener('click', function () {
    state.open = Object.create(null);
    drawAll();
  });

  var started = performance.now();
  drawAll();
  // For tests and the curious: how long the first drawing took.
  document.documentElement.dataset.renderMs = String(Math.round(performance.now() - started));
  document.documentElement.dataset.ready = 'true';
})();
