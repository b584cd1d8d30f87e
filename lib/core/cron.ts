import { Cron } from "croner";

/** A cron expression as every schedule is read: classic (Vixie) semantics, always UTC. */
export function cronFor(expression: string): Cron {
  // Classic (Vixie) cron semantics: day-of-month OR day-of-week; always UTC. UTC as a fixed offset,
  // not a time zone: the same times, about ten times faster, since no date goes through Intl (a
  // schedule of every minute fires 43,200 times in the 30 days a boost's monthly cost counts).
  return new Cron(expression, { utcOffset: 0, mode: "5-part", domAndDow: false, paused: true });
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** The most days each month can have: February's 29 in a leap year. */
const MOST_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** A leap year starting on a Saturday: every day of every month exists in it. */
const PROBE_YEAR = 2000;

/** Which values of one field the expression allows, asked of croner itself so that ranges, steps and names read as it reads them. */
function allowed(pattern: string, dates: Date[]): number[] {
  const probe = cronFor(pattern);
  return dates.flatMap((date, index) => (probe.match(date) ? [index] : []));
}

/** "April", "April and June", "April, June and September". */
function listed(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Why a valid expression never fires, e.g. "no date matches: April has 30 days". With day-of-month OR
 * day-of-week, only a day of the month that none of the chosen months has can make one: the months
 * too short for the smallest day asked are named.
 */
export function whyNoDateMatches(expression: string): string {
  const [, , dayOfMonth = "*", month = "*"] = expression.split(" ");
  const januaryDays = Array.from({ length: 31 }, (_, day) => new Date(Date.UTC(PROBE_YEAR, 0, day + 1)));
  const firstDays = Array.from({ length: 12 }, (_, index) => new Date(Date.UTC(PROBE_YEAR, index, 1)));
  const smallestDay = (allowed(`0 0 ${dayOfMonth} * *`, januaryDays)[0] ?? 0) + 1;
  const tooShort = allowed(`0 0 * ${month} *`, firstDays).filter((index) => MOST_DAYS[index]! < smallestDay);
  const february = tooShort.includes(1) ? ["February has 29 days at most"] : [];
  const thirtyDays = tooShort.filter((index) => MOST_DAYS[index] === 30).map((index) => MONTHS[index]!);
  const short = thirtyDays.length ? [`${listed(thirtyDays)} ${thirtyDays.length === 1 ? "has" : "have"} 30 days`] : [];
  const reasons = [...february, ...short];
  return reasons.length ? `no date matches: ${reasons.join(", and ")}` : "no date matches";
}
