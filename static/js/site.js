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

// Notes (issue 6): the "Undo" offer after deleting a note goes away after a few seconds, and a
// note form swapped in gets keyboard focus (on its first invalid field when saving failed).
// Without this file the offer stays until the next page load (the server honours it for a minute).
(function () {
  "use strict";

  function dismissLater(item) {
    if (item.dataset.dismissScheduled) return;
    item.dataset.dismissScheduled = "1";
    var seconds = parseFloat(item.dataset.dismissAfter) || 10;
    window.setTimeout(function () {
      if (!item.isConnected) return;
      // Focus on the Undo button would fall to the page's start; it moves to a neighbour.
      var hadFocus = item.contains(document.activeElement);
      var neighbour = item.nextElementSibling || item.previousElementSibling || item.parentElement;
      item.remove();
      if (hadFocus && neighbour) {
        if (!neighbour.hasAttribute("tabindex")) neighbour.setAttribute("tabindex", "-1");
        neighbour.focus();
      }
    }, seconds * 1000);
  }

  function enhance(root) {
    var items = Array.prototype.slice.call(root.querySelectorAll("[data-dismiss-after]"));
    if (root.matches && root.matches("[data-dismiss-after]")) items.push(root);
    items.forEach(dismissLater);
  }

  document.addEventListener("DOMContentLoaded", function () {
    enhance(document);
  });
  document.addEventListener("htmx:load", function (event) {
    var root = event.target;
    if (!root || !root.querySelectorAll) return;
    enhance(root);
    if (root.matches(".note.is-editing, .note-add[open]")) {
      var field = root.querySelector('[aria-invalid="true"]') || root.querySelector("textarea");
      if (field) field.focus();
    }
  });
})();

