// daimyo serve: small helpers on top of htmx (no build step, no inline scripts).
// The words the scripts show, in the page's language: the page gives them (data-t-* on <body>).
function daimyoWord(name, fallback) {
  var v = document.body && document.body.getAttribute("data-t-" + name);
  return v === null || v === undefined ? fallback : v;
}

(function () {
  "use strict";

  function closeDetail() {
    var d = document.getElementById("detail");
    if (d) { d.hidden = true; d.innerHTML = ""; }
  }

  var keysFrom = null;
  function toggleKeys(show) {
    var k = document.getElementById("keys-help");
    if (!k) { return; }
    if (show === undefined) { show = k.hidden; }
    if (show) { keysFrom = document.activeElement; k.hidden = false; document.getElementById("keys-h").focus(); }
    else if (!k.hidden) { k.hidden = true; if (keysFrom && keysFrom.focus) { keysFrom.focus(); } }
  }

  document.addEventListener("click", function (ev) {
    if (ev.target.closest("#keys-link")) { toggleKeys(); return; }
    var t = ev.target.closest("[data-close]");
    if (t) {
      var which = t.getAttribute("data-close");
      if (which === "detail") { closeDetail(); }
      else if (which === "keys-help") { toggleKeys(false); }
      else { var el = document.getElementById(which); if (el) { el.innerHTML = ""; } }
      return;
    }
    var c = ev.target.closest("[data-copy]");
    if (c) {
      var src = document.getElementById(c.getAttribute("data-copy"));
      if (!src) { return; }
      var done = function () {
        var old = c.textContent; c.textContent = daimyoWord("copied", "Copied ✓");
        setTimeout(function () { c.textContent = old; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(src.value).then(done, function () { src.select(); document.execCommand("copy"); done(); });
      } else { src.focus(); src.select(); document.execCommand("copy"); done(); }
    }
  });

  // the entry drawer opens when htmx fills it
  document.addEventListener("htmx:afterSwap", function (ev) {
    var t = ev.detail.target;
    if (t && t.id === "detail") {
      t.hidden = false;
      var h = t.querySelector("h2"); if (h) { h.setAttribute("tabindex", "-1"); h.focus(); }
    }
    if (t && t.id === "flash" && t.innerHTML.trim()) { window.scrollTo({ top: 0, behavior: "smooth" }); }
  });
  // an error answer goes to the message area at the top (even when the element that asked
  // has been replaced meanwhile); a successful change clears an old message
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr;
    var flash = document.getElementById("flash");
    if (xhr && xhr.getResponseHeader("X-Daimyo-Flash") && flash) {
      ev.detail.shouldSwap = true;
      ev.detail.isError = false;
      ev.detail.target = flash;
      ev.detail.swapOverride = "innerHTML";
      return;
    }
    if (xhr && xhr.status < 300 && ev.detail.target && ev.detail.target.id === "list-panel" && flash) {
      flash.innerHTML = "";
    }
  });

  // keyboard: "/" searches, Escape closes, Ctrl+Z / Ctrl+Shift+Z undo and redo
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target.tagName || "").toLowerCase();
    var kind = (ev.target.getAttribute && ev.target.getAttribute("type") || "").toLowerCase();
    // a count box takes no "/" nor "?": those keys still search and show the keys from it
    var typing = (tag === "input" && ["number", "checkbox", "radio", "button", "submit"].indexOf(kind) < 0) ||
                 tag === "textarea" || tag === "select";
    if (ev.key === "Escape") { closeDetail(); toggleKeys(false); return; }
    if (ev.key === "?" && !typing) { ev.preventDefault(); toggleKeys(); return; }
    if (ev.key === "/" && !typing) {
      var q = document.getElementById("catalog-q");
      if (q) { ev.preventDefault(); q.focus(); }
      return;
    }
    if ((ev.ctrlKey || ev.metaKey) && (ev.key === "z" || ev.key === "Z") && !typing) {
      var b = document.getElementById(ev.shiftKey ? "redo" : "undo");
      if (b && !b.disabled) { ev.preventDefault(); b.click(); }
    }
  });

  // the new-list form shows the fields and an example name of the chosen game only, and
  // remembers the game for the next visit
  function syncNew() {
    var sel = document.getElementById("new-system");
    if (!sel) { return; }
    document.querySelectorAll("#new-form fieldset[data-system]").forEach(function (fs) {
      var on = fs.getAttribute("data-system") === sel.value;
      fs.hidden = !on;
      fs.disabled = !on;
    });
    var opt = sel.options[sel.selectedIndex];
    var name = document.getElementById("new-name"), file = document.getElementById("new-file");
    if (opt && name) { name.placeholder = daimyoWord("example", "e.g. {example}").replace("{example}", opt.getAttribute("data-example")); }
    if (opt && file) { file.placeholder = daimyoWord("from-name", "from the name: {file}").replace("{file}", opt.getAttribute("data-file")); }
  }
  document.addEventListener("change", function (ev) {
    if (ev.target.id !== "new-system") { return; }
    syncNew();
    var key = ev.target.getAttribute("data-cookie");
    if (key) { document.cookie = key + "=" + encodeURIComponent(ev.target.value) + "; path=/; max-age=31536000; samesite=strict"; }
  });
  document.addEventListener("DOMContentLoaded", syncNew);

  // Enter in a typed field of a form that htmx sends on change (a count, a battle size, a
  // name) commits the value as Tab does: the browser fires the change (htmx saves it) and would
  // then submit the form itself, a plain GET of the page with the form's words that races with
  // the save and reloads the page; that submission is not made, and the focus stays in the field
  // (a form with an action of its own, as the print settings' Download PDF, submits as it says)
  document.addEventListener("submit", function (ev) {
    var f = ev.target;
    if (!f || !f.getAttribute || f.hasAttribute("action") ||
        !(f.hasAttribute("hx-post") || f.hasAttribute("hx-get"))) { return; }
    var trigger = f.getAttribute("hx-trigger");
    if (trigger && !/(^|[\s,])submit\b/.test(trigger)) { ev.preventDefault(); }
  }, true);

  // the catalog search asks as the player types; leaving the box (to press Add beside a result)
  // must not ask again: the rows would be redrawn under the pointer and the press lost
  document.addEventListener("change", function (ev) {
    if (ev.target.id === "catalog-q") { ev.stopPropagation(); }
  }, true);
})();

