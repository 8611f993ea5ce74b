(function () {
  "use strict";
  var key = document.body.getAttribute("data-key");
  var state = {};
  try { state = JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (e) { state = {}; }
  function save() { try { window.localStorage.setItem(key, JSON.stringify(state)); } catch (e) { /* private mode */ } }
  function num(v) { return v === "" || v === null ? null : Number(v); }
  function value(el) {
    var k = el.getAttribute("data-counter");
    return Object.prototype.hasOwnProperty.call(state, k) ? state[k] : Number(el.getAttribute("data-start"));
  }
  function show(el) {
    var v = value(el), alert = num(el.getAttribute("data-alert"));
    el.querySelector("output").textContent = String(v);
    el.classList.toggle("alert", alert !== null && v >= alert);
  }
  var all = document.querySelectorAll("[data-counter]");
  Array.prototype.forEach.call(all, show);
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button[data-step]") : null;
    if (!b) { return; }
    var el = b.closest("[data-counter]");
    var v = value(el) + Number(b.getAttribute("data-step"));
    var lo = num(el.getAttribute("data-min")), hi = num(el.getAttribute("data-max"));
    if (lo !== null) { v = Math.max(lo, v); }
    if (hi !== null) { v = Math.min(hi, v); }
    state[el.getAttribute("data-counter")] = v;
    save();
    show(el);
  });
  var reset = document.getElementById("reset");
  if (reset) {
    reset.addEventListener("click", function () {
      if (!window.confirm(reset.getAttribute("data-ask") || "Reset?")) { return; }
      state = {};
      try { window.localStorage.removeItem(key); } catch (e) { /* private mode */ }
      Array.prototype.forEach.call(all, show);
    });
  }
}());
