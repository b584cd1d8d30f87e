// /v1/audit-log: the handlers of app/api/v1/audit-log/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/audit-log/route";
