export * from "./accounts";
export * from "./api-keys";
export * from "./boosts";
export * from "./runs";
export * from "./sitemaps";
export * from "./sites";
export * from "./email-outbox";
export * from "./auth";
