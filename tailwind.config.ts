import type { Config } from "tailwindcss";

/*
 * Where Tailwind reads class names: the dashboard's code only. The colours are theme variables in
 * app/globals.css (@theme), not here: a JS config inlines colours as hex, and the dark theme
 * (app/theme-dark.css) must be able to redefine them.
 */
export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
} satisfies Config;
