// Copy buttons next to read-only fields (join links, the calendar feed, citations). Without
// JavaScript the buttons stay hidden and the field can still be selected and copied by hand.
// data-copy names the field whose text is copied; data-copy-html, when present, names an element
// whose markup goes along as text/html, so a word processor keeps the italics.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      if (navigator.clipboard) {
        button.hidden = false;
      }
    });
  }

  function written(button, field) {
    var rich = button.dataset.copyHtml && document.getElementById(button.dataset.copyHtml);
    if (rich && window.ClipboardItem && navigator.clipboard.write) {
      return navigator.clipboard.write([
        new window.ClipboardItem({
          "text/html": new Blob([rich.innerHTML], { type: "text/html" }),
          "text/plain": new Blob([field.value], { type: "text/plain" }),
        }),
      ]);
    }
    return navigator.clipboard.writeText(field.value);
  }

  function copy(button) {
    var field = document.getElementById(button.dataset.copy);
    if (!field) {
      return;
    }
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    // The label comes back two seconds after the browser answers, however long it took.
    function settle(text) {
      button.textContent = text;
      window.setTimeout(function () {
        button.textContent = label;
      }, 2000);
    }
    written(button, field).then(
      function () {
        settle("Copied");
      },
      function () {
        field.select();
        settle("Press Ctrl+C to copy");
      }
    );
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
