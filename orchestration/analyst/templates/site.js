/* rltrack site: search over the index (window.RLTRACK_INDEX) and matrix sorting/filtering. No dependencies. */
(function () {
  "use strict";
  var INDEX = window.RLTRACK_INDEX || [];
  var root = (document.querySelector("link[rel=stylesheet]").getAttribute("href") || "").replace(/assets\/site\.css$/, "");

  /* the same spellings `rltrack lookup` accepts (lookup.parse_arxiv_id, lookup.method_token) */
  function arxivId(text) {
    text = text.trim();
    var m = /arxiv\.org\/(?:abs|pdf|html)\/(\d{4}\.\d{4,5})/i.exec(text);
    if (m) return m[1];
    m = /^(?:arxiv:\s*)?(\d{4}\.\d{4,5})(?:v\d+)?$/i.exec(text);
    return m ? m[1] : null;
  }
  function token(name) {
    return name.toLowerCase().replace(/\+\+/g, "_plus_plus").replace(/[^a-z0-9]+/g, "_")
      .replace(/_+/g, "_").replace(/^_+|_+$/g, "");
  }

  function search(query) {
    var q = query.trim();
    if (!q) return [];
    var id = arxivId(q), t = token(q), lower = q.toLowerCase(), hits = [];
    INDEX.forEach(function (e) {
      var rank = null;
      if (id && e.id === id) rank = 0;
      else if (t && e.tokens.indexOf(t) >= 0) rank = 1;
      else if (t.length >= 2 && e.tokens.some(function (k) { return k.indexOf(t) === 0; })) rank = 2;
      else if (!id && /^\d{4}\.?\d*$/.test(q) && e.id.indexOf(q) === 0) rank = 2;
      else if (lower.length >= 3 && e.title.toLowerCase().indexOf(lower) >= 0) rank = 3;
      else if (t.length >= 3 && token(e.title).indexOf(t) >= 0) rank = 4;
      if (rank !== null) hits.push({ rank: rank, entry: e });
    });
    hits.sort(function (a, b) { return a.rank - b.rank || b.entry.frameworks.length - a.entry.frameworks.length || (a.entry.id < b.entry.id ? -1 : 1); });
    return hits.map(function (h) { return h.entry; });
  }

  function resultItem(e) {
    var li = document.createElement("li"), a = document.createElement("a");
    a.href = root + e.url;
    var name = e.names.length ? e.names[0] : e.id;
    a.appendChild(document.createTextNode(name + " "));
    var small = document.createElement("span");
    small.className = "id";
    small.textContent = e.id + (e.title !== name ? " · " + e.title : "") + " · " +
      (e.frameworks.length ? "in " + e.frameworks.join(", ") : "in no tracked framework");
    a.appendChild(small);
    li.appendChild(a);
    return li;
  }

  var input = document.getElementById("q"), box = document.getElementById("search-results");
  if (input && box) {
    var show = function () {
      var hits = search(input.value).slice(0, 12);
      box.innerHTML = "";
      hits.forEach(function (e) { box.appendChild(resultItem(e)); });
      if (input.value.trim() && !hits.length) {
        var li = document.createElement("li");
        li.textContent = "Nothing found: not in the warehouse under that name or id.";
        box.appendChild(li);
      }
      box.hidden = !input.value.trim();
    };
    input.addEventListener("input", show);
    input.addEventListener("keydown", function (ev) {
      var first = box.querySelector("a");
      if (ev.key === "ArrowDown" && first) { ev.preventDefault(); first.focus(); }
      if (ev.key === "Escape") { box.hidden = true; }
    });
    box.addEventListener("keydown", function (ev) {
      var links = Array.prototype.slice.call(box.querySelectorAll("a")), i = links.indexOf(document.activeElement);
      if (ev.key === "ArrowDown" && i < links.length - 1) { ev.preventDefault(); links[i + 1].focus(); }
      if (ev.key === "ArrowUp") { ev.preventDefault(); (i > 0 ? links[i - 1] : input).focus(); }
      if (ev.key === "Escape") { box.hidden = true; input.focus(); }
    });
    document.addEventListener("click", function (ev) { if (!box.contains(ev.target) && ev.target !== input) box.hidden = true; });
  }

  /* search.html?q=...: the full result list */
  var found = document.getElementById("found");
  if (found) {
    var q = new URLSearchParams(location.search).get("q") || "";
    if (q) {
      if (input) input.value = q;
      var hits = search(q), list = document.getElementById("found-list");
      hits.forEach(function (e) { list.appendChild(resultItem(e)); });
      document.getElementById("found-summary").textContent =
        hits.length + " result" + (hits.length === 1 ? "" : "s") + " for “" + q + "”" +
        (hits.length ? "" : ": nothing in the warehouse goes by that name or id.");
      found.hidden = false;
    }
  }

  /* the matrix: filters and sorting, state kept in the URL fragment so a view can be shared */
  var table = document.getElementById("method-matrix"), form = document.getElementById("matrix-filters");
  if (!table || !form) return;
  form.hidden = false;
  var tbody = table.tBodies[0], rows = Array.prototype.slice.call(tbody.rows), heads = table.tHead.rows[0].cells;
  var count = document.getElementById("matrix-count");

  function state() { return new URLSearchParams(location.hash.replace(/^#(matrix)?&?/, "")); }
  function save(params) {
    var s = params.toString();
    history.replaceState(null, "", s ? "#" + s : location.pathname + location.search);
  }
  function readForm() {
    var p = new URLSearchParams();
    ["kind", "cohort", "text"].forEach(function (k) { if (form.elements[k].value) p.set(k, form.elements[k].value); });
    ["widely", "nowhere"].forEach(function (k) { if (form.elements[k].checked) p.set(k, "1"); });
    var s = state().get("sort");
    if (s) p.set("sort", s);
    return p;
  }
  function filter(p) {
    var text = (p.get("text") || "").toLowerCase(), shown = 0;
    rows.forEach(function (r) {
      var ok = (!p.get("kind") || r.dataset.kind === p.get("kind")) &&
        (!p.get("cohort") || r.dataset.cohort === p.get("cohort")) &&
        (!p.get("widely") || r.dataset.widely === "1") &&
        (!p.get("nowhere") || r.dataset.count === "0") &&
        (!text || r.cells[0].textContent.toLowerCase().indexOf(text) >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  function sortKey(cell) { return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim(); }
  function sortBy(col, dir) {
    var type = heads[col].dataset.type;
    Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
    heads[col].setAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
    var sorted = rows.slice().sort(function (a, b) {
      var x = sortKey(a.cells[col]), y = sortKey(b.cells[col]);
      if (type !== "text" && (x === "") !== (y === "")) return x === "" ? 1 : -1; /* empty cells last */
      var c = type === "num" ? Number(x) - Number(y) : x.localeCompare(y);
      return dir === "asc" ? c : -c;
    });
    sorted.forEach(function (r) { tbody.appendChild(r); });
  }
  function apply() {
    var p = state();
    ["kind", "cohort", "text"].forEach(function (k) { form.elements[k].value = p.get(k) || ""; });
    ["widely", "nowhere"].forEach(function (k) { form.elements[k].checked = p.get(k) === "1"; });
    filter(p);
    var s = (p.get("sort") || "").split(":");
    if (s[0] !== "" && heads[+s[0]]) sortBy(+s[0], s[1] === "desc" ? "desc" : "asc");
  }
  Array.prototype.forEach.call(heads, function (h, col) {
    var b = h.querySelector("button");
    if (!b) return;
    b.addEventListener("click", function () {
      var first = h.dataset.type === "num" ? "desc" : "asc";
      var dir = h.getAttribute("aria-sort") === (first === "asc" ? "ascending" : "descending") ? (first === "asc" ? "desc" : "asc") : first;
      var p = readForm();
      p.set("sort", col + ":" + dir);
      save(p);
      sortBy(col, dir);
    });
  });
  form.addEventListener("input", function () { var p = readForm(); save(p); filter(p); });
  form.addEventListener("change", function () { var p = readForm(); save(p); filter(p); });
  form.addEventListener("reset", function () { setTimeout(function () { save(new URLSearchParams()); rows.forEach(function (r) { tbody.appendChild(r); }); filter(new URLSearchParams()); Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); }); }, 0); });
  window.addEventListener("hashchange", apply);
  apply();
})();
