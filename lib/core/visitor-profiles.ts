/** The standard visitors a visitor check asks as (`verify: "visitors"`), in the order they are reported. */
export const VISITOR_PROFILES = ["chrome_desktop", "chrome_android", "safari_ios", "firefox", "googlebot_smartphone"] as const;
export type VisitorProfile = (typeof VISITOR_PROFILES)[number];
