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

  // The browser asks for what the chosen tier requires, as the server does; the answers other
  // tiers need stay optional, so a hidden question never blocks sending the form.
  function requireForTier(form) {
    function apply() {
      var chosen = form.querySelector('input[name="tier"]:checked');
      var tier = chosen ? chosen.value : "";
      form.querySelectorAll("[data-required-for]").forEach(function (field) {
        var tiers = field.getAttribute("data-required-for").split(" ");
        field.required = tiers.indexOf(tier) !== -1;
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "tier") apply();
    });
    apply();
  }

  // Runs again after HTMX swaps the form in; elements already enhanced are skipped.
  function enhance() {
    var form = document.getElementById("proposal-form");
    if (!form || form.hasAttribute("data-enhanced")) return;
    form.setAttribute("data-enhanced", "");
    form.querySelectorAll(".topics-choice").forEach(enhanceTopicFilter);
    requireForTier(form);
  }

  document.addEventListener("DOMContentLoaded", enhance);
  document.addEventListener("htmx:afterSettle", enhance);
})();
