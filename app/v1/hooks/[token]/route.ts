// /v1/hooks/[token]: the handlers of app/api/v1/hooks/[token]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/hooks/[token]/route";
