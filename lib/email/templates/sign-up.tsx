import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { z } from "zod";

const linkProps = z.object({
  url: z.url({ protocol: /^https?$/ }),
  host: z.string(),
  expiresInHours: z.number().positive(),
});

export const signUpConfirmationProps = linkProps;
export const signUpExistingProps = linkProps;
export type SignUpLinkProps = z.infer<typeof linkProps>;

export function signUpConfirmationSubject(props: SignUpLinkProps): string {
  return `Confirm your address to create your Preheat account (${props.host})`;
}

export function signUpExistingSubject(props: SignUpLinkProps): string {
  return `You already have a Preheat account (${props.host})`;
}

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

function LinkEmail(props: SignUpLinkProps & { subject: string; heading: string; button: string; children: ReactNode; footer: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{props.subject}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            {props.heading}
          </Heading>
          {props.children}
          <Button href={props.url} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            {props.button}
          </Button>
          <Text style={text}>{`Or open this link: ${props.url}`}</Text>
          <Text style={{ ...text, color: "#64748b" }}>{props.footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** Sign-up's proof of address: the account is created only when this link is followed. */
export function SignUpConfirmationEmail(props: SignUpLinkProps) {
  return (
    <LinkEmail
      {...props}
      subject={signUpConfirmationSubject(props)}
      heading="Confirm your e-mail address"
      button="Confirm and create my account"
      footer={`The link works once and expires in ${props.expiresInHours} hours. If you did not sign up, ignore this e-mail: no account is created.`}
    >
      <Text style={text}>{`Someone (hopefully you) signed up for Preheat at ${props.host} with this address. Confirm it to create the account.`}</Text>
    </LinkEmail>
  );
}

/**
 * Sign-up with an address that has an account: the owner is told, and gets a way in, while the
 * person who signed up learns nothing (the answer is the same as for a new address).
 */
export function SignUpExistingEmail(props: SignUpLinkProps) {
  return (
    <LinkEmail
      {...props}
      subject={signUpExistingSubject(props)}
      heading="You already have an account"
      button="Sign in"
      footer={`The link works once and expires in ${props.expiresInHours} hours. If this was not you, ignore this e-mail: nothing was changed, and your password (if you have one) still works.`}
    >
      <Text
        style={text}
      >{`Someone (hopefully you) tried to sign up for Preheat at ${props.host} with this address, which has an account already. Nothing was changed. If it was you, sign in with this link; you can then set or change your password on your account page.`}</Text>
    </LinkEmail>
  );
}
