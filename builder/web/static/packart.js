// The pack editor's card art: choose or drop an image, move and size a frame of the art box's
// proportions over it, then "Use this art" sends the cropped part (at most MAX_SIDE pixels a
// side) to the server, which keeps it beside the pack; the entry's art field is set and the
// card face preview follows.
(function () {
  "use strict";
  var MAX_SIDE = 1600;
  var card = document.getElementById("art-card");
  if (!card) return;
  var aspect = parseFloat(card.dataset.aspect) || 1;
  var input = document.getElementById("art-file");
  var drop = document.getElementById("art-drop");
  var stage = document.getElementById("art-stage");
  var img = document.getElementById("art-source");
  var frame = document.getElementById("art-frame");
  var zoom = document.getElementById("art-zoom");
  var zoomLabel = document.getElementById("art-zoom-label");
  var use = document.getElementById("art-use");
  var state = document.getElementById("art-state");
  var form = document.getElementById("entry-form");
  var box = { x: 0, y: 0, w: 0, h: 0 }; // the frame in displayed pixels

  function shown() { return { w: img.clientWidth, h: img.clientHeight }; }

  function place() {
    var s = shown();
    var f = parseInt(zoom.value, 10) / 100;
    var w = s.w, h = w / aspect;
    if (h > s.h) { h = s.h; w = h * aspect; }
    w *= f; h *= f;
    var cx = box.w ? box.x + box.w / 2 : s.w / 2, cy = box.h ? box.y + box.h / 2 : s.h / 2;
    box.w = w; box.h = h;
    box.x = Math.min(Math.max(cx - w / 2, 0), s.w - w);
    box.y = Math.min(Math.max(cy - h / 2, 0), s.h - h);
    frame.style.left = box.x + "px"; frame.style.top = box.y + "px";
    frame.style.width = box.w + "px"; frame.style.height = box.h + "px";
  }

  function load(file) {
    if (!file) return;
    if (!/^image\/(png|jpeg|webp)$/.test(file.type)) {
      state.textContent = card.dataset.msgFormat;
      return;
    }
    var url = URL.createObjectURL(file);
    img.onload = function () {
      stage.hidden = false; zoomLabel.hidden = false; use.disabled = false;
      box = { x: 0, y: 0, w: 0, h: 0 };
      zoom.value = 100;
      place();
      state.textContent = "";
    };
    img.src = url;
  }

  input.addEventListener("change", function () { load(input.files[0]); });
  drop.addEventListener("dragover", function (e) { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", function () { drop.classList.remove("over"); });
  drop.addEventListener("drop", function (e) {
    e.preventDefault(); drop.classList.remove("over");
    if (e.dataTransfer.files.length) load(e.dataTransfer.files[0]);
  });
  zoom.addEventListener("input", place);
  window.addEventListener("resize", function () { if (!stage.hidden) place(); });

  var drag = null;
  frame.addEventListener("pointerdown", function (e) {
    drag = { x: e.clientX, y: e.clientY, bx: box.x, by: box.y };
    frame.setPointerCapture(e.pointerId);
  });
  frame.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var s = shown();
    box.x = Math.min(Math.max(drag.bx + e.clientX - drag.x, 0), s.w - box.w);
    box.y = Math.min(Math.max(drag.by + e.clientY - drag.y, 0), s.h - box.h);
    frame.style.left = box.x + "px"; frame.style.top = box.y + "px";
  });
  frame.addEventListener("pointerup", function () { drag = null; });

  function token() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRF-Token"]; } catch (e) { return ""; }
  }

  use.addEventListener("click", function () {
    var s = shown();
    var k = img.naturalWidth / s.w;
    var sx = box.x * k, sy = box.y * k, sw = box.w * k, sh = box.h * k;
    var scale = Math.min(1, MAX_SIDE / Math.max(sw, sh));
    var canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(sw * scale));
    canvas.height = Math.max(1, Math.round(sh * scale));
    canvas.getContext("2d").drawImage(img, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
    use.disabled = true;
    state.textContent = card.dataset.msgSaving;
    canvas.toBlob(function (blob) {
      var data = new FormData(form);
      data.append("image", blob, "art.jpg");
      fetch(card.dataset.upload, { method: "POST", body: data, headers: { "X-CSRF-Token": token() } })
        .then(function (r) {
          if (!r.ok) return r.text().then(function (t) {
            var doc = new DOMParser().parseFromString(t, "text/html");
            throw new Error((doc.body.textContent || r.statusText).trim().split("\n")[0]);
          });
          return r.json();
        })
        .then(function (answer) {
          var field = form.querySelector('input[name="f_art"]');
          field.value = answer.path;
          state.textContent = card.dataset.msgSaved.replace("{path}", answer.path);
          form.dispatchEvent(new Event("change", { bubbles: true }));
        })
        .catch(function (err) { state.textContent = err.message; })
        .finally(function () { use.disabled = false; });
    }, "image/jpeg", 0.92);
  });
})();
