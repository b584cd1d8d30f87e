// /v1/webhooks/[webhookId]: the handlers of app/api/v1/webhooks/[webhookId]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/webhooks/[webhookId]/route";