// Focus after a change: the list is redrawn by the server, so the control that was used is
// found again in the new list (by its id, its label, or the form it belongs to) and focused;
// after an addition from the catalog the focus moves to the new or changed row; after a row
// was removed, to the row now in its place.
(function () {
  "use strict";
  var pending = null;

  function keyOf(el) {
    if (!el || el === document.body) { return ""; }
    if (el.id) { return "#" + el.id; }
    var label = el.getAttribute("aria-label");
    if (label) { return "label:" + el.tagName + ":" + label; }
    var form = el.closest("form");
    if (form && el.name) {
      var hidden = Array.prototype.map.call(form.querySelectorAll("input[type=hidden]"), function (h) {
        return h.name + "=" + h.value;
      }).join("&");
      return "form:" + hidden + "|" + el.tagName + ":" + el.name;
    }
    return "";
  }
  function sigs() {
    var out = {};
    document.querySelectorAll("#list-panel li.entry").forEach(function (li) {
      var s = li.getAttribute("data-sig"); out[s] = (out[s] || 0) + 1;
    });
    return out;
  }
  // the controls of a row in order: a control whose label changed with the change (a player
  // renamed: "Take Baba from player 1 (Hanako)") is found again by its place in its row
  function controls(li) {
    return Array.prototype.filter.call(li.querySelectorAll("button, input, select, textarea, summary"), function (c) {
      return c.type !== "hidden";
    });
  }
  function placeOf(a, row) { return row ? controls(row).indexOf(a) : -1; }
  function firstControl(li) {
    var boxes = li.querySelectorAll("input.n");
    return boxes.length ? boxes[boxes.length - 1] : li.querySelector(".entry-name, button, input, select, summary");
  }
  // what was used is noted when the change is asked for (the element that asked may be gone
  // by the time the answer comes, when the catalog beside the list is redrawn meanwhile)
  var asked = null;
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var t = ev.detail.target;
    if (!t || t.id !== "list-panel") { return; }
    var a = document.activeElement, elt = ev.detail.elt;
    if (!a || a === document.body) { a = elt; }
    var row = a && a.closest ? a.closest("#list-panel li.entry") : null;
    var rows = Array.prototype.slice.call(document.querySelectorAll("#list-panel li.entry"));
    asked = {
      key: keyOf(a), fromCatalog: !!(elt && elt.closest && elt.closest("#catalog-panel")),
      inList: !!(a && a.closest && a.closest("#list-panel, #status")), sigs: sigs(),
      row: row ? rows.indexOf(row) : -1, elt: a, place: placeOf(a, row), rows: rows.length
    };
  });
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var t = ev.detail.target;
    if (!t || t.id !== "list-panel" || !ev.detail.xhr || ev.detail.xhr.status >= 300) { return; }
    pending = asked || {key: "", fromCatalog: false, inList: false, sigs: sigs(), row: -1, place: -1, rows: 0}; asked = null;
    // the focus may have moved since the change was asked for (Tab out of a typed count)
    var a = document.activeElement;
    if (a && a !== document.body && a.closest && a.closest("#list-panel, #status") && !pending.fromCatalog) {
      pending.key = keyOf(a); pending.inList = true;
      var rows = Array.prototype.slice.call(document.querySelectorAll("#list-panel li.entry"));
      var row = a.closest("#list-panel li.entry");
      pending.row = row ? rows.indexOf(row) : pending.row;
      pending.place = placeOf(a, row); pending.rows = rows.length;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!pending) { return; }
    var p = pending; pending = null;
    var now = document.activeElement;
    if (now && now !== document.body && now !== p.elt && document.contains(now) &&
        !(now.closest && now.closest("#list-panel, #status"))) {
      return;  // the player has gone on elsewhere meanwhile (pressed / to search): the focus stays there
    }
    var target = null;
    if (p.key && !p.fromCatalog) {
      var all = document.querySelectorAll("#list-panel button, #list-panel input, #list-panel select, " +
                                          "#list-panel textarea, #list-panel summary, #status button");
      for (var i = 0; i < all.length; i++) {
        if (!all[i].disabled && keyOf(all[i]) === p.key) { target = all[i]; break; }
      }
    }
    var rows = Array.prototype.slice.call(document.querySelectorAll("#list-panel li.entry"));
    if (!target && !p.fromCatalog && p.row >= 0 && p.place >= 0 && rows.length === p.rows) {
      var same = controls(rows[p.row]);  // no row came or went: the control at the same place in the row
      if (p.place < same.length && !same[p.place].disabled) { target = same[p.place]; }
    }
    if (!target && (p.fromCatalog || p.inList)) {  // the new or changed row
      var seen = {};
      for (var k in p.sigs) { seen[k] = p.sigs[k]; }
      for (var j = 0; j < rows.length && !target; j++) {
        var s = rows[j].getAttribute("data-sig");
        if (seen[s]) { seen[s] -= 1; } else if (p.fromCatalog) { target = firstControl(rows[j]); }
      }
    }
    if (!target && p.fromCatalog) { return; }  // nothing changed in the list: the focus stays in the catalog
    if (!target && p.row >= 0 && rows.length) {  // the row was removed: the one now in its place
      target = firstControl(rows[Math.min(p.row, rows.length - 1)]);
    }
    if (!target && p.inList) {
      target = document.getElementById("list-h");
      if (target) { target.setAttribute("tabindex", "-1"); }
    }
    if (target) { target.focus(); }
  });
})();

