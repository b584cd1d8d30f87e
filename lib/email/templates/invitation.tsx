import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import { z } from "zod";
import { roleSchema } from "@/lib/core/roles";

export const invitationProps = z.object({
  url: z.url({ protocol: /^https?$/ }),
  organization: z.string(),
  role: roleSchema,
  invitedBy: z.string(),
  /** The sentence of everything the role may do, said of it alone (roleAbilities in lib/core/roles.ts). */
  grants: z.string(),
  expiresInDays: z.number().positive(),
});

export type InvitationProps = z.infer<typeof invitationProps>;

export function invitationSubject(props: InvitationProps): string {
  return `${props.invitedBy} invites you to ${props.organization} on Preheat`;
}

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };

/** An invitation to join an organization: who asks, with which role, and the one link to accept or decline. */
export function InvitationEmail(props: InvitationProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{invitationSubject(props)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            {`Join ${props.organization} on Preheat`}
          </Heading>
          <Text style={text}>{`${props.invitedBy} invites you to join the organization ${props.organization} as ${props.role}. ${props.grants}`}</Text>
          <Button href={props.url} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
            Accept or decline
          </Button>
          <Text style={text}>{`Or open this link: ${props.url}`}</Text>
          <Text style={{ ...text, color: "#64748b" }}>{`The invitation expires in ${props.expiresInDays} days. If you do not know the sender, ignore this e-mail or decline.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}
