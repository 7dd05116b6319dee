/**
 * Colours for the terminal UI, through Node's own `styleText`; with colour off (NO_COLOR, --color=never) every
 * style is the identity, so the screen is plain text with the same layout.
 */
import { styleText } from "node:util";
import type { Provider } from "../topology/types.ts";

type Format = Parameters<typeof styleText>[0];
export type Paint = (text: string) => string;

export interface Style {
  color: boolean;
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  cyan: Paint;
  /** The selected row: reversed video when coloured, a leading marker carries it in plain text. */
  selected: Paint;
  /** One colour per agent, so a list of mixed sessions reads at a glance. */
  agent(provider: string): Paint;
}

/** Every agent cairn reads has one: a new reader without a colour does not compile. */
const AGENT_COLOURS: Record<Provider, Format> = {
  claude: "yellow",
  codex: "cyan",
  pi: "magenta",
  gemini: "blue",
  qwen: "green",
  opencode: "greenBright",
  kilo: "magentaBright",
  copilot: "blueBright",
  cline: "cyanBright",
  droid: "yellowBright",
};

export function createStyle(color: boolean): Style {
  const paint =
    (format: Format): Paint =>
    (text) =>
      color ? styleText(format, text, { validateStream: false }) : text;
  return {
    color,
    bold: paint("bold"),
    dim: paint("dim"),
    red: paint("red"),
    green: paint("green"),
    yellow: paint("yellow"),
    cyan: paint("cyan"),
    selected: paint("inverse"),
    agent: (provider) => paint(AGENT_COLOURS[provider as Provider] ?? "white"),
  };
}
