import type { FastifyHelmetOptions } from '@fastify/helmet';

/**
 * The Content-Security-Policy of every answer (issue #28). The console's session token lives in a cookie its own
 * script reads (spec §9 Admin-Token, sent as X-Token), so what keeps a future injection from reading it is that no
 * script but the console's own files may run: no inline script, no eval, no plugin, and no foreign page may frame it.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  // Vite's build is external module files only (apps/web/dist/index.html has no inline script); no eval in the bundles.
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  // antd's css-in-js and ECharts insert <style> elements at run time, and Leaflet and antd write style attributes.
  // A nonce would need index.html rewritten for every answer (it is a static, precompressed, cached file) and would
  // still not cover style attributes, so styles keep 'unsafe-inline': a style cannot run script, and the script
  // rules above are what guard the token.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Our API's pictures (faces, captures, floor plans), data:/blob: previews of a picture being uploaded, and the tiles
  // of a site's tile map, whose server the administrator names (any http(s) host: docs/api-sites.md).
  imgSrc: ["'self'", 'data:', 'blob:', 'http:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  // fetches and the live stream (server-sent events) go to this origin only
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // LAN deployments serve plain http: upgrading their requests to https would break the console.
  upgradeInsecureRequests: null,
};

/** @fastify/helmet: the CSP above, nosniff, no framing (X-Frame-Options DENY for older browsers), no referrer. */
export const SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  // The visitor's one-time link carries its token in the path: it never leaves in a Referer.
  referrerPolicy: { policy: 'no-referrer' },
  // The server speaks plain http; HTTPS ends at the proxy, which sends HSTS itself (docs/nginx-faceadmin.conf): a second
  // header here would only duplicate it, and a LAN deployment has no https to hold to.
  strictTransportSecurity: false,
};
