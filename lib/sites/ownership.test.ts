import { describe, expect, it } from "vitest";
import { headHasTokenMeta } from "./ownership";

const token = "preheat-0123456789abcdef";

describe("headHasTokenMeta", () => {
  it.each([
    `<html><head><meta name="service-token" content="${token}"></head></html>`,
    `<HTML><HEAD><META CONTENT="${token}" NAME="SERVICE-TOKEN"></HEAD></HTML>`,
    `<head><meta name='service-token' content='${token}' /></head>`,
    `<meta charset=utf-8><meta name=service-token content=${token}><title>t</title>`,
    `<head><!-- <meta name="x"> --><meta name="service-token" content=" ${token} "></head>`,
  ])("finds the tag in %s", (html) => {
    expect(headHasTokenMeta(html, token)).toBe(true);
  });

  it.each([
    `<head><meta name="service-token" content="other"></head>`,
    `<head><meta property="service-token" content="${token}"></head>`,
    `<head></head><body><meta name="service-token" content="${token}"></body>`,
    `<head><!-- <meta name="service-token" content="${token}"> --></head>`,
    `<head><script>document.write('<meta name="service-token" content="${token}">')</script></head>`,
    // Where a page that repeats what it was asked could put it: after text or an element that starts the body.
    `<head><title>Search</title></head>You searched for <meta name="service-token" content="${token}">`,
    `<title>x</title><p>Results for</p><meta name="service-token" content="${token}">`,
    `<head><template><meta name="service-token" content="${token}"></template></head>`,
    `<head><noscript><meta name="service-token" content="${token}"></noscript></head>`,
  ])("does not find it in %s", (html) => {
    expect(headHasTokenMeta(html, token)).toBe(false);
  });
});
