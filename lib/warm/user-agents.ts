import type { USER_AGENT_CLASSES } from "@/lib/boosts/schemas";

export type UserAgentClass = (typeof USER_AGENT_CLASSES)[number];

/**
 * The User-Agent sent for each class: current, realistic strings, because CDNs key caches (and
 * bot rules) on them. One place to update when browsers move on.
 */
export const USER_AGENTS: Record<UserAgentClass, string> = {
  desktop: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  mobile: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1",
  bot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  ai_crawler: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
};

export const DEFAULT_USER_AGENT: UserAgentClass = "desktop";
