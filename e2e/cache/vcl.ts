/**
 * Caches keyed as real sites key them, written as Varnish configuration. Each profile keys on the
 * URL, the host and the visitor's device class (desktop, mobile, bot: what sites that serve other
 * HTML to phones and crawlers hash on), plus what the profile is about. Every answer is cached an
 * hour; `X-Cache` says whether a visitor got it from the cache.
 */
export type CacheProfile = { kind: "languages" } | { kind: "currency" } | { kind: "encodings" } | { kind: "staging"; authorization: string } | { kind: "firewall"; verification: string };

const DEVICE = `
  set req.http.X-Device = "desktop";
  if (req.http.User-Agent ~ "(?i)bot|crawler|spider") {
    set req.http.X-Device = "bot";
  } elsif (req.http.User-Agent ~ "(?i)iphone|android.*mobile") {
    set req.http.X-Device = "mobile";
  }`;

/** What each profile does to a request before the cache looks it up. */
function recv(profile: CacheProfile): string {
  switch (profile.kind) {
    case "languages":
      // The origin answers Vary: Accept-Language; the header is cut to its first language, as
      // sites do so that "fr-FR,fr;q=0.9" and "fr-CH,fr" share one copy.
      return `
  if (req.http.Accept-Language ~ "^[a-zA-Z]{2}") {
    set req.http.Accept-Language = std.tolower(regsub(req.http.Accept-Language, "^([a-zA-Z]{2}).*$", "\\1"));
  } else {
    set req.http.Accept-Language = "en";
  }
  unset req.http.Accept-Encoding;`;
    case "currency":
      // A shop that prices in the visitor's currency: the currency cookie is in the cache key
      // (EUR without one); every other cookie is ignored.
      return `
  if (req.http.Cookie ~ "(^|;\\s*)currency=[A-Z]{3}") {
    set req.http.X-Currency = regsub(req.http.Cookie, "^(.*;\\s*)?currency=([A-Z]{3}).*$", "\\2");
  } else {
    set req.http.X-Currency = "EUR";
  }
  unset req.http.Cookie;
  unset req.http.Accept-Language;
  unset req.http.Accept-Encoding;`;
    case "encodings":
      // The origin answers Vary: Accept-Encoding; the header is cut to the best encoding the
      // visitor accepts, so one copy per encoding (none for a client that asks for none).
      return `
  if (req.http.Accept-Encoding ~ "zstd") {
    set req.http.Accept-Encoding = "zstd";
  } elsif (req.http.Accept-Encoding ~ "br") {
    set req.http.Accept-Encoding = "br";
  } elsif (req.http.Accept-Encoding ~ "gzip") {
    set req.http.Accept-Encoding = "gzip";
  } else {
    unset req.http.Accept-Encoding;
  }
  unset req.http.Accept-Language;`;
    case "staging":
      // A staging site behind Basic auth that still caches for its testers. The ownership file
      // is let through without a password, as owners do for verification files.
      return `
  if (req.url ~ "^/preheat-[0-9a-f]+\\.html$") {
    return (pass);
  }
  if (req.http.Authorization != "${profile.authorization}") {
    return (synth(401, "Authentication required"));
  }
  unset req.http.Authorization;
  unset req.http.Accept-Language;
  unset req.http.Accept-Encoding;`;
    case "firewall":
      // Bot protection in front of the cache: a request claiming to be a crawler is challenged
      // unless it comes from the crawler's own network (127.0.0.3 plays Google's and OpenAI's
      // verified ranges) or carries the site's Preheat-Verification secret.
      return `
  if (req.http.User-Agent ~ "(?i)googlebot|gptbot" && client.ip !~ verified_crawlers && req.http.Preheat-Verification != "${profile.verification}") {
    return (synth(403, "Just a moment..."));
  }
  unset req.http.Preheat-Verification;
  unset req.http.Accept-Language;
  unset req.http.Accept-Encoding;`;
  }
}

export function vclFor(profile: CacheProfile, originPort: number): string {
  return `vcl 4.1;
import std;

backend origin {
  .host = "127.0.0.1";
  .port = "${originPort}";
}

${profile.kind === "firewall" ? 'acl verified_crawlers {\n  "127.0.0.3";\n}\n' : ""}
sub vcl_recv {
  ${DEVICE}
  ${recv(profile)}
  return (hash);
}

sub vcl_hash {
  hash_data(req.url);
  hash_data(req.http.host);
  hash_data(req.http.X-Device);
  ${profile.kind === "currency" ? "hash_data(req.http.X-Currency);" : ""}
  return (lookup);
}

sub vcl_backend_response {
  unset beresp.http.Set-Cookie;
  set beresp.ttl = 1h;
  set beresp.grace = 0s;
  return (deliver);
}

sub vcl_synth {
  if (resp.status == 403) {
    set resp.http.cf-mitigated = "challenge";
    set resp.http.Content-Type = "text/html";
    synthetic("<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>");
    return (deliver);
  }
  if (resp.status == 401) {
    set resp.http.WWW-Authenticate = {"Basic realm="staging""};
  }
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
`;
}
