/**
 * The running pi's classes and functions the extension takes at run time, as pi's entry hands them over: here from
 * the pi the test runs on (the pi-0.87 project maps these packages to 0.87's copies).
 */
import {
  CustomEditor,
  createLocalBashOperations,
  parseFrontmatter,
  stripFrontmatter,
} from "@earendil-works/pi-coding-agent";
import { matchesKey } from "@earendil-works/pi-tui";
import { Type } from "typebox";
import type { PiHost } from "../../../src/pi/host.ts";

export const piHost: PiHost = {
  CustomEditor,
  createLocalBashOperations,
  parseFrontmatter,
  stripFrontmatter,
  matchesKey,
  Type,
};
