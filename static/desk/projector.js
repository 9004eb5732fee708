// The projector view: show one panel at a time (the round's pairings, then the
// standings), switching every few seconds, and fetch the panels again now and then.
(function () {
  "use strict";
  var main = document.getElementById("projector");
  if (!main) { return; }
  var switchMs = 1000 * (parseInt(main.dataset.switchSeconds, 10) || 15);
  var pollMs = 1000 * (parseInt(main.dataset.pollSeconds, 10) || 20);
  var shown = 0;

  function panels() { return main.querySelectorAll(".panel"); }

  function show(index) {
    var all = panels();
    if (!all.length) { return; }
    shown = index % all.length;
    all.forEach(function (panel, i) { panel.hidden = i !== shown; });
    main.dataset.shown = all[shown].dataset.panel;
  }

  function refresh() {
    fetch(main.dataset.pollUrl, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var current = main.dataset.shown;
        main.innerHTML = html;
        var all = panels();
        var again = 0;
        all.forEach(function (panel, i) { if (panel.dataset.panel === current) { again = i; } });
        show(again);
      })
      .catch(function () { /* the hall's network: keep the last panels and try again */ });
  }

  show(0);
  setInterval(function () { show(shown + 1); }, switchMs);
  setInterval(refresh, pollMs);
}());
