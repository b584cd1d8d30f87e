"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { inviteBody } from "@/lib/accounts/team-schemas";
import { Can, useCan } from "@/components/dashboard/role";
import type { ApiKeyView } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Check } from "@/components/ui/choices";
import { Card, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { ROLE_GRANTS, ROLES, type Role } from "@/lib/core/roles";
import { OrganizationCard } from "./organization-card";

type Member = { user_id: number; email: string; name: string | null; role: Role; two_factor: boolean; joined_at: string };
type Invitation = { id: number; email: string; role: Role; state: string; send_count: number; last_sent_at: string; expires_at: string };

const membersKey = ["members"] as const;
/** The API keys view's own query: a removal that revokes keys refreshes it. */
const apiKeysKey = ["api-keys"] as const;
const invitationsKey = ["invitations"] as const;

function RoleSelect({ value, onChange, label, disabled }: { value: Role; onChange: (role: Role) => void; label: string; disabled?: boolean }) {
  return (
    <select aria-label={label} className={`${inputClass} w-auto`} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

/**
 * What a removal takes with it: the keys the member created that still work, revoked with the
 * membership unless an owner unticks the box (a key an integration depends on).
 */
function RemovalKeys({ keys, canKeep, revoke, onRevoke }: { keys: ApiKeyView[]; canKeep: boolean; revoke: boolean; onRevoke: (revoke: boolean) => void }) {
  if (!keys.length) return null;
  return (
    <span className="block w-full rounded-md border border-amber-200 bg-amber-50 p-2 text-left text-sm text-slate-700">
      <span className="block">API keys this member created, which keep working for whoever holds them: {keys.map((key) => `${key.name} (${key.prefix}…)`).join(", ")}.</span>
      {canKeep ? <Check label="Revoke these keys" checked={revoke} onChange={onRevoke} /> : <span className="block">They are revoked on leaving.</span>}
    </span>
  );
}

function MemberRow({ member, me, lastOwner }: { member: Member; me: string; lastOwner: boolean }) {
  const queryClient = useQueryClient();
  const isOwner = useCan("owner");
  const [revokeKeys, setRevokeKeys] = useState(true);
  const self = member.email === me;
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: () => api<{ data: ApiKeyView[] }>("/api/dashboard/keys"), enabled: self || isOwner });
  const memberKeys = (keys.data?.data ?? []).filter((key) => key.created_by === member.email && key.state === "active");
  const changed = () => queryClient.invalidateQueries({ queryKey: membersKey });
  const setRole = useMutation({ mutationFn: (role: Role) => api(`/api/dashboard/members/${member.user_id}`, { method: "PATCH", body: { role } }), onSuccess: changed });
  const remove = useMutation({
    mutationFn: (revoke: boolean) => api(`/api/dashboard/members/${member.user_id}?revoke_keys=${revoke}`, { method: "DELETE" }),
    onSuccess: () => {
      // Leaving ends this session's work in the organization: start again wherever the user still belongs.
      if (member.email === me) window.location.href = "/sites";
      else {
        changed();
        queryClient.invalidateQueries({ queryKey: apiKeysKey });
      }
    },
  });
  const removalKeys = <RemovalKeys keys={memberKeys} canKeep={isOwner} revoke={revokeKeys || !isOwner} onRevoke={setRevokeKeys} />;
  return (
    <tr className="border-b border-slate-100 align-top">
      <td className="py-3 pr-4">
        <div className="font-medium text-slate-900">{member.name ?? member.email}</div>
        {member.name ? <div className="text-xs text-slate-500">{member.email}</div> : null}
      </td>
      <td className="py-3 pr-4">
        {isOwner ? <RoleSelect label={`Role of ${member.email}`} value={member.role} disabled={setRole.isPending} onChange={(role) => setRole.mutate(role)} /> : member.role}
      </td>
      <td className="py-3 pr-4 text-sm text-slate-600">{member.two_factor ? "on" : "off"}</td>
      <td className="py-3 pr-4 text-sm text-slate-600">
        <LocalTime value={member.joined_at} />
      </td>
      <td className="py-3 text-right">
        {self && lastOwner ? (
          // The API refuses it (409 last_owner): say why instead of offering a button that answers "no".
          <div className="flex flex-col items-end gap-1">
            <Button variant="secondary" disabled aria-describedby={`last-owner-${member.user_id}`}>
              Leave
            </Button>
            <p id={`last-owner-${member.user_id}`} className="max-w-56 text-xs text-slate-600">
              You are its only owner: make another member owner before you leave.
            </p>
          </div>
        ) : self ? (
          <ConfirmButton
            label="Leave"
            confirmLabel="Leave the organization"
            question="Leave this organization?"
            details={removalKeys}
            busy={remove.isPending}
            onConfirm={() => remove.mutate(revokeKeys || !isOwner)}
          />
        ) : isOwner ? (
          <ConfirmButton
            label="Remove"
            confirmLabel={`Remove ${member.email}`}
            question="Remove this member? Their sessions here end at once."
            details={removalKeys}
            busy={remove.isPending}
            onConfirm={() => remove.mutate(revokeKeys)}
          />
        ) : null}
        {setRole.error || remove.error ? <ErrorNote error={setRole.error ?? remove.error} /> : null}
      </td>
    </tr>
  );
}

const INVITE_FIELDS = ["email", "role"];

function InviteForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const body = { email, role };
  const errors = useFormErrors(body, INVITE_FIELDS, checkWith(inviteBody, body, INVITE_FIELDS));
  const invite = useMutation({
    mutationFn: (sent: typeof body) => api<Invitation>("/api/dashboard/invitations", { method: "POST", body: sent }),
    onSuccess: () => {
      setEmail("");
      errors.clear();
      queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) invite.mutate(body);
      }}
    >
      <div className="min-w-64 flex-1">
        <Field label="E-mail address" error={errors.error("email")}>
          {(a) => (
            <TextInput
              {...a}
              type="email"
              name="invite-email"
              required
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                invite.reset();
              }}
            />
          )}
        </Field>
      </div>
      <RoleSelect label="Role" value={role} onChange={setRole} />
      <Button type="submit" busy={invite.isPending}>
        Send invitation
      </Button>
      <div className="w-full">
        <FormProblems errors={errors} />
      </div>
      {invite.isSuccess ? <p className="w-full text-sm text-green-700">Invitation sent: the link in the e-mail works for 7 days.</p> : null}
    </form>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const queryClient = useQueryClient();
  const changed = () => queryClient.invalidateQueries({ queryKey: invitationsKey });
  const resend = useMutation({ mutationFn: () => api(`/api/dashboard/invitations/${invitation.id}/resend`, { method: "POST" }), onSuccess: changed });
  const revoke = useMutation({ mutationFn: () => api(`/api/dashboard/invitations/${invitation.id}`, { method: "DELETE" }), onSuccess: changed });
  const open = invitation.state === "pending" || invitation.state === "expired";
  return (
    <tr className="border-b border-slate-100 align-top">
      <td className="py-3 pr-4">{invitation.email}</td>
      <td className="py-3 pr-4">{invitation.role}</td>
      <td className="py-3 pr-4">
        <StatusBadge status={invitation.state} />
      </td>
      <td className="py-3 pr-4 text-sm text-slate-600">
        <LocalTime value={invitation.expires_at} /> · sent {invitation.send_count}×
      </td>
      <td className="py-3 text-right">
        <Can atLeast="owner">
          {open ? (
            <span className="inline-flex gap-2">
              <Button variant="secondary" busy={resend.isPending} onClick={() => resend.mutate()}>
                Resend
              </Button>
              {invitation.state === "pending" ? (
                <ConfirmButton label="Revoke" confirmLabel="Revoke" question="Revoke the invitation?" busy={revoke.isPending} onConfirm={() => revoke.mutate()} />
              ) : null}
            </span>
          ) : null}
        </Can>
        {resend.error || revoke.error ? <ErrorNote error={resend.error ?? revoke.error} /> : null}
      </td>
    </tr>
  );
}

