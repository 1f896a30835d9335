// The user's rules for acting on sites, read by the browser's own URL parser, for the settings
// page to show how each line was read. Python reads the same text for the turn
// (py/tabagent/app/site_rules.py, which says what a rule means) and follows the same standard;
// tests/unit/test_site_rules.py checks that both readings agree, line by line.

export const RULES = ["ask", "allow", "never"];
const DEFAULT_PORTS = { http: 80, https: 443 };
const SITE = /^[^/\\?#@\s]+\/?$/; // after "scheme://": a host, perhaps a port, perhaps a final "/"
// This computer's own names reach the same servers: one host to a rule (site_rules.py LOOPBACK).
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

// A host and port as written, parsed as a web address: { host, port } (port "" when none is
// written), or null. The scheme's own port vanishes from the parsed address, so both schemes
// are tried: "x:80" keeps its port under https, "x:443" under http.
function hostAndPort(site, scheme) {
  const parse = (prefix) => {
    try {
      const url = new URL(`${prefix}://${site}`);
      return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password ? url : null;
    } catch {
      return null;
    }
  };
  const [http, https] = [parse("http"), parse("https")];
  if (!http || !https) return null;
  const written = http.hostname.replace(/\.+$/, "");
  if (!written) return null;
  const host = LOOPBACK.has(written) ? "localhost" : written;
  if (scheme) return { host, port: Number(parse(scheme).port || DEFAULT_PORTS[scheme]) };
  return { host, port: http.port || https.port ? Number(http.port || https.port) : null };
}

// One line as { scheme, host, port, subdomains, rule }, or null when it cannot be read.
export function readRule(line) {
  const text = line.trim();
  const colon = text.lastIndexOf(":");
  const rule = text.slice(colon + 1).trim().toLowerCase();
  let site = text.slice(0, Math.max(colon, 0)).trim();
  if (colon < 0 || !RULES.includes(rule)) return null;
  let scheme = null;
  if (site.includes("://")) {
    [scheme, site] = [site.slice(0, site.indexOf("://")).toLowerCase(), site.slice(site.indexOf("://") + 3)];
    if (!Object.hasOwn(DEFAULT_PORTS, scheme)) return null;
  }
  const subdomains = scheme === null || site.startsWith("*.");
  if (site.startsWith("*.")) site = site.slice(2);
  if (!SITE.test(site)) return null;
  const read = hostAndPort(site.replace(/\/$/, ""), scheme);
  return read && { scheme, host: read.host, port: read.port, subdomains, rule };
}

// Every line that is not blank or a comment: { line, rule } (rule null: not read).
export function readSiteRules(text) {
  return String(text ?? "")
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() && !line.trim().startsWith("#"))
    .map((line) => ({ line: line.trim(), rule: readRule(line) }));
}
