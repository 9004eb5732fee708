// The round clock: every element with data-clock-seconds counts down, once a second,
// from the seconds the server gave it when the page (or the fragment) was drawn; the
// browser's own clock only measures the time since, so a skewed clock does not matter.
(function () {
  "use strict";

  function text(seconds) {
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock-seconds]").forEach(function (el) {
      if (!el.dataset.clockEnds) {
        el.dataset.clockEnds = String(now + 1000 * (parseInt(el.dataset.clockSeconds, 10) || 0));
      }
      var left = Math.max(0, Math.round((parseInt(el.dataset.clockEnds, 10) - now) / 1000));
      el.textContent = left > 0 ? text(left) : (el.dataset.clockOver || "0:00");
      el.classList.toggle("over", left === 0);
    });
  }

  tick();
  setInterval(tick, 1000);
}());
