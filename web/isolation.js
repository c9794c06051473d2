// Cross-origin isolation for static hosts that cannot send the two headers (GitHub Pages and the
// like). As a page script, ensureCrossOriginIsolation(say) registers this same file as a service
// worker and reloads once it controls the page; as the service worker, it copies every response
// of this site with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
// require-corp added, and keeps them for reloading with no network. Service workers need a secure
// context (https, or http on 127.0.0.1).
if (typeof window === 'undefined') {
  self.addEventListener('install', () => self.skipWaiting());
  self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
  // A copy of `response` with the two headers added.
  const isolated = (response) => {
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    return new Response(response.body,
                        {status: response.status, statusText: response.statusText, headers});
  };
  // The network first; its answers are kept, so the page also reloads with no network.
  self.addEventListener('fetch', (event) => {
    const request = event.request;
    if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
    event.respondWith(fetch(request).then((response) => {
      if (response.status === 0) return response;  // opaque: cannot be copied
      const copy = isolated(response);
      if (request.method === 'GET' && response.ok) {
        const kept = copy.clone();
        caches.open('attnlab').then((cache) => cache.put(request, kept));
      }
      return copy;
    }).catch(() => caches.match(request).then((kept) => kept || Response.error())));
  });
} else {
  const workerScript = document.currentScript.src;  // this file, as the page loaded it
  window.ensureCrossOriginIsolation = (say) => {
    const why = 'Attention Lab computes on several threads, which browsers allow only on a ' +
                'cross-origin-isolated page. ';
    if (!window.isSecureContext || !navigator.serviceWorker) {
      say(why + 'This page is not served over https (or from 127.0.0.1), so it cannot be made ' +
          'isolated here: serve it with ./setup.sh web, or from an https host.', true);
      return;
    }
    if (sessionStorage.getItem('attnlab-isolation-reload')) {
      sessionStorage.removeItem('attnlab-isolation-reload');
      say(why + 'The service worker that makes it so did not take effect (is it blocked?). ' +
          'Serve the page with the headers Cross-Origin-Opener-Policy: same-origin and ' +
          'Cross-Origin-Embedder-Policy: require-corp.', true);
      return;
    }
    say('Preparing the page (one reload)…');
    navigator.serviceWorker.register(workerScript)
      .then(() => navigator.serviceWorker.ready)
      .then(() => {
        sessionStorage.setItem('attnlab-isolation-reload', '1');
        location.reload();
      })
      .catch((error) => say(why + 'Registering its service worker failed: ' + error, true));
  };
}
