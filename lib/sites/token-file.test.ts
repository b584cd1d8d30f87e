import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/testing/ports";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { checkOwnership } from "./ownership";

// The token file on sites that answer 200 for every path and repeat the address asked in the page
// (a soft 404, a search page): the file proves ownership when its whole body is the token, as
// Google's verification file must be, and the control request (a random missing file) tells such a
// file from a page that merely repeats its address. Against a local origin.

const token = "preheat-0123456789abcdef0123456789abcdef";

/** How each host answers: `real` is the token file the owner published, `echo` the site's page for any other path. */
const sites: Record<string, { real?: string; echo: (path: string) => string }> = {
  "soft404.test": { real: token, echo: (path) => `<html><body>Nothing at ${path}. Try the search.</body></html>` },
  "soft404-newline.test": { real: `\n  ${token}\r\n`, echo: (path) => `<html><body>Nothing at ${path}.</body></html>` },
  "echo-only.test": { echo: (path) => `<html><body>Nothing at ${path}. Try the search.</body></html>` },
  "echo-token-text.test": { echo: (path) => `You searched for ${path.slice(1)}` },
  "echo-stem.test": { echo: (path) => path.slice(1).replace(/\.html$/, "") },
  "real-with-more.test": { real: `${token}\n<!-- footer -->`, echo: (path) => `<html><body>Nothing at ${path}.</body></html>` },
};

let world: LocalWorld;

beforeAll(async () => {
  world = await startLocalWorld(
    (req, res) => {
      const site = sites[(req.headers.host ?? "").replace(/:\d+$/, "")];
      if (!site) return void res.writeHead(404).end("no such site");
      if (site.real !== undefined && req.url === `/${token}.html`) return void res.writeHead(200, { "content-type": "text/html" }).end(site.real);
      res.writeHead(200, { "content-type": "text/html" }).end(site.echo(req.url ?? "/"));
    },
    { email: "token-file@example.com" },
  );
  // HTTPS is refused at once, as on many small sites: only HTTP answers.
  process.env.PREHEAT_CONNECT_TO = `${process.env.PREHEAT_CONNECT_TO},:443:127.0.0.1:${await freePort()}`;
}, 60_000);
afterAll(async () => world?.stop());

describe("the token file on a site that answers 200 for every path", () => {
  it("proves ownership when the file's whole body is the token, though the control answers 200 and repeats its address", async () => {
    expect(await checkOwnership("soft404.test", token)).toEqual({ proof: { method: "html_file", url: `http://soft404.test/${token}.html` } });
  });

  it("trims the whitespace around the token", async () => {
    expect(await checkOwnership("soft404-newline.test", token)).toMatchObject({ proof: { method: "html_file" } });
  });

  it("does not take a page that repeats the address (and so holds the token) for the file", async () => {
    for (const domain of ["echo-only.test", "echo-token-text.test"]) {
      const check = await checkOwnership(domain, token);
      expect(check, domain).toHaveProperty("problem");
      expect((check as { problem: string }).problem).toContain(
        `Token file: the site answers 200 for files that do not exist and repeats their address in the page, so only a file whose whole content is the token proves ownership there, and /${token}.html holds more`,
      );
    }
  });

  it("does not take a site that answers any file with its bare name for one that published the token", async () => {
    const check = await checkOwnership("echo-stem.test", token);
    expect((check as { problem: string }).problem).toContain("Token file: the site answers any file that does not exist with its own name, so the token file proves nothing");
  });

  it("does not take a file that holds more than the token there", async () => {
    expect(await checkOwnership("real-with-more.test", token)).toHaveProperty("problem");
  });
});
