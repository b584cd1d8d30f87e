import { describe, expect, it } from "vitest";
import { clientAddress, PEER_ADDRESS_HEADER, trustedProxies } from "./client-address";

const headers = (peer: string, forwarded?: string) => new Headers({ [PEER_ADDRESS_HEADER]: peer, ...(forwarded ? { "x-forwarded-for": forwarded } : {}) });

describe("clientAddress", () => {
  const proxies = trustedProxies("127.0.0.2, 10.0.0.0/8, ::1");

  it("is the connection's address when it is no declared proxy, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers("127.0.0.3", "203.0.113.9"), proxies)).toBe("127.0.0.3");
    expect(clientAddress(headers("::ffff:198.51.100.4", "203.0.113.9"), proxies)).toBe("198.51.100.4");
  });

  it("behind declared proxies, is the last address X-Forwarded-For names that is not one of them", () => {
    expect(clientAddress(headers("127.0.0.2", "203.0.113.9"), proxies)).toBe("203.0.113.9");
    expect(clientAddress(headers("::ffff:127.0.0.2", "198.51.100.1, 203.0.113.9, 10.1.2.3"), proxies)).toBe("203.0.113.9");
    expect(clientAddress(headers("::1", "2001:db8::1"), proxies)).toBe("2001:db8::1");
    expect(clientAddress(headers("127.0.0.2"), proxies)).toBe("127.0.0.2");
  });

  it("reads next-auth's plain header objects too, and says unknown without a stamped peer", () => {
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: "127.0.0.2", "x-forwarded-for": "203.0.113.7" }, proxies)).toBe("203.0.113.7");
    expect(clientAddress({ "x-forwarded-for": "203.0.113.7" }, proxies)).toBe("unknown");
  });

  it("refuses a PREHEAT_TRUSTED_PROXIES entry that is no address or range, naming the variable", () => {
    expect(() => trustedProxies("127.0.0.1, nginx")).toThrow(/PREHEAT_TRUSTED_PROXIES: "nginx" is not an IP address or CIDR range/);
    expect(() => trustedProxies("10.0.0.0/33")).toThrow(/PREHEAT_TRUSTED_PROXIES/);
  });
});
