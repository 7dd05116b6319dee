import { describe, expect, it } from "vitest";
import { checkAnswer, splitSentences } from "../../src/ask/check.ts";
import { buildPack, type PackCandidate } from "../../src/ask/pack.ts";
import { createEstimateCounter } from "../../src/resume/tokens.ts";

const event = (event_id: string, text: string, event_type = "tool_result"): PackCandidate => ({
  event_id,
  session_id: "s1-session",
  provider: "codex",
  timestamp: "2025-12-10T04:55:16Z",
  event_type,
  status: null,
  text,
  reason: "hit",
});

const pack = buildPack(
  "why did python hoge.py fail?",
  [
    event("ev-shim", "error: target shim binary not found while running `python hoge.py`", "error"),
    event("ev-py3", "$ python3 hoge.py\n2", "command"),
    event("ev-plan", "I will add the file myapp/hoge.py with apply_patch", "assistant_message"),
  ],
  { budget: 4000, counter: createEstimateCounter() },
);
const inIndex = new Set(["ev-shim", "ev-py3", "ev-plan", "ev-elsewhere"]);
const check = (answer: string) => checkAnswer(answer, pack, { exists: (id) => inIndex.has(id) });

describe("checkAnswer", () => {
  it("accepts a sentence whose cited event shares its key terms", () => {
    const r = check("Running python hoge.py failed because the target shim binary was not found [e:ev-shim].");
    expect(r.sentences).toHaveLength(1);
    expect(r.sentences[0]!.verdict).toBe("supported");
    expect(r.sentences[0]!.citations[0]!.shared).toContain("hoge.py");
    expect(r.supported).toBe(1);
  });

  it("catches an invented citation", () => {
    const r = check("The shim binary was missing [e:deadbeef].");
    expect(r.sentences[0]!.verdict).toBe("unsupported");
    expect(r.sentences[0]!.citations[0]).toEqual({ event_id: "deadbeef", verdict: "unknown_id", shared: [] });
  });

  it("catches a citation to a real event that is not in the pack", () => {
    const r = check("The shim binary was missing [e:ev-elsewhere].");
    expect(r.sentences[0]!.citations[0]!.verdict).toBe("not_in_pack");
    expect(r.sentences[0]!.verdict).toBe("unsupported");
  });

  it("catches a claim its cited event does not support", () => {
    const r = check("The database migration deleted every user table [e:ev-py3].");
    expect(r.sentences[0]!.citations[0]!.verdict).toBe("no_shared_terms");
    expect(r.sentences[0]!.verdict).toBe("unsupported");
  });

  it("marks a claim without citation uncited, and --strict keeps only supported sentences", () => {
    const r = check("It printed 2 with python3 hoge.py [e:ev-py3]. The user was happy. The shim was gone [e:nope].");
    expect(r.sentences.map((s) => s.verdict)).toEqual(["supported", "uncited", "unsupported"]);
    expect(r.strict_text).toBe("It printed 2 with python3 hoge.py [e:ev-py3].");
    expect(r.claims).toBe(3);
  });

  it("one valid citation among several supports the sentence", () => {
    const r = check("The file myapp/hoge.py was added with apply_patch [e:ev-shim,ev-plan].");
    expect(r.sentences[0]!.verdict).toBe("supported");
    expect(r.sentences[0]!.citations.map((c) => c.verdict)).toEqual(["ok", "ok"]);
  });
});

describe("splitSentences", () => {
  it("splits after sentence ends and lines, keeps dotted names, joins trailing citations", () => {
    expect(splitSentences("It edited src/auth.ts and v1.2 shipped. [e:a]\n- Tests failed [e:b]. Then passed.")).toEqual(
      ["It edited src/auth.ts and v1.2 shipped. [e:a]", "- Tests failed [e:b].", "Then passed."],
    );
  });
});
