import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { privateKeyToAddress } from "viem/accounts";
import type { Address, Hex, PlaceOrderRequest } from "../../src/core/types.js";
import { buildMockContext } from "../../src/mock/build-context.js";
import { listenHttp } from "../../src/mock/http/listen.js";
import { OrderSignatureChecker } from "../../src/mock/http/order-signature.js";
import { httpRoutes } from "../../src/mock/http/routes/index.js";
import { defaultScenarioPath, loadScenario, validateScenario } from "../../src/mock/scenario/load.js";
import type { Scenario } from "../../src/mock/scenario/types.js";
import { orderDomain } from "../../src/signing/domain.js";
import { type BuiltOrder, OrderBuilder } from "../../src/signing/order-builder.js";
import { buildOrderStruct } from "../../src/signing/order-struct.js";
import { PrivateKeySigner } from "../../src/signing/private-key-signer.js";
import { recoverOrderSigner } from "../../src/signing/recover.js";
import type { BenchCase } from "./harness.js";

export const title = "Mock exchange: signed placements over loopback HTTP (server pinned to one core)";

const WALLETS = 50;
const CONCURRENCY = 32;
const SERVER_ENV = "MM_BENCH_MOCK_SERVER";
/** Pinned core of the server child; the bench process should run elsewhere (taskset -c 1 npm run bench …). */
const SERVER_CORE = process.env.MM_BENCH_SERVER_CORE ?? "0";
const API_KEY = `mm_test_b0b0b0b0b0b0b0b0_${createHash("sha256").update("mm-bench-key").digest("base64url").slice(0, 43)}`;

/** 50 KYC'd wallets of one multi_wallet partner, funded in USDC and every OPEN market's shares. */
function benchScenario(): Scenario {
  const base = loadScenario(defaultScenarioPath());
  const markets = base.markets.filter((m) => m.status === "OPEN");
  const shares = Object.fromEntries(
    markets.flatMap((m) => [m.yesTokenId, m.noTokenId]).map((t) => [t, "1000000"]),
  );
  const wallets = benchKeys().map((privateKey) => ({
    address: privateKeyToAddress(privateKey).toLowerCase() as Address,
    privateKey,
    kycTier: 1,
    banned: false,
    usdc: "10000000",
    shares,
  }));
  return validateScenario({
    ...base,
    flow: { ...base.flow, enabled: false },
    // Operators lift place/cancel ceilings 10–50× for market makers (spec, Retry guidance 4).
    partners: [
      {
        id: "bench",
        name: "Bench",
        kind: "multi_wallet",
        requirePerWalletKyc: true,
        status: "active",
        rateLimitPerMin: 6000,
      },
    ],
    apiKeys: [
      {
        key: API_KEY,
        partnerId: "bench",
        scopes: ["orders:read", "orders:write"],
        ipAllowlist: [],
        revoked: false,
      },
    ],
    wallets,
    markets,
  });
}

function benchKeys(): Hex[] {
  return Array.from(
    { length: WALLETS },
    (_, i) => `0x${createHash("sha256").update(`mm-bench-wallet-${i}`).digest("hex")}` as Hex,
  );
}

