// /v1/runs: the handlers of app/api/v1/runs/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/runs/route";
