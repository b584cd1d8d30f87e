import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import { z } from "zod";

export const runReportProps = z.object({
  boostName: z.string(),
  siteDomain: z.string(),
  runId: z.number().int(),
  status: z.enum(["done", "failed", "paused"]),
  statusMessage: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  summary: z.object({
    total_calls: z.number(),
    successful_calls: z.number(),
    failed_calls: z.number(),
    cache_hits: z.number(),
    average_response_time_ms: z.number(),
    pops: z.record(z.string(), z.number()),
  }),
  regions: z.array(z.string()),
  failureSamples: z.array(
    z.object({ url: z.string(), region: z.string(), user_agent: z.string(), language: z.string().nullable(), status: z.number().nullable(), error: z.string() }),
  ),
  runUrl: z.string(),
});

export type RunReportProps = z.infer<typeof runReportProps>;

export function percent(part: number, whole: number): string {
  return whole ? `${Math.round((part / whole) * 100)}%` : "–";
}

export function runReportFigures(props: RunReportProps) {
  const { summary } = props;
  const topPops = Object.entries(summary.pops)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  return {
    successRate: percent(summary.successful_calls, summary.total_calls),
    hitRatio: percent(summary.cache_hits, summary.total_calls),
    topPops,
  };
}

const headline = { done: "finished", failed: "failed", paused: "was paused" } as const;
const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "4px 0" };
const figure = { ...text, fontSize: "16px" };

/** The report sent when a boost run ends: figures first, then what went wrong, then a link to the run. */
export function RunReportEmail(props: RunReportProps) {
  const { summary } = props;
  const { successRate, hitRatio, topPops } = runReportFigures(props);
  return (
    <Html lang="en">
      <Head />
      <Preview>{`${props.boostName} on ${props.siteDomain} ${headline[props.status]}: ${successRate} success, ${hitRatio} cache hits`}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a" }}>
            Boost “{props.boostName}” on {props.siteDomain} {headline[props.status]}
          </Heading>
          {props.statusMessage ? <Text style={text}>{props.statusMessage}</Text> : null}
          <Section>
            <Text style={figure}>Calls: {summary.total_calls} ({summary.successful_calls} succeeded, {summary.failed_calls} failed)</Text>
            <Text style={figure}>Success rate: {successRate}</Text>
            <Text style={figure}>Cache-hit ratio: {hitRatio}</Text>
            <Text style={figure}>Average response time: {Math.round(summary.average_response_time_ms)} ms</Text>
            <Text style={text}>Regions: {props.regions.join(", ")}</Text>
          </Section>
          {topPops.length ? (
            <Section>
              <Hr />
              <Text style={{ ...text, fontWeight: "bold" }}>Top points of presence</Text>
              {topPops.map(([pop, calls]) => (
                <Text key={pop} style={text}>
                  {pop}: {calls} calls
                </Text>
              ))}
            </Section>
          ) : null}
          {props.failureSamples.length ? (
            <Section>
              <Hr />
              <Text style={{ ...text, fontWeight: "bold" }}>Failures (samples)</Text>
              {props.failureSamples.slice(0, 5).map((sample, i) => (
                <Text key={i} style={text}>
                  {sample.url} ({sample.region}, {sample.user_agent}
                  {sample.language ? `, ${sample.language}` : ""}): {sample.error}
                </Text>
              ))}
            </Section>
          ) : null}
          <Hr />
          <Button href={props.runUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            Open run #{props.runId}
          </Button>
        </Container>
      </Body>
    </Html>
  );
}
