// /v1/openapi.json: the handlers of app/api/v1/openapi.json/route.ts (lib/api/public-routes.ts).
export { GET } from "@/app/api/v1/openapi.json/route";
