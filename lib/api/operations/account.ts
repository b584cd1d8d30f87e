import { usageQuery, usageSchema } from "@/lib/boosts/usage-schemas";
import { meSchema } from "@/lib/accounts/me";
import { defineOperation } from "../operation";

export const getMe = defineOperation({
  operationId: "getMe",
  method: "get",
  path: "/v1/me",
  tag: "Account",
  summary: "The caller's account, key scopes, regions and quota",
  session: false,
  status: 200,
  response: meSchema,
});

export const getUsage = defineOperation({
  operationId: "getUsage",
  method: "get",
  path: "/v1/usage",
  tag: "Account",
  summary: "Calls per day, the monthly quota, and what the schedules will still spend",
  description:
    "The calls of the runs created each day of a period (this month by default), optionally split by site or boost, against the month's quota, and the month's projection: the calls counted so far plus every active schedule's remaining occurrences this month × the calls a run of it would make now (the estimate's figure). Calls of runs deleted with their site stay counted in the quota (`not_in_runs`).",
  scope: "runs:read",
  query: usageQuery,
  status: 200,
  response: usageSchema,
});
