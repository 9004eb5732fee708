// Small progressive enhancements for the public site; every page works without them.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-print]");
  if (button) {
    window.print();
  }
});

// A row's details (the standings' "why here?"): the toggle shows or hides the row
// named by its aria-controls. The open ones stay open when htmx refreshes the table.
const openRows = new Set();
document.addEventListener("click", (event) => {
  const toggle = event.target.closest("button[aria-controls].why-toggle");
  if (!toggle) {
    return;
  }
  const id = toggle.getAttribute("aria-controls");
  const row = document.getElementById(id);
  if (!row) {
    return;
  }
  const open = toggle.getAttribute("aria-expanded") !== "true";
  toggle.setAttribute("aria-expanded", String(open));
  row.hidden = !open;
  if (open) {
    openRows.add(id);
  } else {
    openRows.delete(id);
  }
});
document.addEventListener("htmx:afterSwap", () => {
  for (const id of openRows) {
    const row = document.getElementById(id);
    const toggle = document.querySelector(`button[aria-controls="${id}"]`);
    if (row && toggle) {
      row.hidden = false;
      toggle.setAttribute("aria-expanded", "true");
    }
  }
});