// The print page's card images and Tabletop Simulator deck are asked for from the page: a value
// the server refuses shows its message at the top of the print page (as a refused value of the
// previews does), the form as it was; a zip received is saved under the name the server gives.
(function () {
  "use strict";
  function show(html) {
    var flash = document.getElementById("flash");
    if (flash) { flash.innerHTML = html; if (html) { window.scrollTo({ top: 0, behavior: "smooth" }); } }
  }
  function nameOf(resp, fallback) {
    var m = /filename="([^"]+)"/.exec(resp.headers.get("Content-Disposition") || "");
    return m ? m[1] : fallback;
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button[data-download]");
    if (!b || !b.form) { return; }
    ev.preventDefault();
    if (!b.form.reportValidity()) { return; }  // the browser's own checks of the fields first
    var url = b.getAttribute("formaction") + "?" + new URLSearchParams(new FormData(b.form)).toString();
    b.disabled = true; b.setAttribute("aria-busy", "true");
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (resp) {
      if (!resp.ok) {
        return resp.text().then(function (html) {
          if (resp.headers.get("X-Daimyo-Flash")) { show(html); }
          else { show('<div class="alert alert-error" role="alert"><strong></strong></div>');
                 document.querySelector("#flash strong").textContent = daimyoWord("refused", "the download was refused ({status})").replace("{status}", resp.status); }
        });
      }
      return resp.blob().then(function (blob) {
        show("");
        var a = document.createElement("a");
        a.href = URL.createObjectURL(blob); a.download = nameOf(resp, "download.zip"); a.hidden = true;
        document.body.appendChild(a); a.click(); a.remove();
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
      });
    }).catch(function () {
      show('<div class="alert alert-error" role="alert"><strong></strong></div>');
      document.querySelector("#flash strong").textContent = daimyoWord("no-answer", "the server did not answer: is daimyo serve still running?");
    }).then(function () { b.disabled = false; b.removeAttribute("aria-busy"); });
  });
})();

