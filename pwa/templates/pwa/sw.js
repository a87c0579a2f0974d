{% autoescape off %}// The site's service worker, served by pwa/views.py at /sw.js so that its scope is the
// whole site (docs/pwa.md). What it keeps:
// - the static files and the offline pages, in a cache named after the static files'
//   digest: any changed file gives a new worker, which drops the old cache;
// - the pages the server marks readable offline (the header below, pwa/offline.py's
//   allow-list: the lobby, the rules, the lesson), the last copy seen of each.
// Nothing else is ever stored: a match page, which holds a hand, is not on the list.
"use strict";

const VERSION = "{{ version }}";
const SHELL = {{ shell }};
const OFFLINE_PAGES = {{ offline_pages }};
const DEFAULT_LANGUAGE = {{ default_language }};
const STATIC_PREFIX = {{ static_prefix }};
const OFFLINE_HEADER = {{ offline_header }};
const STATIC_CACHE = "static-" + VERSION;
// Pages outlive a new version of the static files: the last lobby seen stays readable.
const PAGES_CACHE = "pages";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) { return cache.addAll(SHELL.concat(Object.values(OFFLINE_PAGES))); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.startsWith("static-") && name !== STATIC_CACHE;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function languageOf(url) {
  const first = url.pathname.split("/")[1];
  return Object.prototype.hasOwnProperty.call(OFFLINE_PAGES, first) ? first : DEFAULT_LANGUAGE;
}

function fromCacheFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function page(request) {
  return fetch(request).then(function (response) {
    if (response.ok && response.headers.get(OFFLINE_HEADER)) {
      const copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) { return cache.put(request.url, copy); });
    }
    return response;
  }, function () {
    // No network: the last copy of a page kept for reading, else the offline page.
    return caches.open(PAGES_CACHE)
      .then(function (cache) { return cache.match(request.url, { ignoreVary: true }); })
      .then(function (kept) {
        return kept || caches.match(OFFLINE_PAGES[languageOf(new URL(request.url))], { cacheName: STATIC_CACHE });
      })
      .then(function (answer) { return answer || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Logging in or out (or signing up) changes whose name the kept pages' header shows:
    // they are forgotten, so the next person on this device never reads them.
    if (url.pathname.indexOf("/accounts/") >= 0) event.waitUntil(caches.delete(PAGES_CACHE));
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});

// Web Push (push/, docs/push.md): the payload is a title, a line and the page to open.
self.addEventListener("push", function (event) {
  if (!event.data) return;
  const message = event.data.json();
  event.waitUntil(self.registration.showNotification(message.title, {
    body: message.body, tag: message.tag, lang: message.lang, data: { url: message.url },
    icon: {{ notification_icon }},
  }));
});

// A tap opens the notification's page in a window of the site that is open, else a new one.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const target = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    const same = windows.find(function (client) { return client.url === target; });
    if (same) return same.focus();
    const ours = windows.find(function (client) { return new URL(client.url).origin === self.location.origin; });
    if (ours) {
      // navigate() works only in a window this worker controls; any other gets a new window.
      return ours.focus().then(function (client) { return client.navigate(target); })
        .catch(function () { return self.clients.openWindow(target); });
    }
    return self.clients.openWindow(target);
  }));
});
{% endautoescape %}
