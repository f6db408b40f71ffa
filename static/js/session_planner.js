// The session planner's source chips. The textarea of titles stays the truth the form sends
// (and all there is without JavaScript); a chosen suggestion adds its title as a line there and
// a chip here, and a chip's Remove button takes its line out again.
(function () {
  "use strict";

  function textarea() {
    return document.getElementById("id_source_slugs");
  }

  function lines() {
    return textarea().value.split("\n").map(function (line) {
      return line.trim();
    }).filter(Boolean);
  }

  function addChip(title) {
    var item = document.createElement("li");
    item.className = "chip";
    item.dataset.sourceTitle = title;
    item.textContent = title + " ";
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "link-button";
    remove.dataset.removeSource = "";
    remove.textContent = "Remove " + title;
    item.appendChild(remove);
    document.getElementById("chosen-sources").appendChild(item);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-remove-source], [data-source-finder]").forEach(function (button) {
      button.hidden = false;
    });
  });

  // Enter in the search box searches; it must not send the half-planned session.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.id === "find-source") {
      event.preventDefault();
    }
  });

  document.addEventListener("click", function (event) {
    var add = event.target.closest("[data-add-source]");
    if (add) {
      var title = add.dataset.addSource;
      if (lines().indexOf(title) === -1) {
        textarea().value = lines().concat([title]).join("\n");
        addChip(title);
      }
      add.disabled = true;
      return;
    }
    var remove = event.target.closest("[data-remove-source]");
    if (remove) {
      var chip = remove.closest("[data-source-title]");
      var gone = chip.dataset.sourceTitle;
      textarea().value = lines().filter(function (line) {
        return line !== gone;
      }).join("\n");
      chip.remove();
    }
  });
})();
