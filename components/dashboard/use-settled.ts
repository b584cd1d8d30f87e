import { useEffect, useState } from "react";

/** `value`, once it has stopped changing for `ms`: one request per pause in typing, not per key. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // Depends on the JSON key, not the object: a new object with the same fields is no change.
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}
