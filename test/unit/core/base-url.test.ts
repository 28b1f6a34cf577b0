import { describe, expect, it } from "vitest";
import { canonicalBaseUrl } from "../../../src/core/base-url.js";

describe("canonicalBaseUrl: one spelling of a base URL", () => {
  it("lowercases the scheme and host, drops the default port and trailing slashes", () => {
    for (const u of [
      "https://api.exchange.example",
      "HTTPS://API.Exchange.example",
      "https://api.exchange.example:443",
      "https://api.exchange.example///",
      " https://api.exchange.example/ ",
    ]) {
      expect(canonicalBaseUrl(u), u).toBe("https://api.exchange.example");
    }
    expect(canonicalBaseUrl("HTTP://127.0.0.1:80/")).toBe("http://127.0.0.1");
    expect(canonicalBaseUrl("WSS://WS.exchange.example:443/")).toBe("wss://ws.exchange.example");
    expect(canonicalBaseUrl("ws://127.0.0.1:80")).toBe("ws://127.0.0.1");
  });

  it("keeps another port, an IPv6 host and a path prefix (paths are case-sensitive)", () => {
    expect(canonicalBaseUrl("HTTP://127.0.0.1:18080/")).toBe("http://127.0.0.1:18080");
    expect(canonicalBaseUrl("https://api.exchange.example:8443")).toBe("https://api.exchange.example:8443");
    expect(canonicalBaseUrl("http://[::1]:80/")).toBe("http://[::1]");
    expect(canonicalBaseUrl("https://API.exchange.example:443/Prefix/v1/")).toBe(
      "https://api.exchange.example/Prefix/v1",
    );
  });

  it("leaves what is no base URL as written, only trimmed: nothing of it is dropped", () => {
    expect(canonicalBaseUrl("not a url/")).toBe("not a url");
    expect(canonicalBaseUrl("https://u:p@API.x")).toBe("https://u:p@API.x");
    expect(canonicalBaseUrl("https://API.x/?q=1")).toBe("https://API.x/?q=1");
  });
});
