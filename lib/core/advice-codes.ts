/** The kinds of advice a run gives (summary.advice), most useful first. */
export const ADVICE_CODES = ["blocked", "visitors_missed", "vary_accept_language", "set_cookie", "vary_cookie", "vary_user_agent", "variant_never_hits"] as const;