// The workspace's lists: search, filter by game, verdict and folder, sort by name, date, total
// or game (case ignored), all in the page.
(function () {
  "use strict";
  function val(id) { var e = document.getElementById(id); return e ? e.value : ""; }
  function apply() {
    var body = document.querySelector("table.lists tbody");
    if (!body) { return; }
    var q = val("ws-q").toLowerCase().trim(), game = val("ws-game"), verdict = val("ws-verdict");
    var folder = document.getElementById("ws-folder") ? val("ws-folder") : "*", sort = val("ws-sort") || "name";
    var rows = Array.prototype.slice.call(body.querySelectorAll("tr.ws-row"));
    var shown = 0;
    rows.forEach(function (r) {
      var d = r.dataset;
      var on = (!q || d.name.indexOf(q) >= 0 || d.path.indexOf(q) >= 0) && (!game || d.game === game) &&
               (!verdict || d.verdict === verdict) && (folder === "*" || d.folder === folder);
      r.hidden = !on; shown += on ? 1 : 0;
    });
    rows.sort(function (a, b) {
      var x = a.dataset, y = b.dataset;
      if (sort === "date") { return parseFloat(y.mtime) - parseFloat(x.mtime) || x.name.localeCompare(y.name); }
      if (sort === "points") { return (parseFloat(y.points) || 0) - (parseFloat(x.points) || 0) || x.name.localeCompare(y.name); }
      if (sort === "game") { return x.game.localeCompare(y.game) || x.name.localeCompare(y.name); }
      return x.name.localeCompare(y.name) || x.path.localeCompare(y.path);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    var out = document.getElementById("ws-shown");
    if (out) { out.textContent = shown === rows.length ? "" : daimyoWord("shown", "{shown} of {total} shown").replace("{shown}", shown).replace("{total}", rows.length); }
  }
  document.addEventListener("input", function (ev) { if (ev.target.id && ev.target.id.indexOf("ws-") === 0) { apply(); } });
  document.addEventListener("change", function (ev) { if (ev.target.id && ev.target.id.indexOf("ws-") === 0) { apply(); } });
  document.addEventListener("DOMContentLoaded", apply);
})();
