export * as schema from "@/drizzle/schema";
