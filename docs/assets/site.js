// Material wraps wide tables in a scrolling box at run time. A box that
// scrolls must be reachable by keyboard (axe: scrollable-region-focusable),
// so give each one a tab stop and a name. Runs on every page Material shows.
document$.subscribe(function () {
  var name = function (wrap) {
    var caption = wrap.previousElementSibling;
    return caption && caption.textContent.trim() ? "Table: " + caption.textContent.trim().slice(0, 80) : "Table";
  };
  var label = function () {
    document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (wrap) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", name(wrap));
      // the table's own tab stop (pipeline/site_hooks.py: focusable_tables) was for before the box
      wrap.querySelectorAll("table[tabindex]").forEach(function (t) { t.removeAttribute("tabindex"); });
    });
  };
  label();
  window.requestAnimationFrame(label);  // in case the theme wraps tables after us
});

// Explore panels: nothing loads until a reader opens one. Opening it loads
// assets/explore.js once, which fetches the panel's data; a shared link (?explore=<panel id>)
// opens its panel. Binding twice (Material re-runs this on instant navigation) is harmless.
document$.subscribe(function () {
  document.querySelectorAll("details.w06-explore:not([data-bound])").forEach(function (d) {
    d.setAttribute("data-bound", "");
    var start = function () {
      if (!d.open) return;
      if (window.w06Explore) return window.w06Explore(d);
      var s = document.querySelector("script[data-w06-explore]");
      if (!s) {
        s = document.createElement("script");
        s.src = d.getAttribute("data-script");
        s.setAttribute("data-w06-explore", "");
        document.head.appendChild(s);
      }
      s.addEventListener("load", function () { window.w06Explore(d); });
    };
    d.addEventListener("toggle", start);
    if (new URLSearchParams(location.search).get("explore") === d.id) d.open = true;
    start();
  });
});
