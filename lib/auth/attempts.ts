import type { Budget } from "@/lib/auth/rate-limit";

/**
 * Failed sign-ins and sign-ups, counted in the database like the API's budgets (lib/auth/rate-limit.ts),
 * so that guessing passwords is slow on every server at once: 10 failed passwords per address and 50
 * per client in 15 minutes; 20 sign-ups per client an hour.
 */
export const signInBudgets = {
  byEmail: { name: "sign-in-email", points: 10, seconds: 15 * 60 },
  byClient: { name: "sign-in-client", points: 50, seconds: 15 * 60 },
  signUps: { name: "sign-up", points: 20, seconds: 60 * 60 },
} as const satisfies Record<string, Budget>;

/**
 * The e-mails a signed-out visitor can have sent (sign-in links, sign-up confirmations, the note to an
 * owner whose address was signed up again), in the same store: 5 an hour to one address, 20 an hour
 * asked for by one client, so that nobody can flood an inbox through Preheat (lib/auth/email-caps.ts).
 */
export const emailBudgets = {
  toAddress: { name: "email-address", points: 5, seconds: 60 * 60 },
  fromClient: { name: "email-client", points: 20, seconds: 60 * 60 },
} as const satisfies Record<string, Budget>;
