/**
 * How user-facing messages name things. The extension's command set (`/sequence`, `/readonly`, `/handoff`,
 * `/notebook`) is the one seed 001 specifies for pi-agenticoding, and its messages use the seed's wording and name;
 * the package that ships it, and the index and resume engine behind it, are cairn's.
 */
export const EXTENSION_NAME = "pi-agenticoding";
export const PACKAGE_NAME = "cairn";
