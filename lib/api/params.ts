import { z } from "zod";
import { idString } from "./input";

export const siteParams = z.object({ siteId: idString });
export const siteSitemapParams = z.object({ siteId: idString, sitemapId: idString });
export const siteBoostParams = z.object({ siteId: idString, boostId: idString });
export const boostParams = z.object({ boostId: idString });
export const runParams = z.object({ runId: idString });
