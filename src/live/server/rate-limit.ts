/** A token bucket: `burst` commands at once, refilled at `perSecond`. Pure apart from the clock it is given. */
export interface RateLimitOptions {
  perSecond: number;
  burst: number;
  now: () => number;
}

export interface RateLimiter {
  /** Takes one token; false when the bucket is empty. */
  take(): boolean;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  let tokens = options.burst;
  let last = options.now();
  return {
    take() {
      const now = options.now();
      tokens = Math.min(options.burst, tokens + ((now - last) / 1000) * options.perSecond);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
