// Explore panels: the reader moves a page figure with sliders.
// Every number and every coordinate was computed in Python at build time (pipeline/explore.py);
// this script only looks them up by slider index and swaps them into the page's own SVG figure.
// No model arithmetic here: tests/test_explore.py rejects Math.* (other than clamping an index)
// and exponentiation in this file.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var PREFIX = "w06-x-";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }

  function clamp(i, n) { return Math.max(0, Math.min(n - 1, i)); }

  function scheme() {
    return document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "light";
  }

  function getJSON(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ": HTTP " + r.status);
      return r.json();
    });
  }

  function getSVG(url) {
    return fetch(url).then(function (r) { return r.text(); }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "image/svg+xml");
      return document.importNode(doc.documentElement, true);
    });
  }

  // the tagged groups' own glyph definitions move to one <defs> at the root, so swapping a
  // text's glyph run never removes a glyph another text uses; then every glyph any stop needs
  function prepare(svg, glyphs) {
    var defs = document.createElementNS(NS, "defs");
    svg.insertBefore(defs, svg.firstChild);
    svg.querySelectorAll('[id^="' + PREFIX + '"] defs > *').forEach(function (g) { defs.appendChild(g); });
    Object.keys(glyphs).forEach(function (id) {
      if (svg.querySelector('[id="' + id + '"]')) return;
      var p = document.createElementNS(NS, "path");
      p.setAttribute("id", id);
      p.setAttribute("d", glyphs[id][0]);
      if (glyphs[id][1]) p.setAttribute("transform", glyphs[id][1]);
      defs.appendChild(p);
    });
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
  }

  function textGroups(g) {
    return Array.prototype.filter.call(g.querySelectorAll("g[transform]"), function (t) {
      return t.querySelector(":scope > use");
    });
  }

  function swap(svg, tag, geo) {
    var g = svg.querySelector('[id="' + PREFIX + tag + '"]');
    if (!g) return;
    if (geo.hidden) return g.setAttribute("visibility", "hidden");
    g.removeAttribute("visibility");
    var paths = g.querySelectorAll("path");
    (geo.d || []).forEach(function (d, k) { if (paths[k]) paths[k].setAttribute("d", d); });
    var uses = g.querySelectorAll("use[x]");
    (geo.xy || []).forEach(function (xy, k) {
      if (uses[k]) { uses[k].setAttribute("x", xy[0]); uses[k].setAttribute("y", xy[1]); }
    });
    var texts = textGroups(g);
    (geo.text || []).forEach(function (t, k) {
      var run = texts[k];
      if (!run) return;
      run.setAttribute("transform", t[0]);
      run.replaceChildren.apply(run, t[1].map(function (glyph) {
        var u = document.createElementNS(NS, "use");
        u.setAttribute("href", "#" + glyph[0]);
        if (glyph[1]) u.setAttribute("transform", glyph[1]);
        return u;
      }));
    });
  }

  function Panel(details, data) {
    this.details = details;
    this.data = data;
    this.inputs = [];
    this.svg = null;
    var self = this;
    var live = el("div", { "class": "w06-explore-live" });
    var controls = el("div", { "class": "w06-explore-controls" });
    var query = new URLSearchParams(location.search);
    var mine = query.get("explore") === details.id;
    data.sliders.forEach(function (s, n) {
      var id = details.id + "-" + s.id;
      var wanted = mine ? s.keys.indexOf(query.get(s.id)) : -1;
      var input = el("input", { type: "range", id: id, min: 0, max: s.stops.length - 1, step: 1,
                                value: wanted >= 0 ? wanted : s["default"] });
      var shown = el("output", { "for": id });
      var label = el("label", { "for": id }, s.label + ": ");
      label.appendChild(shown);
      controls.appendChild(el("div", { "class": "w06-explore-slider" }));
      controls.lastChild.append(label, input);
      input.addEventListener("input", function () { self.show(true); });
      self.inputs.push({ input: input, shown: shown, slider: s, n: n });
    });
    this.figure = el("div", { "class": "w06-explore-figure" });
    this.readouts = el("dl", { "class": "w06-explore-readouts" });
    this.status = el("div", { "aria-live": "polite", "class": "w06-explore-status" });
    this.status.appendChild(this.readouts);
    this.claims = el("p", { "class": "w06-explore-claims" });
    this.status.appendChild(this.claims);
    live.append(controls, this.figure, this.status);
    var fallback = details.querySelector(".w06-explore-fallback");
    details.insertBefore(live, fallback);
    fallback.hidden = true;
    new MutationObserver(function () { self.loadFigure(); })
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  Panel.prototype.cell = function () {
    var c = this.data.cells;
    this.inputs.forEach(function (x) {
      c = c[clamp(parseInt(x.input.value, 10), x.slider.stops.length)];
    });
    return c;
  };

  Panel.prototype.loadFigure = function () {
    var self = this, which = scheme();
    if (this.shown === which) return Promise.resolve();
    this.shown = which;
    return getSVG(this.details.getAttribute("data-" + which)).then(function (svg) {
      if (self.shown !== which) return;
      prepare(svg, self.data.glyphs);
      svg.setAttribute("aria-label", self.details.getAttribute("data-alt") + " (as set by the sliders above)");
      svg.setAttribute("data-scheme", which);
      self.figure.replaceChildren(svg);
      self.svg = svg;
      self.show(false);
    });
  };

  Panel.prototype.show = function (moved) {
    var cell = this.cell(), data = this.data, self = this;
    this.inputs.forEach(function (x) {
      var text = x.slider.stops[clamp(parseInt(x.input.value, 10), x.slider.stops.length)];
      x.input.setAttribute("aria-valuetext", text);
      x.shown.textContent = text;
    });
    var items = [];
    data.readouts.forEach(function (label, k) { items.push(el("dt", {}, label), el("dd", {}, cell.v[k])); });
    this.readouts.replaceChildren.apply(this.readouts, items);
    this.claims.textContent = cell.c.length
      ? "At this setting the page's statement" + (cell.c.length > 1 ? "s " : " ") +
        cell.c.map(function (c) { return "“" + data.claims[c] + "”"; }).join(", ") +
        (cell.c.length > 1 ? " do" : " does") + " not hold."
      : "";
    if (this.svg) {
      var frame = data.frames[cell.f];
      Object.keys(frame).forEach(function (tag) { swap(self.svg, tag, frame[tag]); });
      Object.keys(cell.m).forEach(function (tag) { swap(self.svg, tag, { xy: [cell.m[tag]] }); });
      this.svg.setAttribute("data-cell", this.inputs.map(function (x) { return x.input.value; }).join(","));
    }
    if (moved) {
      var q = new URLSearchParams(location.search);
      q.set("explore", this.details.id);
      this.inputs.forEach(function (x) {
        q.set(x.slider.id, x.slider.keys[clamp(parseInt(x.input.value, 10), x.slider.stops.length)]);
      });
      history.replaceState(history.state, "", "?" + q.toString() + location.hash);
    }
  };

  // start a panel once; a second call (a second toggle, instant navigation) does nothing
  window.w06Explore = function (details) {
    if (details.hasAttribute("data-started")) return;
    details.setAttribute("data-started", "");
    getJSON(details.getAttribute("data-panel")).then(function (data) {
      var panel = new Panel(details, data);
      panel.show(false);
      return panel.loadFigure();
    }).catch(function (e) {
      details.removeAttribute("data-started");
      console.warn("explore panel " + details.id + ": " + e.message);
    });
  };
})();
