// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";

  // "/" focuses the search box, as on most sites with search.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    var box = document.querySelector("[data-search-box]") || document.getElementById("nav-q");
    if (box) {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });
})();
