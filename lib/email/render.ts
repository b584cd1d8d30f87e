import { render } from "@react-email/render";
import { createElement, type ReactElement } from "react";
import type { z } from "zod";
import {
  EmailChangeConfirmationEmail,
  EmailChangeNoticeEmail,
  emailChangeConfirmationProps,
  emailChangeConfirmationSubject,
  emailChangeNoticeProps,
  emailChangeNoticeSubject,
} from "./templates/email-change";
import { InvitationEmail, invitationProps, invitationSubject } from "./templates/invitation";
import { OwnershipLostEmail, OwnershipRevokedEmail, ownershipLostProps, ownershipLostSubject, ownershipRevokedProps, ownershipRevokedSubject } from "./templates/ownership";
import { QuotaNoticeEmail, quotaNoticeProps, quotaNoticeSubject } from "./templates/quota";
import { RunReportEmail, runReportProps, runReportSubject } from "./templates/run-report";
import { SignInLinkEmail, signInLinkProps, signInLinkSubject } from "./templates/sign-in-link";
import { TwoFactorLockedEmail, twoFactorLockedProps, twoFactorLockedSubject } from "./templates/two-factor-locked";
import { WebhookDisabledEmail, webhookDisabledProps, webhookDisabledSubject } from "./templates/webhook-disabled";
import { SignUpConfirmationEmail, SignUpExistingEmail, signUpConfirmationProps, signUpConfirmationSubject, signUpExistingProps, signUpExistingSubject } from "./templates/sign-up";

export type RenderedEmail = { subject: string; html: string; text: string };

type Template<S extends z.ZodType> = {
  props: S;
  subject: (props: z.output<S>) => string;
  component: (props: z.output<S>) => ReactElement;
  /**
   * `link`: the e-mail carries a one-time link (its `url` prop) that signs in, proves the address or
   * joins an organization. Only its addressee may read it; a copy kept after sending it has no token.
   */
  secret: "link" | null;
};
const template = <S extends z.ZodType>(definition: Template<S>) => definition;

/** Every template this service sends, in one place: its props schema, subject line, component and whether it carries a secret. */
const templates = {
  "email-change-confirmation": template({ props: emailChangeConfirmationProps, subject: emailChangeConfirmationSubject, component: EmailChangeConfirmationEmail, secret: "link" }),
  "email-change-notice": template({ props: emailChangeNoticeProps, subject: emailChangeNoticeSubject, component: EmailChangeNoticeEmail, secret: null }),
  invitation: template({ props: invitationProps, subject: invitationSubject, component: InvitationEmail, secret: "link" }),
  "ownership-lost": template({ props: ownershipLostProps, subject: ownershipLostSubject, component: OwnershipLostEmail, secret: null }),
  "ownership-revoked": template({ props: ownershipRevokedProps, subject: ownershipRevokedSubject, component: OwnershipRevokedEmail, secret: null }),
  "quota-notice": template({ props: quotaNoticeProps, subject: quotaNoticeSubject, component: QuotaNoticeEmail, secret: null }),
  "run-report": template({ props: runReportProps, subject: runReportSubject, component: RunReportEmail, secret: null }),
  "sign-in-link": template({ props: signInLinkProps, subject: signInLinkSubject, component: SignInLinkEmail, secret: "link" }),
  "sign-up-confirmation": template({ props: signUpConfirmationProps, subject: signUpConfirmationSubject, component: SignUpConfirmationEmail, secret: "link" }),
  "sign-up-existing": template({ props: signUpExistingProps, subject: signUpExistingSubject, component: SignUpExistingEmail, secret: "link" }),
  "two-factor-locked": template({ props: twoFactorLockedProps, subject: twoFactorLockedSubject, component: TwoFactorLockedEmail, secret: null }),
  "webhook-disabled": template({ props: webhookDisabledProps, subject: webhookDisabledSubject, component: WebhookDisabledEmail, secret: null }),
} as const;

export type TemplateName = keyof typeof templates;
export type TemplateProps<T extends TemplateName> = z.input<(typeof templates)[T]["props"]>;

/** The templates and whether each carries a secret, for the checks that every secret stays with its addressee. */
export const templateSecrets = Object.fromEntries(Object.entries(templates).map(([name, { secret }]) => [name, secret])) as Record<TemplateName, "link" | null>;

/** What is left of a one-time link once it was sent: the page it opens, its token replaced by "sent". */
function spentLink(url: string): string {
  const link = new URL(url);
  if (link.searchParams.has("token")) link.searchParams.set("token", "sent");
  else link.pathname = link.pathname.replace(/[^/]+$/, "sent");
  return link.toString();
}

/**
 * The props a copy kept after sending may hold: a template's one-time link spent, anything else as
 * it was. The copy is rendered from these, so neither its parts nor its props hold the token.
 */
export function propsWithoutSecret<T extends TemplateName>(name: T, props: TemplateProps<T>): TemplateProps<T> {
  if (!templates[name].secret) return props;
  const { url } = props as { url: string };
  return { ...props, url: spentLink(url) };
}

/**
 * Renders an e-mail from props that are parsed first: they come from stored rows (JSON), and a
 * template must never render half an e-mail from a missing field.
 */
export async function renderEmail<T extends TemplateName>(name: T, input: TemplateProps<T>): Promise<RenderedEmail> {
  // One template at a time: its props schema, subject and component agree by construction above.
  const template = templates[name] as unknown as Template<z.ZodType<object>>;
  const props = template.props.parse(input);
  const element = createElement(template.component, props);
  // The plain-text part is rendered from the same element, so both parts always say the same thing.
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject: template.subject(props), html, text };
}
