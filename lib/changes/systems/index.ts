import type { ReceiverKind } from "../receiver-schemas";
import { contentful } from "./contentful";
import { netlify } from "./netlify";
import { sanity } from "./sanity";
import { shopify } from "./shopify";
import { strapi } from "./strapi";
import type { ChangeSystem } from "./types";
import { vercel } from "./vercel";

/** Each kind of receiver's system: how it proves a delivery and what its payload asks for. */
export const SYSTEMS: Record<ReceiverKind, ChangeSystem> = { shopify, contentful, sanity, strapi, netlify, vercel };
