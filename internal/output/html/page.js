// The filters of the ssa-diff report: by action, kind, namespace, failing, and a search on
// the objects' lines. Without JavaScript the bar stays hidden and every object shows.
(function () {
  "use strict";
  var bar = document.getElementById("filters");
  var shown = document.getElementById("shown");
  var objects = Array.prototype.slice.call(document.querySelectorAll("details.obj"));
  var text = objects.map(function (o) {
    return o.querySelector("summary").textContent.toLowerCase();
  });
  function apply() {
    var actions = {};
    bar.querySelectorAll("input[name=a]").forEach(function (c) {
      actions[c.value] = c.checked;
    });
    var kind = bar.querySelector("select[name=k]").value;
    var ns = bar.querySelector("select[name=n]").value;
    var failing = bar.querySelector("input[name=f]").checked;
    var q = bar.querySelector("input[name=q]").value.trim().toLowerCase();
    var n = 0;
    objects.forEach(function (o, i) {
      var d = o.dataset;
      var ok = actions[d.a] !== false && (!kind || d.k === kind) && (!ns || d.n === ns) &&
        (!failing || d.f === "1") && (!q || text[i].indexOf(q) >= 0);
      o.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n + " of " + objects.length + " objects shown";
  }
  bar.addEventListener("input", apply);
  bar.addEventListener("change", apply);
  bar.addEventListener("click", function (e) {
    var what = e.target.getAttribute("data-do");
    if (!what) return;
    objects.forEach(function (o) {
      if (!o.hidden) o.open = what === "open";
    });
  });
  // A link to an object (from "needs attention") shows and opens it.
  function reveal() {
    var o = location.hash && document.getElementById(location.hash.slice(1));
    if (o && o.classList.contains("obj")) {
      o.hidden = false;
      o.open = true;
    }
  }
  window.addEventListener("hashchange", reveal);
  bar.hidden = false;
  apply();
  reveal();
})();
