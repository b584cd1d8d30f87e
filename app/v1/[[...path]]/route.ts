// /v1/[[...path]]: the handlers of app/api/v1/[[...path]]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/[[...path]]/route";
