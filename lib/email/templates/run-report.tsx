import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import { z } from "zod";
import { percentOf } from "@/lib/core/format";
import { NOT_CACHED_ADVICE, NOT_CACHED_REASONS } from "@/lib/core/not-cached";

const count = z.number().nonnegative();

export const runReportProps = z.object({
  boostName: z.string(),
  siteDomain: z.string(),
  runId: z.number().int().positive(),
  /** The run's ordinal within its boost (GET /v1/runs/{id}'s `number`), which the report names it by; absent in reports queued before runs were numbered. */
  runNumber: z.number().int().positive().optional(),
  status: z.enum(["done", "failed", "paused"]),
  statusMessage: z.string().nullable(),
  /** What started the run, in words ("the deploy hook CI"); absent in reports queued before it was recorded. */
  startedBy: z.string().nullable().optional(),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
  summary: z.object({
    total_calls: count,
    successful_calls: count,
    failed_calls: count,
    cache_hits: count,
    average_response_time_ms: count,
    pops: z.record(z.string(), count),
    // Defaults: reports queued before these figures existed still render.
    not_cached: z.partialRecord(z.enum(NOT_CACHED_REASONS), count).default({}),
    cache_misses: count.default(0),
    average_hit_response_time_ms: count.nullable().default(null),
    average_miss_response_time_ms: count.nullable().default(null),
    verified: z.object({ calls: count, hits: count }).nullable().default(null),
    visitors: z
      .array(z.object({ label: z.string(), requests: count, hits: count, cause: z.string().nullable() }))
      .nullable()
      .default(null),
    advice: z.array(z.object({ code: z.string(), message: z.string() })).default([]),
  }),
  popsBreakdown: z.array(z.object({ pop: z.string(), calls: count, hits: count, average_hit_response_time_ms: count.nullable(), average_miss_response_time_ms: count.nullable() })).default([]),
  regions: z.array(z.string()),
  failureSamples: z.array(z.object({ url: z.string(), region: z.string(), user_agent: z.string(), language: z.string().nullable(), status: z.number().int().nullable(), error: z.string() })),
  /**
   * A keep-warm boost's report: the share of the site's pages fresh over the last 7 days' hours
   * (lib/freshness/history.ts), null when none was known yet; absent for other boosts.
   */
  weekFreshShare: z.number().min(0).max(1).nullable().optional(),
  /** The share of the site's last 30 days of visits whose pages the run warmed (GET /v1/runs/{id}'s visit_share); absent without traffic data. */
  visitShare: z.object({ visits: z.number().min(0), total_visits: z.number().min(0), share: z.number().min(0).max(1).nullable() }).optional(),
  // Absolute: a relative link means nothing in a mail client.
  runUrl: z.url({ protocol: /^https?$/ }),
});

export type RunReportProps = z.input<typeof runReportProps>;

/** A rounded percentage, or null when nothing was called (0 of 0 is not 0 %). */
function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/** The figures the subject and the body share, computed once so that they always agree. */
function runReportFigures(input: RunReportProps) {
  const { summary, popsBreakdown } = runReportProps.parse(input);
  const ms = (value: number | null) => (value === null ? "–" : `${n(Math.round(value))} ms`);
  // Per PoP with hits and times when the run recorded them; otherwise calls alone.
  const topPops: [string, string][] = popsBreakdown.length
    ? popsBreakdown
        .slice(0, 5)
        .map((p) => [p.pop, `${n(p.calls)} calls, ${shown(percent(p.hits, p.calls))} hits, hit ${ms(p.average_hit_response_time_ms)} / miss ${ms(p.average_miss_response_time_ms)}`])
    : Object.entries(summary.pops)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 5)
        .map(([pop, calls]) => [pop, `${n(calls)} calls`]);
  const notCached = NOT_CACHED_REASONS.map((reason) => ({ reason, calls: summary.not_cached[reason] ?? 0 }))
    .filter(({ calls }) => calls > 0)
    .sort((a, b) => b.calls - a.calls);
  const warmVsCold =
    summary.average_hit_response_time_ms !== null && summary.average_miss_response_time_ms !== null
      ? `${ms(summary.average_hit_response_time_ms)} per hit, ${ms(summary.average_miss_response_time_ms)} per cacheable miss`
      : null;
  const verified = summary.verified ? `${n(summary.verified.hits)} of ${n(summary.verified.calls)} cacheable misses asked again were hits` : null;
  // Each visitor of a visitor check: "Chrome Android: 0 of 20 hits".
  const visitors = (summary.visitors ?? []).map((v) => ({ label: v.label, figures: `${n(v.hits)} of ${n(v.requests)} hits (${shown(percent(v.hits, v.requests))})`, cause: v.cause }));
  return {
    verified,
    visitors,
    advice: summary.advice.map((item) => item.message),
    successRate: percent(summary.successful_calls, summary.total_calls),
    hitRatio: percent(summary.cache_hits, summary.total_calls),
    averageMs: Math.round(summary.average_response_time_ms),
    topPops,
    notCached,
    warmVsCold,
  };
}

export function runReportSubject(props: RunReportProps): string {
  const { successRate, hitRatio } = runReportFigures(props);
  const outcome = successRate === null ? "no calls made" : `${successRate}% success, ${hitRatio}% cache hits`;
  return `Boost "${props.boostName}" on ${props.siteDomain}: ${props.status} — ${outcome}`;
}

