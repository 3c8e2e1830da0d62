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
    });
  };
  label();
  window.requestAnimationFrame(label);  // in case the theme wraps tables after us
});
