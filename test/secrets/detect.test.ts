/** Detection finds a planted secret of each common kind, exactly where it is, and none of the look-alikes. */
import { describe, expect, it } from "vitest";
import { lookAlikeCases, plantedCases } from "../../bench/secrets-cases.ts";
import { findSecrets, fingerprint } from "../../src/secrets/detect.ts";
import { redactText } from "../../src/secrets/redact.ts";

describe("findSecrets", () => {
  for (const c of plantedCases().filter((x) => !x.knownMiss)) {
    it(`finds the ${c.label}`, () => {
      const found = findSecrets(c.text);
      const covering = found.filter(
        (f) => f.at <= c.text.indexOf(c.secret!) && f.at + f.length >= c.text.indexOf(c.secret!) + c.secret!.length,
      );
      expect(covering, JSON.stringify(found)).toHaveLength(1);
      const redacted = redactText(c.text);
      expect(redacted).not.toContain(c.secret);
      expect(redacted).toContain(`:${covering[0]!.fingerprint}]`);
    });
  }

  for (const c of lookAlikeCases()) {
    it(`leaves the ${c.label} alone`, () => {
      expect(findSecrets(c.text)).toEqual([]);
      expect(redactText(c.text)).toBe(c.text);
    });
  }

  it("fingerprints the value alone: two mentions of one key share a fingerprint, and the value is not in it", () => {
    const c = plantedCases()[0]!;
    const text = `${c.text}\nagain: ${c.secret}`;
    const found = findSecrets(text);
    expect(found).toHaveLength(2);
    expect(found[0]!.fingerprint).toBe(found[1]!.fingerprint);
    expect(found[0]!.fingerprint).toBe(fingerprint(c.secret!));
    expect(JSON.stringify(found)).not.toContain(c.secret!.slice(10, 30));
  });

  it("a URL keeps its user and host; only the password is replaced", () => {
    const c = plantedCases().find((x) => x.label === "postgres url")!;
    expect(redactText(c.text)).toMatch(
      /^DATABASE_URL=postgres:\/\/app:\[secret:database-url:[0-9a-f]{12}\]@db\.internal:5432\/app$/,
    );
  });

  it("redaction is idempotent: a redacted text has nothing left to find", () => {
    for (const c of plantedCases().filter((x) => !x.knownMiss)) {
      const once = redactText(c.text);
      expect(findSecrets(once), c.label).toEqual([]);
      expect(redactText(once)).toBe(once);
    }
  });
});
