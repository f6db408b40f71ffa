// Copy buttons next to read-only addresses (join links, the calendar feed). Without
// JavaScript the buttons stay hidden and the field can still be selected and copied by hand.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      if (navigator.clipboard) {
        button.hidden = false;
      }
    });
  }

  function copy(button) {
    var field = document.getElementById(button.dataset.copy);
    if (!field) {
      return;
    }
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    navigator.clipboard.writeText(field.value).then(
      function () {
        button.textContent = "Copied";
      },
      function () {
        field.select();
        button.textContent = "Press Ctrl+C to copy";
      }
    );
    window.setTimeout(function () {
      button.textContent = label;
    }, 2000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    reveal(document);
  });
  document.addEventListener("htmx:load", function (event) {
    reveal(event.target);
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (button) {
      copy(button);
    }
  });
})();
