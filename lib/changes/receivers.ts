import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { changeReceivers } from "@/drizzle/schema";
import { publicBaseUrl } from "@/lib/config/base-url";
import type { AccountContext } from "@/lib/context";
import { InvalidError, notFound } from "@/lib/core/errors";
import { encryptSecret, NO_SECRETS_KEY, secretsKeyConfigured } from "@/lib/secrets";
import { getSite } from "@/lib/sites/service";
import type { SiteRow } from "@/lib/sites/site-row";
import { deliveriesOf } from "./deliveries";
import type { ChangeReceiverPayload, CreateReceiverInput, ReceiverKind, UpdateReceiverInput, UrlTemplates } from "./receiver-schemas";
import { SYSTEMS } from "./systems";

export type ReceiverRow = typeof changeReceivers.$inferSelect;

/** What a receiver's secret is sealed for: a value sealed for another use does not open here. */
export const SECRET_PURPOSE = "change-receiver";

const receiverPath = (publicId: string) => `/v1/receivers/${publicId}`;

/**
 * A new secret: 64 hexadecimal characters, which every system takes, Contentful's request
 * verification included (it wants exactly 64 characters).
 */
const newSecret = () => randomBytes(32).toString("hex");

function sealed(secret: string): string {
  if (!secretsKeyConfigured()) throw new InvalidError(`secret: ${NO_SECRETS_KEY}.`, [{ field: "secret", message: NO_SECRETS_KEY }]);
  return encryptSecret(secret, SECRET_PURPOSE);
}

function toReceiver(row: ReceiverRow): ChangeReceiverPayload {
  return {
    id: row.id,
    site_id: row.siteId,
    kind: row.kind as ReceiverKind,
    url: `${publicBaseUrl()}${receiverPath(row.publicId)}`,
    url_templates: row.urlTemplates,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Netlify and Vercel deliveries warm the sitemaps' changes: templates there would never be used, so they are refused. */
function checkTemplates(kind: ReceiverKind, templates: UrlTemplates | undefined): void {
  if (templates && Object.keys(templates).length && !SYSTEMS[kind].takesTemplates) {
    throw new InvalidError(`url_templates: a ${kind} receiver takes none: its deploys warm what the site's sitemaps say changed.`, [
      { field: "url_templates", message: `a ${kind} receiver takes none` },
    ]);
  }
}

/** Makes a receiver for the site; its secret (made here, or the system's own) is in this answer only. */
export async function createReceiver(ctx: AccountContext, siteId: number, input: CreateReceiverInput): Promise<ChangeReceiverPayload & { secret: string }> {
  const site = await getSite(ctx, siteId);
  checkTemplates(input.kind, input.url_templates);
  const secret = input.secret ?? newSecret();
  const [row] = await ctx.db
    .insert(changeReceivers)
    .values({
      siteId: site.id,
      accountId: ctx.accountId,
      kind: input.kind,
      publicId: randomBytes(18).toString("base64url"),
      secret: sealed(secret),
      urlTemplates: input.url_templates ?? SYSTEMS[input.kind].defaultTemplates,
    })
    .returning();
  return { ...toReceiver(row!), secret };
}

/** The receiver with its site, if it is the site's and the caller sees the site; anything else is not found. */
export async function getSiteReceiver(ctx: AccountContext, siteId: number, receiverId: number): Promise<{ site: SiteRow; receiver: ReceiverRow }> {
  const site = await getSite(ctx, siteId);
  const [receiver] = await ctx.db
    .select()
    .from(changeReceivers)
    .where(and(eq(changeReceivers.id, receiverId), eq(changeReceivers.siteId, site.id), eq(changeReceivers.accountId, ctx.accountId)));
  if (!receiver) throw notFound("Change receiver");
  return { site, receiver };
}

/** The receiver if it is the site's and the caller sees the site; anything else is not found. */
async function getReceiverRow(ctx: AccountContext, siteId: number, receiverId: number): Promise<ReceiverRow> {
  return (await getSiteReceiver(ctx, siteId, receiverId)).receiver;
}

export async function listReceivers(ctx: AccountContext, siteId: number): Promise<{ data: ChangeReceiverPayload[] }> {
  const site = await getSite(ctx, siteId);
  const rows = await ctx.db
    .select()
    .from(changeReceivers)
    .where(and(eq(changeReceivers.siteId, site.id), eq(changeReceivers.accountId, ctx.accountId)))
    .orderBy(desc(changeReceivers.id));
  return { data: rows.map(toReceiver) };
}

export async function getReceiver(ctx: AccountContext, siteId: number, receiverId: number): Promise<ChangeReceiverPayload> {
  return toReceiver(await getReceiverRow(ctx, siteId, receiverId));
}

/** Replaces the templates, or sets the system's own secret (not shown back: the owner has it). */
export async function updateReceiver(ctx: AccountContext, siteId: number, receiverId: number, input: UpdateReceiverInput): Promise<ChangeReceiverPayload> {
  const current = await getReceiverRow(ctx, siteId, receiverId);
  checkTemplates(current.kind as ReceiverKind, input.url_templates);
  const changes: Partial<typeof changeReceivers.$inferInsert> = {};
  if (input.url_templates !== undefined) changes.urlTemplates = input.url_templates;
  if (input.secret !== undefined) changes.secret = sealed(input.secret);
  if (!Object.keys(changes).length) return toReceiver(current);
  const [row] = await ctx.db.update(changeReceivers).set(changes).where(eq(changeReceivers.id, current.id)).returning();
  return toReceiver(row!);
}

/** A new secret made by Preheat, shown in this answer only; the old one stops working at once. */
export async function rotateReceiverSecret(ctx: AccountContext, siteId: number, receiverId: number): Promise<ChangeReceiverPayload & { secret: string }> {
  const current = await getReceiverRow(ctx, siteId, receiverId);
  const secret = newSecret();
  const [row] = await ctx.db
    .update(changeReceivers)
    .set({ secret: sealed(secret) })
    .where(eq(changeReceivers.id, current.id))
    .returning();
  return { ...toReceiver(row!), secret };
}

/** Deletes the receiver and its deliveries: its URL answers 404 from now on. */
export async function deleteReceiver(ctx: AccountContext, siteId: number, receiverId: number): Promise<void> {
  const current = await getReceiverRow(ctx, siteId, receiverId);
  await ctx.db.delete(changeReceivers).where(eq(changeReceivers.id, current.id));
}

export async function listReceiverDeliveries(ctx: AccountContext, siteId: number, receiverId: number) {
  const receiver = await getReceiverRow(ctx, siteId, receiverId);
  return { data: await deliveriesOf(ctx.db, receiver.id) };
}