/** Members, their roles and the invitations: the owners manage them, everybody sees them. */
export function TeamView({ me }: { me: string }) {
  const members = useQuery({ queryKey: membersKey, queryFn: () => api<{ data: Member[] }>("/api/dashboard/members") });
  const invitations = useQuery({ queryKey: invitationsKey, queryFn: () => api<{ data: Invitation[] }>("/api/dashboard/invitations") });
  return (
    <>
      <PageHeader title="Team" subtitle="Who works in this organization, and what each may do." />
      <Card title="Members" className="table-scroll">
        {members.isPending ? <Loading /> : members.error ? <ErrorNote error={members.error} /> : null}
        {members.data ? (
          <table className="w-full min-w-[640px] text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">Member</th>
                <th className="py-2 pr-4 font-medium">Role</th>
                <th className="py-2 pr-4 font-medium">Two-factor</th>
                <th className="py-2 pr-4 font-medium">Joined</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((member) => (
                <MemberRow key={member.user_id} member={member} me={me} lastOwner={member.role === "owner" && members.data.data.filter((other) => other.role === "owner").length === 1} />
              ))}
            </tbody>
          </table>
        ) : null}
      </Card>
      <Can atLeast="owner">
        <Card title="Invite a colleague" className="mt-6">
          <InviteForm />
        </Card>
      </Can>
      {invitations.data?.data.length ? (
        <Card title="Invitations" className="mt-6 table-scroll">
          <table className="w-full min-w-[640px] text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">E-mail</th>
                <th className="py-2 pr-4 font-medium">Role</th>
                <th className="py-2 pr-4 font-medium">State</th>
                <th className="py-2 pr-4 font-medium">Expires</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.data.data.map((invitation) => (
                <InvitationRow key={invitation.id} invitation={invitation} />
              ))}
            </tbody>
          </table>
        </Card>
      ) : null}
      <OrganizationCard />
      <Card title="What each role may do" className="mt-6">
        <dl className="space-y-2 text-sm">
          {ROLES.map((role) => (
            <div key={role} className="flex gap-3">
              <dt className="w-16 shrink-0 font-medium text-slate-900">{role}</dt>
              <dd className="text-slate-600">{ROLE_GRANTS[role]}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-sm text-slate-500">
          Every member can leave; the last owner cannot leave or be demoted. API keys belong to the organization; the ones a member created are revoked when that member leaves or is removed, unless an
          owner removing them chooses to keep them working.
        </p>
      </Card>
    </>
  );
}
