import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import { z } from "zod";

export const quotaNoticeProps = z.object({
  organization: z.string(),
  percent: z.union([z.literal(80), z.literal(100)]),
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  plan: z.string(),
  periodEnd: z.string(),
  usageUrl: z.url({ protocol: /^https?$/ }),
});

export type QuotaNoticeProps = z.infer<typeof quotaNoticeProps>;

const n = (value: number) => value.toLocaleString("en");

export function quotaNoticeSubject(props: QuotaNoticeProps): string {
  return props.percent >= 100 ? `${props.organization} has used this month's Preheat calls` : `${props.organization} has used ${props.percent} % of this month's Preheat calls`;
}

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

/** Told once a month at 80 % and once at 100 % of the quota: where the month stands and what stops. */
export function QuotaNoticeEmail(props: QuotaNoticeProps) {
  const resets = new Date(props.periodEnd).toUTCString();
  return (
    <Html lang="en">
      <Head />
      <Preview>{quotaNoticeSubject(props)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            {props.percent >= 100 ? "This month's calls are used" : `${props.percent} % of this month's calls used`}
          </Heading>
          <Text style={text}>{`${props.organization} has counted ${n(props.used)} of its ${n(props.limit)} calls this month (plan ${props.plan}).`}</Text>
          <Text style={text}>
            {props.percent >= 100
              ? `Warms and runs that need more calls than remain are refused until the quota resets on ${resets}.`
              : `At 100 %, warms and runs that need more calls than remain are refused until the quota resets on ${resets}.`}
          </Text>
          <Button href={props.usageUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            See the usage and its projection
          </Button>
          <Text style={{ ...text, color: "#64748b" }}>
            The Usage page shows which sites and boosts spend the calls and what the schedules will still spend this month. A bigger allowance comes from the operator of this service.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
