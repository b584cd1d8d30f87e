import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import { z } from "zod";

export const twoFactorLockedProps = z.object({
  host: z.string(),
  /** What the wrong codes were sent to: sign-in, new recovery codes, turning two-factor off. */
  action: z.string(),
  failures: z.number().int().positive(),
  minutes: z.number().int().positive(),
  accountUrl: z.url({ protocol: /^https?$/ }),
});

export type TwoFactorLockedProps = z.infer<typeof twoFactorLockedProps>;

export function twoFactorLockedSubject(props: TwoFactorLockedProps): string {
  return `Too many wrong two-factor codes on Preheat at ${props.host}`;
}

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

/** Told when wrong codes lock a user's two-factor steps: someone may hold the password or a session. */
export function TwoFactorLockedEmail(props: TwoFactorLockedProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{twoFactorLockedSubject(props)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            Two-factor codes locked
          </Heading>
          <Text style={text}>{`${props.failures} wrong codes were entered for your user (${props.action}), so Preheat refuses codes for the next ${props.minutes} minutes.`}</Text>
          <Text style={text}>{`If this was not you, someone has your password or one of your sessions: change your password and sign out of every other session on your account page.`}</Text>
          <Button href={props.accountUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            Open your account page
          </Button>
        </Container>
      </Body>
    </Html>
  );
}
