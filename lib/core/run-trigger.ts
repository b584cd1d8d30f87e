import { z } from "zod";

/**
 * What started a run: a key through the API, a member on the dashboard, the MCP server, the boost's
 * schedule, a deploy hook, a deploy hook's follow-up (queued while a run of the boost was
 * warming, started when it ended), keep-warm (the re-warms of a boost's pages as they expire), or changes (changed URLs sent
 * through the change API or a change receiver).
 */
const RUN_TRIGGER_KINDS = ["api", "dashboard", "mcp", "schedule", "deploy_hook", "follow_up", "keep_warm", "changes"] as const;
type RunTriggerKind = (typeof RUN_TRIGGER_KINDS)[number];

export type RunTrigger = { kind: RunTriggerKind; label: string | null };

export const runTriggerSchema = z
  .object({
    kind: z.enum(RUN_TRIGGER_KINDS),
    label: z.string().nullable().meta({
      description:
        "Who, in the words of the audit log: the key's prefix (`api`, `mcp`), the member's e-mail address (`dashboard`), the cron expression (`schedule`), the hook's name (`deploy_hook`, `follow_up`), the window's length (`keep_warm`), the key's prefix or the receiver (`changes`, e.g. `shopify receiver 12`).",
    }),
  })
  .nullable()
  .meta({
    id: "RunTrigger",
    description:
      "What started the run: `api` (a key), `dashboard` (a signed-in member), `mcp` (the MCP server, with a key), `schedule` (the boost's cron), `deploy_hook`, `follow_up` (a deploy hook called while a run of the boost was warming: this run waited for it to end), or `keep_warm` (the boost's re-warms of pages as their shared-cache lifetime ends, gathered into one run per window), or `changes` (changed URLs sent through the change API or a change receiver, warmed ahead of the site's other runs). null for runs created before Preheat recorded it.",
  });

/** The trigger in a sentence's words, for the run page and the report e-mail: "Started by …". */
export function describeTrigger(trigger: RunTrigger | null): string | null {
  if (!trigger) return null;
  const who = trigger.label ? ` ${trigger.label}` : "";
  switch (trigger.kind) {
    case "api":
      return `the API, with the key${who}`;
    case "dashboard":
      return `${trigger.label ?? "a member"} on the dashboard`;
    case "mcp":
      return `the MCP server, with the key${who}`;
    case "schedule":
      return `the boost's schedule${trigger.label ? ` (${trigger.label})` : ""}`;
    case "deploy_hook":
      return `the deploy hook${who}`;
    case "follow_up":
      return `the deploy hook${who}, called while the boost's previous run was warming (a follow-up)`;
    case "keep_warm":
      return `keep-warm: the boost's pages re-warmed as their cache lifetime ended${trigger.label ? ` (${trigger.label})` : ""}`;
    case "changes":
      return `changes sent${who}`;
  }
}
