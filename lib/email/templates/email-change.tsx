import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { z } from "zod";

export const emailChangeConfirmationProps = z.object({
  url: z.url({ protocol: /^https?$/ }),
  host: z.string(),
  oldEmail: z.string(),
  expiresInHours: z.number().positive(),
});
export const emailChangeNoticeProps = z.object({
  host: z.string(),
  newEmail: z.string(),
  /** `requested`: the change waits for the new address; `done`: it was confirmed. */
  stage: z.enum(["requested", "done"]),
});

export type EmailChangeConfirmationProps = z.infer<typeof emailChangeConfirmationProps>;
export type EmailChangeNoticeProps = z.infer<typeof emailChangeNoticeProps>;

export const emailChangeConfirmationSubject = (props: EmailChangeConfirmationProps) => `Confirm your new Preheat address (${props.host})`;
export const emailChangeNoticeSubject = (props: EmailChangeNoticeProps) =>
  props.stage === "done" ? `Your Preheat address was changed (${props.host})` : `A change of your Preheat address was asked for (${props.host})`;

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

function Frame({ subject, heading, children }: { subject: string; heading: string; children: ReactNode }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{subject}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            {heading}
          </Heading>
          {children}
        </Container>
      </Body>
    </Html>
  );
}

/** To the new address: the one link that makes it the user's. */
export function EmailChangeConfirmationEmail(props: EmailChangeConfirmationProps) {
  return (
    <Frame subject={emailChangeConfirmationSubject(props)} heading="Confirm your new address">
      <Text style={text}>{`The Preheat user ${props.oldEmail} at ${props.host} asked to sign in with this address from now on.`}</Text>
      <Button href={props.url} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
        Confirm the new address
      </Button>
      <Text style={text}>{`Or open this link: ${props.url}`}</Text>
      <Text style={{ ...text, color: "#64748b" }}>{`The link works once and expires in ${props.expiresInHours} hours. If you did not ask for it, ignore this e-mail: nothing changes.`}</Text>
    </Frame>
  );
}

/** To the old address: a change was asked for, or made; whoever did not ask knows at once. */
export function EmailChangeNoticeEmail(props: EmailChangeNoticeProps) {
  return (
    <Frame subject={emailChangeNoticeSubject(props)} heading={props.stage === "done" ? "Your address was changed" : "A change of address was asked for"}>
      <Text style={text}>
        {props.stage === "done"
          ? `Your Preheat user at ${props.host} now signs in with ${props.newEmail}; this address no longer works for it.`
          : `Somebody signed in as you at ${props.host} asked to change your address to ${props.newEmail}. It changes only when that address confirms.`}
      </Text>
      <Text style={{ ...text, color: "#64748b" }}>If this was not you, change your password and end your other sessions on the Account page, or tell the operator of this Preheat service.</Text>
    </Frame>
  );
}
