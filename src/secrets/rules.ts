/**
 * secretlint's recommended rules, driven synchronously over one text. The rules are the scanner's own modules
 * (`create(context).file(source)`); cairn supplies the context, so a rule reports into a plain array and no
 * promise is involved, which lets the parse worker run them inline. A rule whose handler returns a promise (the
 * GCP rule reads `.p12` files from disk) is skipped: cairn scans text, never files.
 */
import { createRequire } from "node:module";

/** One report: which rule, the value the rule quoted, and where the rule says it is. */
export interface RuleHit {
  rule: string;
  value: string;
  at: number;
  end: number;
}

interface Message {
  id: string;
  value: string;
}

interface RuleContext {
  report(descriptor: { message: Message; range: readonly [number, number] }): void;
  ignore(): void;
  createTranslator(messages: unknown): (id: string, props?: Record<string, unknown>) => Message;
}

interface RuleSource {
  content: string;
  ext: string;
  contentType: "text";
  filePath?: string;
}

interface RuleModule {
  meta: { id: string; type?: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?(source: RuleSource): unknown };
}

/** Rules that do not look at text (comment directives, files read from disk). */
const SKIPPED = new Set(["@secretlint/secretlint-rule-filter-comments", "@secretlint/secretlint-rule-gcp"]);

/** An AWS account id is not a credential: the id scan is on for access key ids, and its account ids dropped. */
const DROPPED_MESSAGES = new Set(["AWSAccountID"]);

/**
 * Text without one of these holds nothing any recommended rule reports (each rule's fixed prefix or marker), so
 * the rules run on a small share of events. `test/secrets/rules.test.ts` pins the rule list: a secretlint upgrade
 * that adds a rule fails it until its marker is added here.
 */
export const RULE_MARKERS =
  /(?<![A-Za-z])sk-|[sr]k_(?:live|test)|gh[pousr]_|github_pat|xox[bpaor]|xapp|hooks\.slack|:\/\/[^\s/@:]{1,256}:[^\s/@]{1,256}@|PRIVATE KEY|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|(?:SECRET|[Ss]ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)|SG\.|npm_|_authToken|glpat-|gl(?:c|sa)_|hv[sbr]\.|dckr_pat|shp(?:pa|ca|at|ss)_|ntn_|cf(?:k|ut|at)_|ops_|gsk_|hf_|lin_api|vc[pkira]_|dapi|fig[dur]_|tskey/g;

/**
 * Whether a text holds one of `RULE_MARKERS`, the same answer sought faster: each marker from a character that
 * is rare in prose and code (`_`, `-`, `.`, `:`, a capital, `x`, `p`, `k`), the rest of it checked around that
 * character, so the engine skips ahead to those characters instead of trying some forty markers at each one
 * (most text has none: a third of the time). `test/secrets/markers.test.ts` holds the two to the same answers.
 */
const RULE_MARKER_TEST =
  /_(?:(?<=[sr]k_)(?:live|test)|(?<=gh[pousr]_)|(?<=github_)pat|(?<=npm_)|authToken|(?<=gl(?:c|sa)_)|(?<=dckr_)pat|(?<=shp(?:pa|ca|at|ss)_)|(?<=ntn_)|(?<=cf(?:k|ut|at)_)|(?<=ops_)|(?<=gsk_)|(?<=hf_)|(?<=lin_)api|(?<=vc[pkira]_)|(?<=fig[dur]_))|-(?:(?<=(?<![A-Za-z])sk-)|(?<=glpat-))|\.(?:(?<=hooks\.)slack|(?<=SG\.)|(?<=hv[sbr]\.))|:\/\/[^\s/@:]{1,256}:[^\s/@]{1,256}@|A(?:3T|KIA|GPA|IDA|ROA|IPA|NPA|NVA|SIA)|PRIVATE KEY|x(?:ox[bpaor]|app)|p(?<=dap)i|k(?<=tsk)ey|(?:KEY|[Kk]ey)(?<=(?:SECRET|[Ss]ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey))/;

export function holdsRuleMarker(text: string): boolean {
  return RULE_MARKER_TEST.test(text);
}

