"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A table wider than its card scrolls inside it, with a shadow at each edge that hides more
 * (`.table-scroll` in app/globals.css). While it does, it takes focus and says what it holds, so that
 * the keyboard scrolls it too; a table that fits adds no stop to the tab order.
 */
export function TableScroll({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setScrolls(element.scrollWidth > element.clientWidth));
    observer.observe(element);
    // The table widens with its rows while the frame keeps its size.
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={frame}
      className={`table-scroll focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-500 ${className}`}
      {...(scrolls ? { tabIndex: 0, role: "region", "aria-label": label } : {})}
    >
      {children}
    </div>
  );
}
