/** An export document in one of its formats. */
import type { ExportDocument, ExportFormat } from "./document.ts";
import { exportHtml } from "./html.ts";
import { exportMarkdown } from "./markdown.ts";

export function renderExport(doc: ExportDocument, format: ExportFormat): string {
  switch (format) {
    case "md":
      return exportMarkdown(doc);
    case "html":
      return exportHtml(doc);
    case "json":
      return `${JSON.stringify(doc, null, 2)}\n`;
  }
}
