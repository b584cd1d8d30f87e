"use client";

import { createContext, type ReactNode, useContext } from "react";
import { type Role, roleAllows } from "@/lib/core/roles";

const RoleContext = createContext<Role>("viewer");

/** The signed-in member's role in the current organization, for the dashboard's components. */
export function RoleProvider({ role, children }: { role: Role; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

/** Whether the member may do what needs `needed` (the server checks it again on every request). */
export function useCan(needed: Role): boolean {
  return roleAllows(useContext(RoleContext), needed);
}

/** Shows its children only to members whose role reaches `atLeast`: no button for what would be refused. */
export function Can({ atLeast, children, otherwise = null }: { atLeast: Role; children: ReactNode; otherwise?: ReactNode }) {
  return <>{useCan(atLeast) ? children : otherwise}</>;
}
