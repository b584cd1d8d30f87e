import { Body, Button, Container, Head, Heading, Html, Preview, Text } from "@react-email/components";
import { z } from "zod";

export const ownershipLostProps = z.object({
  domain: z.string(),
  problem: z.string(),
  unvalidatesAt: z.iso.datetime(),
  siteUrl: z.url({ protocol: /^https?$/ }),
});
export type OwnershipLostProps = z.infer<typeof ownershipLostProps>;

export const ownershipRevokedProps = z.object({ domain: z.string(), problem: z.string(), maxUrlsPerRun: z.number().int().positive(), siteUrl: z.url({ protocol: /^https?$/ }) });
export type OwnershipRevokedProps = z.infer<typeof ownershipRevokedProps>;

export const ownershipLostSubject = (props: OwnershipLostProps) => `Preheat can no longer find your ownership proof on ${props.domain}`;
export const ownershipRevokedSubject = (props: OwnershipRevokedProps) => `${props.domain} is no longer validated on Preheat`;

const text = { color: "#334155", fontSize: "14px", lineHeight: "22px", margin: "8px 0" };
const day = (iso: string) => new Date(iso).toUTCString().slice(0, 16);

function Layout({ preview, title, children }: { preview: string; title: string; children: React.ReactNode }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Helvetica, Arial, sans-serif", margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px", borderRadius: "8px" }}>
          <Heading as="h1" style={{ fontSize: "20px", color: "#0f172a", margin: "0 0 8px" }}>
            {title}
          </Heading>
          {children}
        </Container>
      </Body>
    </Html>
  );
}

/** The notice: the proof is gone, and the site keeps its validation for 7 days for the owner to put it back. */
export function OwnershipLostEmail(props: OwnershipLostProps) {
  return (
    <Layout preview={ownershipLostSubject(props)} title="Your ownership proof is gone">
      <Text style={text}>{`Preheat checks from time to time that ${props.domain} still carries its ownership proof. This check did not find it: ${props.problem}`}</Text>
      <Text
        style={text}
      >{`Put the token file, the meta tag or the DNS TXT record back before ${day(props.unvalidatesAt)} (UTC). After that the site is no longer validated, and its runs are capped like those of any site whose ownership is not proven.`}</Text>
      <Button href={props.siteUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
        See the proof to publish
      </Button>
    </Layout>
  );
}

/** Told when the notice ran out: what the site may do now, and how to validate it again. */
export function OwnershipRevokedEmail(props: OwnershipRevokedProps) {
  return (
    <Layout preview={ownershipRevokedSubject(props)} title="Site no longer validated">
      <Text style={text}>{`The ownership proof of ${props.domain} was still missing 7 days after we told you: ${props.problem}`}</Text>
      <Text style={text}>
        {`The site is no longer validated: each run warms at most its first ${props.maxUrlsPerRun} URLs, and on-demand warms are refused. Publish the proof again and validate the site to lift the caps.`}
      </Text>
      <Button href={props.siteUrl} style={{ backgroundColor: "#ea580c", color: "#ffffff", padding: "10px 16px", borderRadius: "6px", fontSize: "14px" }}>
        Validate the site again
      </Button>
    </Layout>
  );
}
