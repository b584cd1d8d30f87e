// /v1/receivers/[publicId]: the handlers of app/api/v1/receivers/[publicId]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/receivers/[publicId]/route";