/** The value a message quotes: the first string property the rule passed its translator. */
function quoted(props: Record<string, unknown> | undefined): string {
  for (const v of Object.values(props ?? {})) if (typeof v === "string") return v;
  return "";
}

let sink: RuleHit[] = [];
let current = "";

/**
 * The rules, loaded on first use (most commands never scan, and the preset is a large module): `require` of the
 * ES module is synchronous, so the parse worker still scans inline.
 */
let loaded: Array<{ id: string; handlers: ReturnType<RuleModule["create"]> }> | null = null;

function compiled() {
  loaded ??= load();
  return loaded;
}

function load() {
  const preset = createRequire(import.meta.url)("@secretlint/secretlint-rule-preset-recommend") as {
    rules: RuleModule[];
  };
  return preset.rules
    .filter((r) => !SKIPPED.has(r.meta.id))
    .map((rule) => {
      const context: RuleContext = {
        report: ({ message, range }) => {
          if (!DROPPED_MESSAGES.has(message.id))
            sink.push({ rule: current, value: message.value, at: range[0], end: range[1] });
        },
        ignore: () => {},
        createTranslator: () => (id, props) => ({ id, value: quoted(props) }),
      };
      // The AWS rule scans access key ids only when asked (its default leaves them out as not secret alone).
      const options = rule.meta.id.endsWith("-aws") ? { enableIDScanRule: true } : {};
      return { id: rule.meta.id, handlers: rule.create(context, options) };
    });
}

/** How far around a marker a rule's match can reach (the longest token formats are about 1,300 characters). */
const BEFORE = 64;
const AFTER = 1500;

/**
 * Every report of every recommended rule on `text`. The rules run on the windows around the markers only, so a
 * long tool output with one URL costs a window, not the whole text; reported offsets are in `text`.
 */
export function runRules(text: string): RuleHit[] {
  const out: RuleHit[] = [];
  let start = -1;
  let end = -1;
  const flush = () => {
    if (start >= 0) for (const hit of runOn(text.slice(start, end))) out.push(shift(hit, start));
  };
  RULE_MARKERS.lastIndex = 0;
  for (const m of text.matchAll(RULE_MARKERS)) {
    const from = Math.max(0, m.index - BEFORE);
    const to = Math.min(text.length, m.index + AFTER);
    if (from <= end) end = to;
    else {
      flush();
      start = from;
      end = to;
    }
  }
  flush();
  return out;
}

function shift(hit: RuleHit, by: number): RuleHit {
  return { ...hit, at: hit.at + by, end: hit.end + by };
}

function runOn(content: string): RuleHit[] {
  sink = [];
  const source: RuleSource = { content, ext: "", contentType: "text" };
  for (const { id, handlers } of compiled()) {
    current = id;
    handlers.file?.(source);
  }
  const out = sink;
  sink = [];
  return out;
}

/** The short kind a rule's finding is shown as: `@secretlint/secretlint-rule-openai` → `openai-key`. */
export function ruleKind(rule: string): string {
  const name = rule.replace(/^@secretlint\/secretlint-rule-/, "");
  return RULE_KINDS[name] ?? `${name}-secret`;
}

const RULE_KINDS: Record<string, string> = {
  aws: "aws-key",
  privatekey: "private-key",
  npm: "npm-token",
  basicauth: "basic-auth",
  slack: "slack-token",
  sendgrid: "sendgrid-key",
  shopify: "shopify-key",
  stripe: "stripe-key",
  github: "github-token",
  gitlab: "gitlab-token",
  grafana: "grafana-token",
  openai: "openai-key",
  anthropic: "anthropic-key",
  groq: "groq-key",
  huggingface: "huggingface-token",
  linear: "linear-key",
  notion: "notion-token",
  "1password": "1password-token",
  "database-connection-string": "database-url",
  "hashicorp-vault": "vault-token",
  vercel: "vercel-token",
  databricks: "databricks-token",
  docker: "docker-token",
  figma: "figma-token",
  cloudflare: "cloudflare-token",
  tailscale: "tailscale-key",
};
