import { describe, expect, it } from "vitest";
import { judgeOutboundUrl, outboundPolicy, PUBLIC_ONLY } from "../../shared/net/outbound-address";

const LOCAL_DEV = outboundPolicy({ OUTBOUND_ALLOW_LOOPBACK: "true" });

/** Addresses no deployment may call, whatever its policy. */
const NEVER = [
  "https://10.0.0.1/",
  "https://172.16.5.4/",
  "https://192.168.1.1/",
  "https://169.254.169.254/latest/meta-data/",
  "https://100.64.0.1/",
  "https://0.0.0.0/",
  "https://0/",
  "https://255.255.255.255/",
  "https://224.0.0.1/",
  "https://[::ffff:10.0.0.1]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[::10.0.0.1]/",
  "https://[64:ff9b::a00:1]/",
  "https://[2002:a00:1::]/",
  "https://[fd00::1]/",
  "https://[fc00::1]/",
  "https://[fe80::1]/",
  "https://[::]/",
  "https://[ff02::1]/",
  "https://[2001:db8::1]/",
  "https://metadata.google.internal/",
  "https://printer.local/",
  "https://router.home.arpa/",
  "https://metadata/",
  "https://0x0a.0.0.1/",
  "https://167772161/",
  // Empty labels (found by a black-box run: `192.168.1.1..` passed as a "name").
  "https://192.168.1.1../",
  "https://10.0.0.1.../",
  "https://example.com../",
  "https://a..example.com/",
];

describe("outbound address policy", () => {
  it.each(NEVER)("refuses %s in production and in local development", (url) => {
    expect(judgeOutboundUrl(url, PUBLIC_ONLY).ok).toBe(false);
    expect(judgeOutboundUrl(url, LOCAL_DEV).ok).toBe(false);
  });

  it.each(["https://127.0.0.1:8790/", "http://127.0.0.1:8790/", "https://[::1]/", "http://localhost/", "https://localhost./", "http://demo.localhost:8787/", "https://127.1/", "https://2130706433/"])(
    "refuses loopback %s in production, allows it in local development",
    (url) => {
      expect(judgeOutboundUrl(url, PUBLIC_ONLY).ok).toBe(false);
      expect(judgeOutboundUrl(url, LOCAL_DEV).ok).toBe(true);
    },
  );

  it("allows public https hosts and refuses plain http to them", () => {
    for (const url of ["https://hooks.example.com/x", "https://93.184.215.14/", "https://[2606:4700::1111]/"]) expect(judgeOutboundUrl(url, PUBLIC_ONLY)).toMatchObject({ ok: true });
    expect(judgeOutboundUrl("http://hooks.example.com/x", PUBLIC_ONLY).ok).toBe(false);
    expect(judgeOutboundUrl("ftp://hooks.example.com/x", LOCAL_DEV).ok).toBe(false);
    expect(judgeOutboundUrl("https://user:pw@hooks.example.com/", PUBLIC_ONLY).ok).toBe(false);
    expect(judgeOutboundUrl("not a url", PUBLIC_ONLY).ok).toBe(false);
  });

  it("turns loopback on only for the exact value true", () => {
    expect(outboundPolicy({}).allowLoopback).toBe(false);
    expect(outboundPolicy({ OUTBOUND_ALLOW_LOOPBACK: "1" }).allowLoopback).toBe(false);
    expect(outboundPolicy({ OUTBOUND_ALLOW_LOOPBACK: "true" }).allowLoopback).toBe(true);
  });
});
