import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import { z } from "zod";

export const webhookDisabledProps = z.object({
  webhookUrl: z.string(),
  failures: z.number().int().positive(),
  lastError: z.string(),
  dashboardUrl: z.url({ protocol: /^https?$/ }),
});

export type WebhookDisabledProps = z.infer<typeof webhookDisabledProps>;

export function webhookDisabledSubject(props: WebhookDisabledProps): string {
  return `Preheat disabled your webhook to ${new URL(props.webhookUrl).host}`;
}

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

/** Told once, when delivery stops: what failed, and where to enable the webhook again. */
export function WebhookDisabledEmail(props: WebhookDisabledProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{webhookDisabledSubject(props)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            Webhook disabled
          </Heading>
          <Text style={text}>{`The last ${props.failures} attempts to deliver events to ${props.webhookUrl} failed, so Preheat stopped sending to it.`}</Text>
          <Text style={text}>{`The last error: ${props.lastError}`}</Text>
          <Button href={props.dashboardUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            See its deliveries
          </Button>
          <Text
            style={{ ...text, color: "#64748b" }}
          >{`Once the receiver answers again, enable the webhook on that page (or PATCH it with "enabled": true). Events that happened meanwhile are not sent.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}