/** Child-process mode: serve the bench scenario on 127.0.0.1 and print the URL. */
async function serve(): Promise<void> {
  const ctx = buildMockContext({ scenario: benchScenario() });
  const listener = await listenHttp(ctx, httpRoutes(ctx));
  process.stdout.write(`${JSON.stringify({ url: listener.url })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => void listener.close().then(() => process.exit(0)));
}

/** Pre-signed placement bodies, round-robin over wallets, crossing prices so a share of them fill. */
async function presign(scenario: Scenario, count: number): Promise<{ wallet: Address; body: string }[]> {
  const builders = scenario.wallets.map((w) => {
    const signer = new PrivateKeySigner(w.privateKey ?? "");
    const settings = { wallet: w.address, maker: "wallet" as const, signatureType: 0, defaultFeeRateBps: 0 };
    return { wallet: w.address, builder: new OrderBuilder({ settings, domain: scenario.eip712, signer }) };
  });
  const markets = scenario.markets.filter((m) => m.tickSize === "0.01");
  const out: { wallet: Address; body: string }[] = [];
  for (let i = 0; i < count; i++) {
    const b = builders[i % builders.length];
    const m = markets[Math.floor(i / builders.length) % markets.length];
    if (b === undefined || m === undefined) throw new Error("bench scenario has no wallets or markets");
    const buy = i % 2 === 0;
    const cents = buy ? 45 + (i % 11) : 50 + ((i >> 1) % 11);
    const built: BuiltOrder = await b.builder.build({
      market: {
        marketId: m.id,
        tokenId: m.yesTokenId,
        outcome: "YES",
        feeTakerBps: m.feeTakerBps,
        negRisk: m.negRisk,
        tickSize: m.tickSize,
      },
      side: buy ? "buy" : "sell",
      price: `0.${cents}`,
      quantity: String(1 + (i % 10)),
      expiry: 0,
      clientOrderId: `bench-${i}`,
    });
    out.push({ wallet: b.wallet, body: JSON.stringify(built.body satisfies PlaceOrderRequest) });
  }
  return out;
}

function startServer(): Promise<{ child: ChildProcess; url: string; pinned: boolean }> {
  const file = fileURLToPath(import.meta.url);
  const pinned = spawnSync("taskset", ["-c", SERVER_CORE, "true"]).status === 0;
  // MM_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server.
  const extra = (process.env.MM_BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
  const args = [...extra, "--import", "tsx", file];
  const child = pinned
    ? spawn("taskset", ["-c", SERVER_CORE, process.execPath, ...args], {
        env: { ...process.env, [SERVER_ENV]: "1" },
      })
    : spawn(process.execPath, args, { env: { ...process.env, [SERVER_ENV]: "1" } });
  child.stderr?.pipe(process.stderr);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) => {
      resolve({ child, url: (JSON.parse(line) as { url: string }).url, pinned });
    });
  });
}

/** Sends `n` requests, at most CONCURRENCY in flight, and checks each answer. */
async function fire(n: number, send: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await send(next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, worker));
}

function request(
  agent: http.Agent,
  url: URL,
  opts: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: opts.method,
        path: opts.path,
        headers: opts.headers,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

export async function benches(): Promise<BenchCase[]> {
  const seconds = Number(process.env.BENCH_SECONDS ?? "2");
  const scenario = benchScenario();
  // Enough signed orders for the warm-up and every timed batch at up to ~4,000/s, signed before timing.
  const orders = await presign(scenario, Math.ceil(4_000 * (seconds + 1)));
  const server = await startServer();
  console.log(
    `  server pid ${server.child.pid} ${server.pinned ? `pinned to core ${SERVER_CORE}` : "NOT pinned (no taskset)"}; ${orders.length} orders pre-signed`,
  );
  const url = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let placed = 0;
  let filled = 0;
  const place = async (i: number) => {
    const o = orders[placed++];
    if (o === undefined) throw new Error("out of pre-signed orders: raise the count in benches()");
    const res = await request(agent, url, {
      method: "POST",
      path: "/api/orders/place",
      body: o.body,
      headers: {
        "Content-Type": "application/json",
        "X-Api-Key": API_KEY,
        "X-User-Wallet": o.wallet,
        // Spread over 256 client IPs so the per-IP bucket (1000/min) is not what is measured.
        "X-Forwarded-For": `10.77.${(i >> 8) & 255}.${i & 255}`,
      },
    });
    const status = (JSON.parse(res.text) as { status?: string }).status;
    if (res.status !== 201 || status === "REJECTED")
      throw new Error(`placement answered ${res.status}: ${res.text.slice(0, 300)}`);
    if (status === "FILLED" || status === "PARTIAL") filled++;
  };
  const health = async () => {
    const res = await request(agent, url, { method: "GET", path: "/health" });
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  };
  // The same orders as the server rebuilds them, for the in-process cases.
  const rebuilt = orders.slice(0, 256).map((o) => rebuild(scenario, JSON.parse(o.body) as PlaceOrderRequest));
  const checker = new OrderSignatureChecker();
  let k = 0;
  return [
    { name: "GET /health round trip (baseline)", baseline: true, batch: 400, run: (n) => fire(n, health) },
    {
      name: "POST /api/orders/place, signed, 50 wallets",
      batch: 400,
      run: (n) => fire(n, place),
      teardown: () => console.log(`  placements sent: ${placed} (${filled} filled or partial)`),
    },
    {
      name: "in-process: signature check (cached wallet key)",
      batch: 200,
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          const r = rebuilt[k++ % rebuilt.length];
          if (r === undefined || !(await checker.recoversTo(r.struct, r.signature, r.domain, r.wallet)))
            throw new Error("check failed");
        }
      },
    },
    {
      name: "in-process: full recovery (recoverOrderSigner)",
      batch: 100,
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          const r = rebuilt[k++ % rebuilt.length];
          if (r === undefined || (await recoverOrderSigner(r.struct, r.signature, r.domain)) !== r.wallet)
            throw new Error("recovery failed");
        }
      },
      teardown: () => {
        agent.destroy();
        server.child.stdin?.end();
      },
    },
  ];
}

/** The canonical struct the server rebuilds from a placement body (maker = signer = the wallet). */
function rebuild(scenario: Scenario, b: PlaceOrderRequest) {
  const m = scenario.markets.find((x) => x.id === b.marketId);
  if (m === undefined) throw new Error("unknown market in a pre-signed order");
  const { struct } = buildOrderStruct({
    market: {
      marketId: m.id,
      tokenId: m.yesTokenId,
      outcome: "YES",
      feeTakerBps: m.feeTakerBps ?? 0,
      negRisk: m.negRisk,
      tickSize: m.tickSize,
    },
    side: b.side,
    price: b.price,
    quantity: b.quantity,
    expiry: b.expiry,
    salt: BigInt(b.nonce),
    maker: b.maker,
    signer: b.maker,
    signatureType: 0,
    defaultFeeRateBps: 0,
  });
  return { struct, signature: b.signature, domain: orderDomain(scenario.eip712, m.negRisk), wallet: b.maker };
}

if (process.env[SERVER_ENV] === "1") await serve();
