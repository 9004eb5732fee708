// Small progressive enhancements for the public site; every page works without them.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-print]");
  if (button) {
    window.print();
  }
});
