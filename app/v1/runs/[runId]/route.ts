// /v1/runs/[runId]: the handlers of app/api/v1/runs/[runId]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/runs/[runId]/route";
