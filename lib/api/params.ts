import { z } from "zod";
import { idString } from "@/lib/core/primitives";

export const siteParams = z.object({ siteId: idString });
export const siteSitemapParams = z.object({ siteId: idString, sitemapId: idString });
export const siteBoostParams = z.object({ siteId: idString, boostId: idString });
export const boostParams = z.object({ boostId: idString });
export const runParams = z.object({ runId: idString });
export const webhookParams = z.object({ webhookId: idString });
export const boostHookParams = z.object({ boostId: idString, hookId: idString });
export const siteReceiverParams = z.object({ siteId: idString, receiverId: idString });
export const siteTrafficSourceParams = z.object({ siteId: idString, sourceId: idString });
/** A change receiver's public id: the last segment of the URL it was created with. */
export const receiverPublicParams = z.object({ publicId: z.string().min(1).max(100).meta({ description: "The receiver's public id, from its `url`." }) });
/** A deploy hook's token: what createBoostHook returned in its URL. */
export const hookTokenParams = z.object({ token: z.string().min(1).max(200).meta({ description: "The secret token of the hook's URL." }) });
