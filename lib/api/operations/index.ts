import type { HttpMethod, OperationSpec, OperationTag } from "../operation";
import * as account from "./account";
import * as audit from "./audit";
import * as boosts from "./boosts";
import * as changes from "./changes";
import * as field from "./field";
import * as hooks from "./hooks";
import * as runs from "./runs";
import * as sitemaps from "./sitemaps";
import * as sites from "./sites";
import * as traffic from "./traffic";
import * as webhooks from "./webhooks";

const TAG_ORDER: OperationTag[] = ["Account", "Sites", "Sitemaps", "Boosts", "Hooks", "Warm", "Changes", "Traffic", "Runs", "Webhooks", "Audit"];
const METHOD_ORDER: HttpMethod[] = ["get", "post", "put", "patch", "delete"];

/**
 * Every `/v1` operation, in the order the document lists them: by tag, then path, then method (a
 * module's exports have no order every loader agrees on).
 */
export const operations: OperationSpec[] = [account, sites, sitemaps, boosts, hooks, runs, changes, traffic, field, webhooks, audit]
  .flatMap((module): OperationSpec[] => Object.values(module))
  .sort((a, b) => TAG_ORDER.indexOf(a.tag) - TAG_ORDER.indexOf(b.tag) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