const headline = { done: "finished", failed: "failed", paused: "was paused" } as const;
const statusColour = { done: "#15803d", failed: "#b91c1c", paused: "#b45309" } as const;
const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "4px 0" };
const strong = { ...text, fontWeight: "bold" };
const n = (value: number) => value.toLocaleString("en");
const shown = (value: number | null) => (value === null ? "–" : `${value}%`);

function duration(startedAt: string | null, finishedAt: string | null): string | null {
  if (!startedAt || !finishedAt) return null;
  const seconds = Math.max(0, Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** "fr, mobile, fr-FR, HTTP 500": where a sampled call went wrong. */
function sampleContext(sample: RunReportProps["failureSamples"][number]): string {
  return [sample.region, sample.user_agent, sample.language, sample.status === null ? null : `HTTP ${sample.status}`].filter(Boolean).join(", ");
}

/** "Label: value" in one line, so that the plain-text part reads as well as the HTML one. */
function Figure({ name, value }: { name: string; value: string }) {
  return (
    <Text style={text}>
      <span style={{ color: "#64748b" }}>{`${name}:`}</span> <strong>{value}</strong>
    </Text>
  );
}

/**
 * The report sent when a boost run ends: figures first, then what went wrong, then a link to the run.
 * Mixed text is joined into one string: React would put `<!-- -->` between the parts, which some
 * clients show in previews and which breaks searching the HTML.
 */
export function RunReportEmail(props: RunReportProps) {
  const { summary } = props;
  const { successRate, hitRatio, averageMs, topPops, notCached, warmVsCold, verified, visitors, advice } = runReportFigures(props);
  const took = duration(props.startedAt, props.finishedAt);
  const samples = props.failureSamples.slice(0, 5);
  return (
    <Html lang="en">
      <Head />
      <Preview>{runReportSubject(props)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: statusColour[props.status], margin: "0 0 8px" }}>
            {`${props.runNumber ? `Run ${props.runNumber} of boost` : "Boost"} “${props.boostName}” on ${props.siteDomain} ${headline[props.status]}`}
          </Heading>
          {props.startedBy ? <Text style={text}>{`Started by ${props.startedBy}.`}</Text> : null}
          {props.statusMessage ? <Text style={text}>{props.statusMessage}</Text> : null}
          <Section style={{ marginTop: "12px" }}>
            <Figure name="Success rate" value={shown(successRate)} />
            <Figure name="Cache-hit ratio" value={shown(hitRatio)} />
            <Figure name="Average response time" value={`${n(averageMs)} ms`} />
            {warmVsCold ? <Figure name="Warm vs cold" value={warmVsCold} /> : null}
            {verified ? <Figure name="Verified" value={verified} /> : null}
            <Figure name="Calls" value={`${n(summary.total_calls)} (${n(summary.successful_calls)} succeeded, ${n(summary.failed_calls)} failed)`} />
            {props.regions.length ? <Figure name="Regions" value={props.regions.join(", ")} /> : null}
            {took ? <Figure name="Duration" value={took} /> : null}
            {props.weekFreshShare !== undefined ? (
              <Figure
                name="Pages fresh, last 7 days"
                value={props.weekFreshShare === null ? "none known yet" : `${Math.round(props.weekFreshShare * 100)} % (hour by hour, by Preheat's reading of the CDN's answers, not visitors' hits)`}
              />
            ) : null}
            {props.visitShare && props.visitShare.share !== null ? (
              <Figure
                name="Visits covered"
                value={`${percentOf(props.visitShare.share)} of the last 30 days' visits were to pages this run set out to warm (${n(props.visitShare.visits)} of ${n(props.visitShare.total_visits)}, from the site's traffic data)`}
              />
            ) : null}
          </Section>
          {advice.length ? (
            <Section>
              <Hr />
              <Text style={strong}>What to change</Text>
              {advice.map((message) => (
                <Text key={message} style={text}>
                  {message}
                </Text>
              ))}
            </Section>
          ) : null}
          {visitors.length ? (
            <Section>
              <Hr />
              <Text style={strong}>Visitor check</Text>
              {visitors.map((v) => (
                <Text key={v.label} style={text}>
                  <strong>{`${v.label}: ${v.figures}`}</strong>
                  {v.cause ? <br /> : null}
                  {v.cause ? <span style={{ color: "#64748b" }}>{v.cause}</span> : null}
                </Text>
              ))}
            </Section>
          ) : null}
          {topPops.length ? (
            <Section>
              <Hr />
              <Text style={strong}>Top points of presence</Text>
              {topPops.map(([pop, figures]) => (
                <Figure key={pop} name={pop} value={figures} />
              ))}
            </Section>
          ) : null}
          {notCached.length ? (
            <Section>
              <Hr />
              <Text style={strong}>Why calls were not cached</Text>
              {notCached.map(({ reason, calls }) => (
                <Text key={reason} style={text}>
                  <strong>{`${NOT_CACHED_ADVICE[reason].title}: ${n(calls)}`}</strong>
                  <br />
                  <span style={{ color: "#64748b" }}>{NOT_CACHED_ADVICE[reason].advice}</span>
                </Text>
              ))}
            </Section>
          ) : null}
          {samples.length ? (
            <Section>
              <Hr />
              <Text style={strong}>Failures (samples)</Text>
              {samples.map((sample, i) => (
                <Text key={i} style={text}>
                  {sample.url}
                  <br />
                  <span style={{ color: "#64748b" }}>{`${sampleContext(sample)}: ${sample.error}`}</span>
                </Text>
              ))}
            </Section>
          ) : null}
          <Hr />
          <Button href={props.runUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            {props.runNumber ? `Open run ${props.runNumber}` : "Open the run"}
          </Button>
        </Container>
      </Body>
    </Html>
  );
}
