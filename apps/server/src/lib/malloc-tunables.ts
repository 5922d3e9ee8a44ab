/**
 * How glibc's malloc serves the server process (issue 28; bench/RESULTS.md, "27/11 15:30").
 *
 * The password hash (better-auth's scrypt, N = 16 384, r = 16) takes 32 MiB per sign-in: just over glibc's largest
 * automatic mmap threshold, so every hash mapped fresh pages and unmapped them afterwards — ~8 200 page faults per
 * sign-in. On a VM whose page faults cost ~14 µs each (the CI machine of 27/11) that was two thirds of the hash: 227 ms
 * of a core against 59 ms with the memory kept in the heap, and four hashes at once went from 8.7 to 24 a second.
 * The price is resident memory: each thread that hashed keeps its 32 MiB (libuv's four: ~128 MiB once sign-ins come).
 *
 * glibc reads these only when a process starts: `npm start` sets them (apps/server/package.json, checked by
 * malloc-tunables.test.ts), and so do the tests and benches that start the build. Elsewhere (musl, macOS) they are
 * ignored.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=67108864';

/** `env` with MALLOC_TUNABLES added to any glibc tunables it already names. */
export function withMallocTunables<Env extends Record<string, string | undefined>>(env: Env): Env & { GLIBC_TUNABLES: string } {
  const present = env.GLIBC_TUNABLES;
  if (!present) return { ...env, GLIBC_TUNABLES: MALLOC_TUNABLES };
  return { ...env, GLIBC_TUNABLES: present.includes(MALLOC_TUNABLES) ? present : `${present}:${MALLOC_TUNABLES}` };
}
