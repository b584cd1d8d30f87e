// /v1/runs/[runId]/results: the handlers of app/api/v1/runs/[runId]/results/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/runs/[runId]/results/route";
