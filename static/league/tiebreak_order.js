/* The tiebreak order in the tournament form (league/admin/fields.py): the chosen
   tiebreaks are list items, each holding a hidden input, so their order in the page is
   the order posted. Buttons move an item up or down, take it out (back into the picker)
   or add the picked one at the end. No build step, no library. */
(function () {
  "use strict";

  function refresh(box) {
    var list = box.querySelector(".tiebreak-order-list");
    var empty = box.querySelector(".tiebreak-order-empty");
    var select = box.querySelector(".tiebreak-order-choices");
    var items = list.querySelectorAll(".tiebreak-order-item");
    empty.hidden = items.length > 0;
    items.forEach(function (item, i) {
      item.querySelector(".tiebreak-up").disabled = i === 0;
      item.querySelector(".tiebreak-down").disabled = i === items.length - 1;
    });
    box.querySelector(".tiebreak-add").disabled = select.options.length === 0;
  }

  function button(cls, text, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button " + cls;
    b.textContent = text;
    b.title = label;
    b.setAttribute("aria-label", label);
    return b;
  }

  function item(box, key, label) {
    var li = document.createElement("li");
    li.className = "tiebreak-order-item";
    li.dataset.key = key;
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = box.dataset.name;
    input.value = key;
    var span = document.createElement("span");
    span.className = "tiebreak-order-label";
    span.textContent = label;
    li.append(input, span,
      button("tiebreak-up", "\u2191", box.dataset.labelUp),
      button("tiebreak-down", "\u2193", box.dataset.labelDown),
      button("tiebreak-remove", "\u2715", box.dataset.labelRemove));
    return li;
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    var box = target && target.closest(".tiebreak-order");
    if (!box) return;
    var list = box.querySelector(".tiebreak-order-list");
    var select = box.querySelector(".tiebreak-order-choices");
    var li = target.closest(".tiebreak-order-item");
    if (target.classList.contains("tiebreak-add")) {
      var option = select.options[select.selectedIndex];
      if (!option) return;
      list.append(item(box, option.value, option.textContent));
      option.remove();
    } else if (li && target.classList.contains("tiebreak-up") && li.previousElementSibling) {
      list.insertBefore(li, li.previousElementSibling);
    } else if (li && target.classList.contains("tiebreak-down") && li.nextElementSibling) {
      list.insertBefore(li.nextElementSibling, li);
    } else if (li && target.classList.contains("tiebreak-remove")) {
      var back = document.createElement("option");
      back.value = li.dataset.key;
      back.textContent = li.querySelector(".tiebreak-order-label").textContent;
      select.append(back);
      li.remove();
    } else {
      return;
    }
    event.preventDefault();
    refresh(box);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".tiebreak-order").forEach(refresh);
  });
})();
