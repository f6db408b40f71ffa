// The sign-up form sends the browser's time zone (an IANA name such as "Europe/Berlin"), so a new
// reader's sessions show in their own zone. Without JavaScript the field stays empty and the
// profile keeps UTC until the reader changes it.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var zone = "";
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return;
    }
    document.querySelectorAll("input[data-browser-time-zone]").forEach(function (field) {
      field.value = zone;
    });
  });
})();
