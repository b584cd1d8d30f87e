/**
 * The colour theme: the visitor's choice (System follows the system's setting), kept in the browser
 * only, and the theme it gives, set as `data-theme` on the root element where app/theme-dark.css
 * reads it.
 */
const themeChoices = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof themeChoices)[number];

const storageKey = "preheat-theme";
const darkQuery = "(prefers-color-scheme: dark)";

/**
 * Run in the head before anything is painted, so that a page never shows the other theme first; the
 * same rule as `applyTheme`, kept short since every page carries it. Without storage (a privacy
 * setting), it still follows the system.
 */
export const themeScript = `{let c=null;try{c=localStorage.getItem(${JSON.stringify(storageKey)})}catch{}document.documentElement.dataset.theme=c==="dark"||(c!=="light"&&matchMedia(${JSON.stringify(darkQuery)}).matches)?"dark":"light"}`;

const isChoice = (value: string | null): value is ThemeChoice => themeChoices.some((choice) => choice === value);

/** Where storage is refused (a privacy setting), the choice lasts as long as the page. */
let unstoredChoice: ThemeChoice = "system";

export function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(storageKey);
    return isChoice(value) ? value : "system";
  } catch {
    return unstoredChoice;
  }
}

function applyTheme(choice: ThemeChoice) {
  const dark = choice === "dark" || (choice === "system" && matchMedia(darkQuery).matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

const listeners = new Set<() => void>();

/** Keeps the choice, shows its theme, and tells the toggles. */
export function chooseTheme(choice: ThemeChoice) {
  try {
    localStorage.setItem(storageKey, choice);
  } catch {
    unstoredChoice = choice;
  }
  applyTheme(choice);
  for (const listener of listeners) listener();
}

/**
 * For useSyncExternalStore: a choice made here or in another tab, and, under System, a change of the
 * system's setting while the page is open (the head's script only ran at load).
 */
export function subscribeToTheme(listener: () => void): () => void {
  const media = matchMedia(darkQuery);
  const follow = () => {
    applyTheme(storedChoice());
    listener();
  };
  listeners.add(listener);
  // The setting may have changed between the head's script and now.
  applyTheme(storedChoice());
  media.addEventListener("change", follow);
  window.addEventListener("storage", follow);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", follow);
    window.removeEventListener("storage", follow);
  };
}
