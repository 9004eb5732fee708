// The scorekeeper's page, enhanced: a tile pad of pip buttons over the typed tile, and
// the hand in progress kept in this browser (per match and hand) until it is saved.
// Every part works without this file: the pad fills the "tile" text field the form
// already has, and the buttons that lay, draw or pass are the form's own. Texts shown to
// people come from the page's data-* attributes, already in the user's language.
(() => {
  "use strict";

  const STORE = "kelipatan:draft:";
  const FIELDS = /^(leader|scores|moves|end|tile|left_\d+)$/;

  // --- The tile pad ------------------------------------------------------------------

  function tilePad(pad) {
    const input = pad.querySelector('input[name="tile"]');
    if (!input || pad.querySelector(".sk-pips")) {
      return;
    }
    const row = document.createElement("div");
    row.className = "sk-pips";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", pad.dataset.pipsLabel || "");
    const shown = document.createElement("output");
    shown.className = "sk-tile-shown";
    shown.setAttribute("data-testid", "tile-shown");
    shown.setAttribute("aria-live", "polite");
    let halves = [];
    const parsed = /^([0-6])-([0-6])$/.exec(input.value.trim());
    if (parsed) {
      halves = [parsed[1], parsed[2]];
    }
    const show = (write = true) => {
      if (write) {
        input.value = halves.length === 2 ? `${halves[0]}-${halves[1]}` : "";
      }
      shown.textContent =
        halves.length === 0 ? pad.dataset.emptyLabel || "" : `[${halves[0]}|${halves[1] ?? "?"}]`;
      shown.classList.toggle("sk-tile-hint", halves.length === 0);
    };
    for (let pip = 0; pip <= 6; pip += 1) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sk-pip";
      button.textContent = String(pip);
      button.dataset.pip = String(pip);
      button.setAttribute("data-testid", `pip-${pip}`);
      button.addEventListener("click", () => {
        halves = halves.length === 2 ? [String(pip)] : [...halves, String(pip)];
        show();
        saveDraft(pad.closest("form"));
      });
      row.append(button);
    }
    const clear = document.createElement("button");
    clear.type = "button";
    clear.className = "secondary sk-pip-clear";
    clear.textContent = pad.dataset.clearLabel || "×";
    clear.setAttribute("data-testid", "pip-clear");
    clear.addEventListener("click", () => {
      halves = [];
      show();
    });
    row.append(clear);
    pad.prepend(row, shown);
    input.addEventListener("input", () => {
      const typed = /^([0-6])-([0-6])$/.exec(input.value.trim());
      halves = typed ? [typed[1], typed[2]] : [];
      shown.textContent = typed ? `[${typed[1]}|${typed[2]}]` : pad.dataset.emptyLabel || "";
      shown.classList.toggle("sk-tile-hint", !typed);
    });
    show(false); // never overwrite what was typed before the pad appeared
  }

  // --- The hand in progress, kept in this browser ------------------------------------

  function storage() {
    try {
      return window.localStorage;
    } catch {
      return null; // private mode or storage switched off: nothing is kept
    }
  }

  function values(form) {
    const kept = {};
    for (const field of form.elements) {
      if (!field.name || !FIELDS.test(field.name)) {
        continue;
      }
      if (field.type === "radio") {
        if (field.checked) {
          kept[field.name] = field.value;
        }
      } else {
        kept[field.name] = field.value;
      }
    }
    return kept;
  }

  function isEmpty(kept) {
    return !Object.entries(kept).some(([name, value]) => name !== "leader" && value);
  }

  function saveDraft(form) {
    const store = storage();
    const key = form && form.dataset.draftKey;
    if (!store || !key) {
      return;
    }
    const kept = values(form);
    if (isEmpty(kept)) {
      store.removeItem(key);
    } else {
      store.setItem(key, JSON.stringify(kept));
    }
  }

  function forgetSaved(page) {
    // Hands before the one on the form are saved: their drafts are no longer needed.
    const store = storage();
    const match = page.dataset.match;
    if (!store || !match) {
      return;
    }
    const next = Number(page.dataset.nextHand || 0);
    const prefix = `${STORE}${match}:`;
    for (let i = store.length - 1; i >= 0; i -= 1) {
      const key = store.key(i);
      if (key && key.startsWith(prefix) && (!next || Number(key.slice(prefix.length)) < next)) {
        store.removeItem(key);
      }
    }
  }

  function restoreDraft(form) {
    const store = storage();
    const key = form.dataset.draftKey;
    const raw = store && key ? store.getItem(key) : null;
    if (!raw || !isEmpty(values(form))) {
      return;
    }
    let kept;
    try {
      kept = JSON.parse(raw);
    } catch {
      store.removeItem(key);
      return;
    }
    for (const field of form.elements) {
      if (!field.name || !(field.name in kept)) {
        continue;
      }
      if (field.type === "radio") {
        field.checked = field.value === kept[field.name];
      } else {
        field.value = kept[field.name];
      }
    }
    // Ask the page to show the restored hand (its layout, whose turn, the totals).
    const show = form.querySelector('button[value="show"]');
    if (show) {
      form.dataset.restored = "1";
      form.requestSubmit(show);
    }
  }

  function enhance() {
    const scorekeeper = document.getElementById("scorekeeper");
    if (!scorekeeper) {
      return;
    }
    forgetSaved(scorekeeper);
    for (const pad of scorekeeper.querySelectorAll("[data-tilepad]")) {
      tilePad(pad);
    }
    const form = scorekeeper.querySelector("form[data-draft-key]");
    if (form) {
      restoreDraft(form);
      saveDraft(form);
    }
  }

  document.addEventListener("input", (event) => {
    const form = event.target.closest && event.target.closest("form[data-draft-key]");
    if (form) {
      saveDraft(form);
    }
  });
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("form[data-draft-key]");
    if (form) {
      saveDraft(form);
    }
  });
  // A phone that sleeps or leaves the page: keep what is on the form now.
  document.addEventListener("visibilitychange", () => {
    const form = document.querySelector("form[data-draft-key]");
    if (form) {
      saveDraft(form);
    }
  });
  // --- What a save says, brought into view -------------------------------------------

  // The action of the button that sent the form ("save", "show", "add:1:10", …).
  function actionOf(detail) {
    const config = (detail && detail.requestConfig) || {};
    const data = config.formData;
    const sent = data && typeof data.get === "function" ? data.get("action") : null;
    if (sent) {
      return String(sent);
    }
    const submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    return submitter && submitter.name === "action" ? submitter.value : "save";
  }

  // The panel htmx brought back keeps the scroll of the old one: after a save the page is
  // still where its button was, far below the saved notice or the reason of a refusal.
  // Scroll that message (the first error, else, after a save, the notice) into view, clear
  // of the board that sticks to the top, and move the focus to it for screen readers.
  function showResult(detail) {
    const panel = document.getElementById("scorekeeper");
    if (!panel) {
      return;
    }
    const action = actionOf(detail);
    const saving = action === "save" || action === "remove_unfit" || action === "show";
    const message =
      panel.querySelector(".sk-entry .sk-errors, .sk-entry .sk-field-error") ||
      (saving ? panel.querySelector(".sk-messages") : null);
    if (!message) {
      return;
    }
    const board = panel.querySelector(".sk-board");
    const belowBoard =
      board && board.compareDocumentPosition(message) & Node.DOCUMENT_POSITION_FOLLOWING;
    const margin = 8;
    const stuck = belowBoard ? board.offsetHeight : 0;
    // A refused save shows the whole question a field error belongs to (the choice of
    // leader above its error, say) when it fits on the screen.
    const fieldset = saving ? message.closest("fieldset") : null;
    const shown =
      fieldset && fieldset.offsetHeight <= window.innerHeight - stuck - 2 * margin
        ? fieldset
        : message;
    const clear = belowBoard ? board.getBoundingClientRect().bottom : 0;
    const box = shown.getBoundingClientRect();
    if (box.top < clear || box.bottom > window.innerHeight) {
      window.scrollBy({ top: box.top - stuck - margin, behavior: "instant" });
    }
    if (!message.hasAttribute("tabindex")) {
      message.setAttribute("tabindex", "-1");
    }
    message.focus({ preventScroll: true });
  }

  // htmx swaps the panel in after each step: enhance the new one, keep its state, and
  // show what a save or a refusal says.
  document.addEventListener("htmx:afterSettle", (event) => {
    enhance();
    showResult(event.detail);
  });
  // One tap, one step: while a step is on its way the form's controls are disabled, so
  // a tap or a choice made meanwhile is neither dropped nor undone by the panel the
  // step brings back (htmx has read the form's values before this event).
  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.target.closest && event.target.closest("form");
    if (form && form.dataset.busy === "1") {
      event.preventDefault();
    } else if (form) {
      form.dataset.busy = "1";
      form.setAttribute("aria-busy", "true");
      for (const field of form.elements) {
        if (!field.disabled) {
          field.disabled = true;
          field.dataset.busyDisabled = "1";
        }
      }
    }
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.target.closest && event.target.closest("form");
    if (form) {
      delete form.dataset.busy;
      form.removeAttribute("aria-busy");
      for (const field of form.querySelectorAll("[data-busy-disabled]")) {
        field.disabled = false;
        delete field.dataset.busyDisabled;
      }
    }
  });
  // The round clock counts down between page loads (the server's figure is the truth).
  window.setInterval(() => {
    const left = document.querySelector("[data-clock-seconds]");
    if (!left) {
      return;
    }
    const seconds = Math.max(0, Number(left.dataset.clockSeconds) - 1);
    left.dataset.clockSeconds = String(seconds);
    left.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }, 1000);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => enhance());
  } else {
    enhance();
  }
})();
