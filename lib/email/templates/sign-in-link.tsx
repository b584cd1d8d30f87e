import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import { z } from "zod";

export const signInLinkProps = z.object({
  url: z.url({ protocol: /^https?$/ }),
  host: z.string(),
  expiresInHours: z.number().positive(),
});

export type SignInLinkProps = z.infer<typeof signInLinkProps>;

export function signInLinkSubject(props: SignInLinkProps): string {
  return `Sign in to Preheat (${props.host})`;
}

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

/** The magic link: one button, and the address in clear for clients that strip buttons. */
export function SignInLinkEmail(props: SignInLinkProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{signInLinkSubject(props)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            Sign in to Preheat
          </Heading>
          <Text style={text}>{`Someone (hopefully you) asked to sign in to Preheat at ${props.host} with this address.`}</Text>
          <Button href={props.url} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            Sign in
          </Button>
          <Text style={text}>{`Or open this link: ${props.url}`}</Text>
          <Text style={{ ...text, color: "#64748b" }}>{`The link works once and expires in ${props.expiresInHours} hours. If you did not ask for it, ignore this e-mail.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}
