import { render } from "@react-email/render";
import { createElement } from "react";
import { RunReportEmail, type RunReportProps, runReportFigures, runReportProps } from "./templates/run-report";

export type RenderedEmail = { subject: string; html: string; text: string };

/** The templates this service sends, each with its props schema and subject line. */
export const templates = {
  "run-report": {
    props: runReportProps,
    subject: (props: RunReportProps) => {
      const { successRate, hitRatio } = runReportFigures(props);
      return `Boost "${props.boostName}" on ${props.siteDomain}: ${props.status} — ${successRate} success, ${hitRatio} cache hits`;
    },
    component: RunReportEmail,
  },
} as const;

export type TemplateName = keyof typeof templates;

export async function renderEmail(name: TemplateName, input: unknown): Promise<RenderedEmail> {
  const template = templates[name];
  const props = template.props.parse(input);
  const element = createElement(template.component, props);
  return { subject: template.subject(props), html: await render(element), text: await render(element, { plainText: true }) };
}
