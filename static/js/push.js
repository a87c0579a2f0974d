/* The notifications page (push/templates/push/devices.html, docs/push.md): "Notify me" asks
   the browser for permission and a push subscription, only when tapped, and sends the
   subscription to the site; the page then lists the device. */
(function () {
  "use strict";

  function keyBytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, function (c) { return c.charCodeAt(0); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector(".push-subscribe");
    if (!box) return;
    var button = box.querySelector(".push-notify-me");
    var status = box.querySelector(".push-status");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      box.querySelector(".push-unsupported").hidden = false;
      return;
    }
    if (Notification.permission === "denied") {
      box.querySelector(".push-denied").hidden = false;
      return;
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      Notification.requestPermission()
        .then(function (permission) {
          if (permission !== "granted") throw new Error("denied");
          return navigator.serviceWorker.ready;
        })
        .then(function (registration) {
          return registration.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: keyBytes(box.getAttribute("data-key")),
          });
        })
        .then(function (subscription) {
          var token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
          return fetch(box.getAttribute("data-url"), {
            method: "POST", credentials: "same-origin", body: JSON.stringify(subscription),
            headers: { "Content-Type": "application/json", "X-CSRFToken": token },
          });
        })
        .then(function (answer) {
          if (!answer.ok) throw new Error("refused");
          window.location.reload();
        })
        .catch(function (error) {
          button.disabled = false;
          box.querySelector(".push-denied").hidden = error.message !== "denied";
          status.textContent = error.message === "denied" ? "" : String(error.message || error);
        });
    });
  });
})();
