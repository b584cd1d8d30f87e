import type { Metadata } from "next";
import { OperatorKeysView } from "@/components/operator/keys-view";

export const metadata: Metadata = { title: "Keys · Operator" };

export default function Page() {
  return <OperatorKeysView />;
}
