import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * README (Journal, "Where"; Dockerfile comment): in the Docker image `mm run`'s journal is
 * /home/node/.local/share/mm/journal.sqlite — "mount a volume there to keep it across containers".
 * The image runs as `node` but never creates that folder. A named volume mounted on a path the image
 * lacks is created by Docker owned by root (0755), and a missing parent is created by root too, so
 * `node` cannot create journal.sqlite (nor the account lock beside it): the documented
 * `docker run -v mm-journal:/home/node/.local/share/mm … run` refuses to start with a journal.path
 * error (exit 2). Docker copies the image folder's ownership into a new named volume only when the
 * image has that folder: the final stage must create it owned by node.
 */
describe("Dockerfile: the journal's volume mount point", () => {
  it("the final stage creates /home/node/.local/share/mm owned by the node user", () => {
    const dockerfile = readFileSync(join(import.meta.dirname, "../../../Dockerfile"), "utf8");
    const finalStage = dockerfile.split(/^FROM /m).at(-1) ?? "";
    const lines = finalStage.replace(/\\\n/g, " ").split("\n");
    const userAt = lines.findIndex((l) => /^USER\s+node\b/.test(l));
    const creates = lines
      .map((l, i) => ({ l, i }))
      .filter(({ l }) => /mkdir\b.*\/home\/node\/\.local\/share\/mm\b/.test(l));
    const ownedByNode = creates.some(
      ({ l, i }) => (userAt >= 0 && i > userAt) || /chown\b[^\n]*\bnode\b/.test(l),
    );
    expect(ownedByNode).toBe(true);
  });
});
