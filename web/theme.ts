/** Light, dark or the system's choice, remembered per browser. The stylesheet holds both palettes. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

const KEY = "cairn.theme";

export function storedTheme(): Theme {
  const value = localStorage.getItem(KEY);
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
}

export function applyTheme(theme: Theme): void {
  localStorage.setItem(KEY, theme);
  if (theme === "system") delete document.documentElement.dataset["theme"];
  else document.documentElement.dataset["theme"] = theme;
}
