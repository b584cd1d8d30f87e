import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

/** Who acts: a signed-in member, an API key, a deploy hook's token, Preheat itself, or the operator of this service (console or CLI). */
const AUDIT_ACTOR_TYPES = ["user", "key", "hook", "system", "operator"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Actions and target types are lower-case words and dots (`site.created`, `boost`), and ids are short: what the filters accept. */
const auditName = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/**
 * One recorded change, as `GET /v1/audit-log` shows it. Never a secret: `changes` names the fields
 * an update supplied, never their values, and a key is named by its prefix.
 */
export const auditEventSchema = z
  .object({
    id: z.number().int(),
    action: z.string().meta({ description: "What happened, `<target>.<verb>`: `site.created`, `boost.updated`, `key.revoked`, `hook.triggered`, `member.invited`…", example: "boost.updated" }),
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES).meta({
          description:
            "`user`: a signed-in member in the dashboard; `key`: an API key; `hook`: a deploy hook's secret URL; `system`: Preheat itself; `operator`: the operator of this service (plan changes, suspension).",
        }),
        label: z.string().meta({ description: "The member's e-mail address, the key's prefix, or the deploy hook's id, as it was at the time." }),
        user_id: z.number().int().optional().meta({ description: "The member, for a `user` actor." }),
      })
      .meta({ id: "AuditActor" }),
    target: z
      .object({
        type: z.string().meta({ description: "`site`, `sitemap`, `boost`, `hook`, `webhook`, `key`, `user`, `member`, `invitation`, `session`, `organization`…" }),
        id: z.string().nullable().meta({ description: "The target's id, as text; null when the action has no single target. Always given, whatever `name` says." }),
        name: z.string().nullable().meta({
          description:
            "The target's name as it is now, read with the log: a site's domain, a sitemap's URL, a boost's, a deploy hook's, a key's, a traffic source's or the organization's name, a member's or an invitation's e-mail address, a change receiver's system, a webhook's description (else its URL's origin, since a URL's path may hold a secret). null when the target no longer exists (`deleted`), has no name (a deploy hook without one), or is of a kind not named (a session).",
          example: "Nightly catalogue",
        }),
        deleted: z.boolean().nullable().meta({
          description:
            "true when the target no longer exists in the organization (deleted, or a member who left; a revoked key or invitation still exists): its name is gone with it. false when it still exists. null when the log does not look the target up (a session, another organization, no `id`).",
        }),
      })
      .meta({ id: "AuditTarget" }),
    changes: z.array(z.string()).meta({ description: "For an update (PATCH, PUT): the names of the top-level fields the request supplied, never their values. Empty otherwise." }),
    client_address: z
      .string()
      .nullable()
      .meta({ description: "The address the request came from (behind a trusted proxy, the client's as the proxy forwarded it); for a counted entry, its first call's." }),
    count: z.number().int().min(1).meta({
      description:
        "How many times it happened: 1, but for a deploy hook's calls (`hook.triggered`), which count on one entry per hook for an hour from its first (`created_at`), so that whoever holds the hook's URL cannot grow the log without bound.",
      example: 1,
    }),
    created_at: timestamp,
  })
  .meta({ id: "AuditEvent", description: "One change of the organization's state: who, what, on what, when and from where." });

export type AuditEventView = z.infer<typeof auditEventSchema>;

const nameFilter = (what: string) =>
  z
    .string()
    .max(100, "must be at most 100 characters")
    .refine((value) => auditName.test(value), `must be ${what}: lower-case letters, digits, _ and dots`);

/**
 * The filters of `GET /v1/audit-log`, each exact. `action` also takes a prefix: `site.` or `site.*`
 * (every action on sites).
 */
export const auditLogQuery = z.object({
  actor: z
    .string()
    .min(1, "must not be empty")
    .max(320, "must be at most 320 characters")
    .optional()
    .meta({ description: "Only the events of this actor: a member's e-mail address (any case) or a key's prefix, exactly." }),
  action: z
    .string()
    .max(100, "must be at most 100 characters")
    .refine((value) => auditName.test(value.replace(/\.\*?$/, "")), "must be an action (`site.created`) or a prefix ending in `.` or `.*` (`site.`, `site.*`)")
    .optional()
    .meta({ description: "Only this action (`site.created`), or every action of a prefix ending in `.` or `.*` (`site.` and `site.*` both give every action on sites)." }),
  target_type: nameFilter("a target type").optional().meta({ description: "Only the events on this kind of target (`site`, `boost`, `key`…)." }),
  target_id: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be an id: 1 to 100 letters, digits, _ . : or -")
    .optional()
    .meta({ description: "Only the events on the target of this id (with `target_type`, one target)." }),
});

export type AuditLogFilters = { actor?: string; action?: string; targetType?: string; targetId?: string };

/** The API's query, as the domain verb takes it. */
export function auditFilters(query: z.output<typeof auditLogQuery>): AuditLogFilters {
  return { actor: query.actor, action: query.action, targetType: query.target_type, targetId: query.target_id };
}
