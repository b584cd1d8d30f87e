/**
 * The beacon, minified by hand (docs/guide/site-owners/beacon.md explains it line by line): a few hundred bytes that
 * send one page view, or nothing when the visitor asks not to be tracked (Global Privacy Control, Do
 * Not Track). It sets no cookie and keeps nothing in storage. It reads the navigation's timing entry
 * (time to first byte, counted from the page's activation when it was prerendered, and the
 * Server-Timing entries its answer carried) and the device class (UA-CH's `mobile`, or a screen whose
 * shorter side is under 600 CSS px: mobile; a coarse primary pointer: tablet; otherwise desktop), and
 * posts them with `navigator.sendBeacon` to `/b` at the script's own origin as text/plain JSON, which
 * a browser sends without a preflight. Only the path is sent, never the query string or fragment.
 * A prerendered page that is never shown sends nothing.
 */
export const BEACON_SCRIPT =
  '!function(d,n,w){try{var s=d.currentScript,k=s&&s.dataset.site,e=performance.getEntriesByType("navigation")[0],u=n.userAgentData,m=Math.min(screen.width,screen.height);' +
  'if(!k||!e||n.globalPrivacyControl||n.doNotTrack=="1"||w.doNotTrack=="1")return;' +
  "var f=function(){var t=e.responseStart-(e.activationStart||0);" +
  'n.sendBeacon(new URL("/b",s.src).href,JSON.stringify({k:k,p:location.pathname,t:e.responseStart>0?Math.max(0,Math.round(t)):null,' +
  'd:u&&u.mobile||m<600?"m":w.matchMedia("(pointer:coarse)").matches?"t":"d",s:(e.serverTiming||[]).slice(0,32).map(function(x){return[x.name,x.description]})}))};' +
  'd.prerendering?d.addEventListener("prerenderingchange",f,{once:!0}):f()}catch(_){}}(document,navigator,window);\n';
