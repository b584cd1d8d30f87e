"use client";

import { type ReactNode, useSyncExternalStore } from "react";
import { chooseTheme, storedChoice, subscribeToTheme, type ThemeChoice } from "./theme";

const icon = (shape: ReactNode) => (
  <svg aria-hidden viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" strokeLinejoin="round" className="size-4">
    {shape}
  </svg>
);

const options: { choice: ThemeChoice; label: string; icon: ReactNode }[] = [
  {
    choice: "system",
    label: "System",
    icon: icon(
      <>
        <rect x="2.5" y="3.5" width="15" height="10" rx="1.5" />
        <path d="M7 16.5h6M10 13.5v3" />
      </>,
    ),
  },
  {
    choice: "light",
    label: "Light",
    icon: icon(
      <>
        <circle cx="10" cy="10" r="3.25" />
        <path d="M10 2v1.75M10 16.25V18M2 10h1.75M16.25 10H18M4.35 4.35l1.25 1.25M14.4 14.4l1.25 1.25M4.35 15.65l1.25-1.25M14.4 5.6l1.25-1.25" />
      </>,
    ),
  },
  { choice: "dark", label: "Dark", icon: icon(<path d="M16.5 12.3A7 7 0 0 1 7.7 3.5a7 7 0 1 0 8.8 8.8Z" />) },
];

/**
 * System, Light or Dark, as three radio buttons (arrow keys move between them): each an icon with its
 * name for screen readers and in a tooltip. The server renders System; the stored choice shows once hydrated.
 */
export function ThemeToggle() {
  const current = useSyncExternalStore(subscribeToTheme, storedChoice, () => "system" as const);
  return (
    <div role="radiogroup" aria-label="Theme" className="inline-flex shrink-0 rounded-md border border-slate-300 p-0.5">
      {options.map((option) => (
        <label
          key={option.choice}
          title={`${option.label} theme`}
          className="relative rounded p-1 text-slate-600 hover:text-slate-900 has-checked:bg-slate-200 has-checked:text-slate-900 has-focus-visible:outline-2 has-focus-visible:outline-brand-700"
        >
          <input
            type="radio"
            name="theme"
            value={option.choice}
            checked={current === option.choice}
            onChange={() => chooseTheme(option.choice)}
            className="absolute inset-0 cursor-pointer appearance-none rounded focus:outline-none"
          />
          {option.icon}
          <span className="sr-only">{option.label}</span>
        </label>
      ))}
    </div>
  );
}
