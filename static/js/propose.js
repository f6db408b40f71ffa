// Enhances the proposal form; everything here is optional, the form works without it.
(function () {
  "use strict";

  function enhanceTopicFilter(root) {
    var filter = root.querySelector(".topics-filter");
    var box = root.querySelector(".topics-box");
    if (!filter || !box) return;
    filter.hidden = false;
    var label = root.querySelector(".topics-filter-label");
    if (label) label.hidden = false;
    filter.addEventListener("input", function () {
      var wanted = filter.value.trim().toLowerCase();
      box.querySelectorAll("label").forEach(function (label) {
        var item = label.closest("li, div") || label;
        var match = !wanted || label.textContent.toLowerCase().indexOf(wanted) !== -1;
        if (match) item.removeAttribute("data-filtered-out");
        else item.setAttribute("data-filtered-out", "");
      });
    });
    box.addEventListener("change", function () {
      var count = root.querySelector(".topics-count");
      if (count) {
        count.textContent = "(" + box.querySelectorAll("input:checked").length + " chosen)";
      }
    });
  }

  function enhance(root) {
    root.querySelectorAll(".topics-choice").forEach(enhanceTopicFilter);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:afterSwap", function (event) { enhance(event.target); });
})();
