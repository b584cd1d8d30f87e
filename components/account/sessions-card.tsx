"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, Loading } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { LocalTime } from "@/components/ui/local-time";

type Session = { id: string; current: boolean; user_agent: string | null; client_address: string | null; created_at: string; last_seen_at: string };

const sessionsKey = ["sessions"] as const;

/** A browser's name from its User-Agent, enough to tell one's devices apart. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrome\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}

/** The user's sessions: each can be ended at once (on every server), the others together, or all of them. */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: sessionsKey, queryFn: () => api<{ data: Session[] }>("/api/dashboard/sessions") });
  const changed = () => queryClient.invalidateQueries({ queryKey: sessionsKey });
  const revoke = useMutation({ mutationFn: (id: string) => api(`/api/dashboard/sessions/${id}`, { method: "DELETE" }), onSuccess: changed });
  const endOthers = useMutation({ mutationFn: () => api("/api/dashboard/sessions?others=true", { method: "DELETE" }), onSuccess: changed });
  const endAll = useMutation({
    mutationFn: () => api("/api/dashboard/sessions", { method: "DELETE" }),
    // This session has ended with the others: drop its cookie and go to sign in.
    onSuccess: () => signOut({ callbackUrl: "/signin" }),
  });
  const others = sessions.data?.data.filter((s) => !s.current).length ?? 0;
  return (
    <Card title="Sessions" className="mt-6">
      <p className="mb-4 text-sm text-slate-600">
        Every browser signed in as you. Ending a session signs that browser out at once. Changing your password ends every other session; API keys keep working (revoke them under API keys).
      </p>
      {sessions.isPending ? <Loading /> : null}
      <ErrorNote error={sessions.error ?? revoke.error ?? endOthers.error ?? endAll.error} />
      {sessions.data ? (
        <ul className="mb-4 divide-y divide-slate-100">
          {sessions.data.data.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <span>
                <span className="font-medium text-slate-900">{deviceOf(session.user_agent)}</span>
                {session.current ? <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800">this browser</span> : null}
                <span className="block text-slate-600">
                  {session.client_address ?? "unknown address"} · signed in <LocalTime value={session.created_at} /> · last seen <LocalTime value={session.last_seen_at} />
                </span>
              </span>
              {session.current ? null : (
                <Button variant="secondary" busy={revoke.isPending && revoke.variables === session.id} onClick={() => revoke.mutate(session.id)}>
                  End session
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {others ? (
          <Button variant="secondary" busy={endOthers.isPending} onClick={() => endOthers.mutate()}>
            End all other sessions
          </Button>
        ) : null}
        <ConfirmButton label="Sign out everywhere" confirmLabel="Sign out everywhere" question="End every session, this one too?" busy={endAll.isPending} onConfirm={() => endAll.mutate()} />
      </div>
    </Card>
  );
}
