// /v1/webhooks/[webhookId]/test: the handlers of app/api/v1/webhooks/[webhookId]/test/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/webhooks/[webhookId]/test/route";
