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
