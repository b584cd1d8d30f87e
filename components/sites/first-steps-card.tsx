"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FIRST_STEPS, type FirstStep, type FirstSteps } from "@/lib/core/first-steps";

const HIDDEN_KEY = "preheat.first-steps.hidden";

/** Each step in words, and where to take it (the site and boost it is about); no link for a step that needs a site before there is one. */
function stepOf(step: FirstStep, steps: FirstSteps): { title: string; hint: string; href: string | null } {
  const site = steps.site_id === null ? null : `/sites/${steps.site_id}`;
  switch (step) {
    case "site_added":
      return { title: "Add a site", hint: "Its domain, in the form above.", href: "/sites" };
    case "ownership_proved":
      return { title: "Prove you own it", hint: "Publish a token file, a meta tag or a DNS record, then check it.", href: site };
    case "sitemap_added":
      return { title: "Add a sitemap", hint: "Or find the ones your robots.txt lists.", href: site };
    case "boost_created":
      return { title: "Create a boost", hint: "What to warm, from where, as whom, and when.", href: site && `${site}/boosts/new` };
    case "first_run":
      return { title: "Make a first run", hint: "Run a boost now, or warm a list of URLs.", href: steps.boost_id === null ? site : `/boosts/${steps.boost_id}` };
    case "colleague_invited":
      return { title: "Invite a colleague", hint: "So that someone else can read the runs too.", href: "/team" };
  }
}

/** The home page's checklist for a new organization: shown until every step is taken, or until hidden in this browser. */
export function FirstStepsCard() {
  const [hidden, setHidden] = useState(true);
  useEffect(() => setHidden(localStorage.getItem(HIDDEN_KEY) === "1"), []);
  const { data } = useQuery({
    // Under "sites": adding a site on this page refreshes it with the list.
    queryKey: ["sites", "first-steps"],
    queryFn: () => api<FirstSteps>("/api/dashboard/first-steps"),
    enabled: !hidden,
  });
  if (hidden || !data) return null;
  const taken = FIRST_STEPS.filter((step) => data.done[step]).length;
  if (taken === FIRST_STEPS.length) return null;
  return (
    <Card
      title={`Getting started: ${taken} of ${FIRST_STEPS.length} done`}
      actions={
        <Button
          variant="secondary"
          onClick={() => {
            localStorage.setItem(HIDDEN_KEY, "1");
            setHidden(true);
          }}
        >
          Hide
        </Button>
      }
    >
      <ol className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" data-testid="first-steps">
        {FIRST_STEPS.map((step, index) => {
          const { title, hint, href } = stepOf(step, data);
          const done = data.done[step];
          return (
            <li key={step} data-step={step} data-done={done} className="flex gap-3 rounded-md border border-slate-200 p-3 text-sm">
              <span
                aria-hidden
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${done ? "bg-green-700 text-white" : "border border-slate-300 text-slate-600"}`}
              >
                {done ? "✓" : index + 1}
              </span>
              <span className="min-w-0">
                {done || href === null ? (
                  <span className={`font-medium text-slate-600 ${done ? "line-through" : ""}`}>{title}</span>
                ) : (
                  <Link href={href} className="font-medium text-brand-700 hover:underline">
                    {title}
                  </Link>
                )}
                <span className="sr-only">{done ? " (done)" : " (to do)"}</span>
                <span className="block text-slate-600">{hint}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
