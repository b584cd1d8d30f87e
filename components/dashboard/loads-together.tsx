"use client";

import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { Loading } from "@/components/ui/card";

/** How long a slow answer may keep the cards out of sight: past it, they show as they are. */
const longestHold = 2000;

/**
 * Cards that each load their own data, shown together once the first answers are in, as a Suspense
 * boundary would: until then they are laid out but hidden, so that one arriving does not push the
 * next down under the reader's eyes (layout shift). The spinner lies over the hidden cards and takes
 * no room of its own.
 */
export function LoadsTogether({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const fetching = useIsFetching();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), longestHold);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    // The children's effects ran first and started their queries: the client counts them by now.
    if (client.isFetching() === 0) setShown(true);
  }, [client, fetching]);
  return (
    <div className="relative" aria-busy={!shown}>
      {shown ? null : (
        <div className="absolute inset-x-0 top-0">
          <Loading />
        </div>
      )}
      <div className={shown ? undefined : "invisible"}>{children}</div>
    </div>
  );
}
