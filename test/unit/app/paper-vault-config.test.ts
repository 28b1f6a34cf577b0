import { describe, expect, it } from "vitest";
import { startPaperExchange } from "../../../src/app/paper.js";
import { createLogger } from "../../../src/observability/logger.js";
import { tempDirPerTest } from "../config/support.js";

const tmp = tempDirPerTest();

describe("mm paper over a live config whose maker is a vault", () => {
  it("runs: paper makes orders from its own wallet and drops the live vault address with the maker", async () => {
    // Paper forces signing.maker to wallet; a vault address left set would then be refused
    // (signing.vaultAddress must be empty when signing.maker is wallet), failing a valid layering.
    const cfg = tmp.file("live-vault.json", {
      signing: { maker: "vault", vaultAddress: "0x00000000000000000000000000000000000000aa" },
    });
    const paper = await startPaperExchange({
      files: [cfg],
      env: {},
      cwd: tmp.dir,
      port: 0,
      flow: false,
      logger: createLogger({ level: "silent" }),
    });
    try {
      expect(paper.config.signing.maker).toBe("wallet");
      expect(paper.config.signing.vaultAddress).toBeNull();
    } finally {
      await paper.mock.close();
    }
  }, 30_000);
});
