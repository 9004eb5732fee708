// The scoring page's service worker (served at /sw.js by matches.views_offline, which
// puts CONFIG above this text: the static URLs to keep and a version).
// - The page shell (styles, scripts, icons) is kept at install.
// - A scoring page is fetched from the network first and kept; with no network the
//   last copy kept opens instead (the hands waiting to be sent come from IndexedDB).
// - The engine (Pyodide and the engine bundle) is fetched by the page after it is
//   usable, and kept the first time it passes through here; later it comes from here.
// Everything else is left to the network.
/* global CONFIG */
"use strict";

const SHELL = `kelipatan-shell-${CONFIG.version}`;
const PAGES = "kelipatan-pages";
const SCORING = /^\/(?:[a-z]{2}\/)?matches\/\d+\/(?:score|hands\/\d+\/edit)\/$/;
const DEVICE = /^\/(?:[a-z]{2}\/)?matches\/\d+\/(?:device|manifest\.webmanifest)/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(CONFIG.shell))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("kelipatan-shell-") && name !== SHELL)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

function isEngine(url) {
  return CONFIG.engine.includes(url.pathname) || url.pathname === CONFIG.bundle;
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request, { ignoreSearch: request.url.includes(CONFIG.bundle) });
  if (kept) {
    return kept;
  }
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected) {
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) {
      return kept;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (isEngine(url) || CONFIG.shell.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && SCORING.test(url.pathname)) {
    event.respondWith(networkFirst(request, PAGES));
  } else if (DEVICE.test(url.pathname)) {
    event.respondWith(networkFirst(request, PAGES));
  }
});

// The page asks to keep its current copy (after htmx changed it in place).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "keep-page" && typeof data.url === "string") {
    const url = new URL(data.url, self.location.origin);
    if (url.origin === self.location.origin && SCORING.test(url.pathname)) {
      event.waitUntil(
        caches.open(PAGES).then((cache) =>
          fetch(url, { credentials: "same-origin" }).then((response) =>
            response.ok && !response.redirected ? cache.put(url, response) : undefined,
          ),
        ),
      );
    }
  }
});
