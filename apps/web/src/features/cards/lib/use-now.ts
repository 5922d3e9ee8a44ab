import { useEffect, useState } from 'react';

/** The current time, read again every `intervalMs` (a countdown's tick); stops ticking when the component goes. */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
