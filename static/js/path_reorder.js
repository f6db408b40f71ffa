// Reordering a path's steps by dragging a handle, or from the keyboard (Alt+ArrowUp /
// Alt+ArrowDown on a handle). Without JavaScript the up/down buttons beside each step do the
// same through plain forms; this file only adds the handles and posts the step's new place.
(function () {
  "use strict";

  function region() {
    return document.getElementById("steps-region");
  }

  function token(root) {
    var field = root.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function stepId(item) {
    return item.id.replace(/^step-/, "");
  }

  function steps(root) {
    return Array.prototype.slice.call(root.querySelectorAll("li.path-item"));
  }

  function announce(root, text) {
    var live = document.getElementById("reorder-status");
    if (!live) {
      live = document.createElement("p");
      live.id = "reorder-status";
      live.className = "visually-hidden";
      live.setAttribute("role", "status");
      root.parentNode.insertBefore(live, root);
    }
    live.textContent = text;
  }

  function send(root, moving, place) {
    var address = root.dataset.reorder.replace(/\/0\/move\/$/, "/" + moving + "/move/");
    var body = new URLSearchParams();
    body.set("place", String(place));
    return fetch(address, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": token(root), "HX-Request": "true" },
      body: body,
    }).then(function (response) {
      if (!response.ok) {
        throw new Error("move failed");
      }
      return response.text();
    }).then(function (html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var fresh = holder.querySelector("#steps-region");
      if (!fresh) {
        throw new Error("no steps in the answer");
      }
      root.replaceWith(fresh);
      if (window.htmx) {
        window.htmx.process(fresh);
      }
      enhance(fresh);
      var moved = document.getElementById("step-" + moving);
      var handle = moved && moved.querySelector(".drag-handle");
      if (handle) {
        handle.focus();
      }
      var title = moved ? moved.querySelector(".step-title").textContent : "The step";
      announce(fresh, title + " is now step " + (moved ? moved.dataset.place : place) + ".");
    }).catch(function () {
      announce(root, "The step could not be moved; the page shows the path as it was saved.");
    });
  }

  function handleFor(root, item) {
    var title = item.querySelector(".step-title").textContent;
    var handle = document.createElement("button");
    handle.type = "button";
    handle.className = "drag-handle";
    handle.draggable = true;
    handle.textContent = "⠿";
    handle.setAttribute("aria-label", "Reorder “" + title + "”: Alt+Up or Alt+Down");
    handle.addEventListener("keydown", function (event) {
      if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) {
        return;
      }
      event.preventDefault();
      var place = Number(item.dataset.place) + (event.key === "ArrowUp" ? -1 : 1);
      if (place < 1 || place > steps(root).length) {
        return;
      }
      send(root, stepId(item), place);
    });
    handle.addEventListener("dragstart", function (event) {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", stepId(item));
      item.classList.add("is-dragging");
    });
    handle.addEventListener("dragend", function () {
      item.classList.remove("is-dragging");
    });
    return handle;
  }

  function enhance(root) {
    if (!root || !root.dataset.reorder || root.dataset.enhanced) {
      return;
    }
    root.dataset.enhanced = "true";
    var help = root.querySelector(".reorder-help");
    if (help) {
      help.hidden = false;
    }
    steps(root).forEach(function (item) {
      item.insertBefore(handleFor(root, item), item.firstChild);
      item.addEventListener("dragover", function (event) {
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
      });
      item.addEventListener("drop", function (event) {
        event.preventDefault();
        var dragged = event.dataTransfer.getData("text/plain");
        if (dragged && dragged !== stepId(item)) {
          send(root, dragged, Number(item.dataset.place));
        }
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    enhance(region());
  });
  // After an htmx swap of the steps (a button pressed), the new steps need their handles.
  document.addEventListener("htmx:afterSwap", function () {
    enhance(region());
  });
})();