// Search (issue 4): ArrowDown from the search box moves to the first result; ArrowUp and
// ArrowDown then step through result links, and ArrowUp from the first goes back to the box.
// Live searches leave empty fields out of the URL they push (?q=flash, not ?q=flash&sort=).
(function () {
  "use strict";

  // Typing, clearing the box and changing the order keep focus where it is. A submitted search,
  // a filter, a chip or a page link moves it to the summary of what came back, from which Tab
  // goes on to the first result; otherwise focus would fall to the page's start.
  var focusSummary = false;

  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.target && detail.target.id === "results-region") {
      var trigger = detail.triggeringEvent;
      focusSummary = !trigger || trigger.type === "submit" || trigger.type === "click";
    }
    if (detail.elt.id !== "search-form") return;
    var parameters = detail.parameters;
    ["q", "sort"].forEach(function (name) {
      if (parameters[name] === "") delete parameters[name];
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    var summary = document.getElementById("result-count");
    if (!focusSummary || !summary) return;
    focusSummary = false;
    summary.focus();
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var box = document.querySelector("[data-search-box]");
    var links = Array.prototype.slice.call(document.querySelectorAll("#results .card-title a"));
    if (!box || !links.length) return;
    var index = links.indexOf(document.activeElement);
    var next = null;
    if (document.activeElement === box) {
      if (event.key === "ArrowDown") next = links[0];
    } else if (index !== -1) {
      next = event.key === "ArrowDown" ? links[Math.min(index + 1, links.length - 1)] : index === 0 ? box : links[index - 1];
    }
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
})();

// The header menu is a <details>, which opens and closes without this file. A menu also closes
// on Escape (focus back on its button) and when the reader clicks elsewhere.
(function () {
  "use strict";

  function openMenus() {
    return Array.prototype.slice.call(document.querySelectorAll("details[data-site-menu][open]"));
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    openMenus().forEach(function (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  });
  document.addEventListener("click", function (event) {
    openMenus().forEach(function (menu) {
      if (!menu.contains(event.target)) menu.open = false;
    });
  });
})();

// A page may show one source's control more than once (a list with the source in two sections).
// A change asks the server for every copy, so that each shows the new status.
(function () {
  "use strict";

  // The control a request changes: its own form, or in a list's shared form (bookmark-form)
  // the control holding the pressed button.
  function changedControl(event) {
    var form = event.detail.elt;
    if (!form.matches) return null;
    if (form.matches("form.bookmark-control[data-source]")) return form;
    if (!form.matches("form.bookmark-form")) return null;
    var trigger = event.detail.triggeringEvent;
    var button = (trigger && trigger.submitter) || document.activeElement;
    return button && button.closest ? button.closest(".bookmark-control[data-source]") : null;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var control = changedControl(event);
    if (!control) return;
    var selector = '.bookmark-control[data-source="' + control.dataset.source + '"]';
    var copies = Array.prototype.map.call(document.querySelectorAll(selector), function (copy) {
      return copy.dataset.occurrence || "";
    });
    if (copies.length > 1) event.detail.parameters.copies = copies;
    if (control !== event.detail.elt) {
      // Its own spinner while the shared form waits.
      control.classList.add("is-saving");
      event.detail.elt.addEventListener(
        "htmx:afterRequest",
        function () {
          control.classList.remove("is-saving");
        },
        { once: true }
      );
    }
  });

  // A step of the Start-here path is drawn as done once it is read, as the server draws it.
  document.addEventListener("htmx:afterSwap", function (event) {
    var form = event.detail.target;
    var step = form && form.closest && form.closest(".path-step");
    if (!step || !form.matches("form.bookmark-control")) return;
    var read = form.querySelector('.status-read[aria-pressed="true"]');
    step.classList.toggle("is-read", Boolean(read));
  });
})();

// Live updates. What a swap did is said in the page's one polite live region (#live-status):
// the swapped-in element marked data-announce gives the words (its own text when the attribute
// is empty). Focus goes where the server put autofocus (htmx focuses it after the swap) or, when
// the swap removed the focused control, back to the control of the same id in the new content.
// A message marked data-clears-with="<input id>" is about that input's value and goes when the
// reader changes it. A message the server shows after a full-page answer is said too.
(function () {
  "use strict";

  var focusedId = null;
  var typed = false;

  function announce(text, skipRepeat) {
    var region = document.getElementById("live-status");
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!region || !text || (skipRepeat && region.textContent === text)) return;
    // Emptied first, so that the same words said twice are heard twice.
    region.textContent = "";
    window.setTimeout(function () {
      region.textContent = text;
    }, 100);
  }

  // Only the swapped element itself, or the result inside it that takes focus: a region of
  // search results or library filters holds bookmark controls whose status nobody just changed.
  function announcement(root) {
    var marked = root.matches("[data-announce]")
      ? root
      : root.querySelector("[data-announce][autofocus]");
    if (!marked) return "";
    return marked.getAttribute("data-announce") || marked.textContent;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    // Typing runs the live check at every pause; the same finding is not repeated each time.
    typed = /^(INPUT|TEXTAREA)$/.test(event.detail.elt.tagName);
  });

  // A list's bookmark buttons have no ids: one is found again by its value inside its control;
  // when it went (Remove), the control's first button takes focus.
  var focusedValue = null;

  // A swap that lands while focus is on no element (another answer, such as the progress
  // summary a bookmark change refreshes, replaced the focused control a moment ago) keeps the
  // control still waiting to get its focus back.
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    if (!active || active === document.body) return;
    focusedId = active.id;
    focusedValue = null;
    if (!focusedId && active.closest) {
      var owner = active.closest(".bookmark-control[id]");
      focusedId = owner ? owner.id : null;
      focusedValue = active.value;
    }
  });

  function refocused() {
    var control = focusedId && document.getElementById(focusedId);
    if (!control || focusedValue === null) return control;
    var buttons = Array.prototype.slice.call(control.querySelectorAll("button"));
    var same = buttons.filter(function (button) {
      return button.value === focusedValue;
    });
    return same[0] || buttons[0];
  }

  document.addEventListener("htmx:load", function (event) {
    var root = event.target;
    if (!root || root === document.body || !root.matches) return;
    var text = announcement(root);
    if (text) announce(text, typed);
  });

  document.addEventListener("htmx:afterSettle", function () {
    var active = document.activeElement;
    var lost = !active || active === document.body || !active.isConnected;
    var control = lost ? refocused() : null;
    focusedId = null;
    focusedValue = null;
    if (control) control.focus();
  });

  function clearTiedMessages(event) {
    var id = event.target && event.target.id;
    if (!id) return;
    var selector = '[data-clears-with~="' + id + '"]';
    Array.prototype.forEach.call(document.querySelectorAll(selector), function (message) {
      message.remove();
    });
  }
  document.addEventListener("input", clearTiedMessages);
  document.addEventListener("change", clearTiedMessages);

  // A page that answers a form (follow, invite, save the profile) opens on its message: focus
  // goes there unless the server put it elsewhere, and the live region says it. A live region
  // only speaks about changes made after the page is read, hence the wait.
  document.addEventListener("DOMContentLoaded", function () {
    var messages = document.querySelector(".messages");
    if (!messages) return;
    // A page that returns to an anchor (a bookmark saved far down a list) keeps its place.
    var elsewhere = window.location.hash || document.querySelector("[autofocus]");
    if (!elsewhere) messages.focus({ preventScroll: true });
    window.setTimeout(announce, 500, messages.textContent);
  });
})();

// The bookmarklet's own page: this site's Content-Security-Policy blocks javascript: links, so
// a click on the bookmarklet here would do nothing. It brings the install explanation forward
// instead. A readonly address to copy is selected whole when it gets focus.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#bookmarklet");
    var help = document.getElementById("bookmarklet-help");
    if (!link || !help) return;
    event.preventDefault();
    help.classList.add("is-called");
    help.focus();
    var region = document.getElementById("live-status");
    if (region) region.textContent = "Drag the button to your bookmarks bar, then click it there.";
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.copy-field[readonly]")) {
      event.target.select();
    }
  });
})();
