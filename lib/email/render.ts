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
import { WebhookDisabledEmail, webhookDisabledProps, webhookDisabledSubject } from "./templates/webhook-disabled";
import { SignUpConfirmationEmail, SignUpExistingEmail, signUpConfirmationProps, signUpConfirmationSubject, signUpExistingProps, signUpExistingSubject } from "./templates/sign-up";

export type RenderedEmail = { subject: string; html: string; text: string };

type Template<S extends z.ZodType> = { props: S; subject: (props: z.output<S>) => string; component: (props: z.output<S>) => ReactElement };
const template = <S extends z.ZodType>(definition: Template<S>) => definition;

/** The templates this service sends: each with its props schema, subject line and component. */
const templates = {
  "email-change-confirmation": template({ props: emailChangeConfirmationProps, subject: emailChangeConfirmationSubject, component: EmailChangeConfirmationEmail }),
  "email-change-notice": template({ props: emailChangeNoticeProps, subject: emailChangeNoticeSubject, component: EmailChangeNoticeEmail }),
  invitation: template({ props: invitationProps, subject: invitationSubject, component: InvitationEmail }),
  "ownership-lost": template({ props: ownershipLostProps, subject: ownershipLostSubject, component: OwnershipLostEmail }),
  "ownership-revoked": template({ props: ownershipRevokedProps, subject: ownershipRevokedSubject, component: OwnershipRevokedEmail }),
  "quota-notice": template({ props: quotaNoticeProps, subject: quotaNoticeSubject, component: QuotaNoticeEmail }),
  "run-report": template({ props: runReportProps, subject: runReportSubject, component: RunReportEmail }),
  "sign-in-link": template({ props: signInLinkProps, subject: signInLinkSubject, component: SignInLinkEmail }),
  "sign-up-confirmation": template({ props: signUpConfirmationProps, subject: signUpConfirmationSubject, component: SignUpConfirmationEmail }),
  "sign-up-existing": template({ props: signUpExistingProps, subject: signUpExistingSubject, component: SignUpExistingEmail }),
  "webhook-disabled": template({ props: webhookDisabledProps, subject: webhookDisabledSubject, component: WebhookDisabledEmail }),
} as const;

export type TemplateName = keyof typeof templates;
export type TemplateProps<T extends TemplateName> = z.input<(typeof templates)[T]["props"]>;

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
