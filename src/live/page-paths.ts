/**
 * The paths the web app answers with its page: each view has one, so a URL can be bookmarked and opened in
 * another tab. The server serves the page for these and the page's router reads them; both import this.
 */
export const PAGE_PATHS =
  /^\/(?:|live|sessions|search|threads|ask|usage|s\/[^/]+(?:\/brief|\/conversation)?|e\/[^/]+|t\/[^/]+)$/;

export function isPagePath(pathname: string): boolean {
  return PAGE_PATHS.test(pathname);
}
