import type { Budget } from "@/lib/api/rate-limit";

/**
 * Failed sign-ins and sign-ups, counted in the database like the API's budgets (lib/api/rate-limit.ts),
 * so that guessing passwords is slow on every server at once: 10 failed passwords per address and 50
 * per client in 15 minutes; 20 sign-ups per client an hour.
 */
export const signInBudgets = {
  byEmail: { name: "sign-in-email", points: 10, seconds: 15 * 60 },
  byClient: { name: "sign-in-client", points: 50, seconds: 15 * 60 },
  signUps: { name: "sign-up", points: 20, seconds: 60 * 60 },
} as const satisfies Record<string, Budget>;
