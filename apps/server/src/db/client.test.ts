import { describe, expect, it } from 'vitest';
import { pgDumpMajorVersion, serverMajorVersion } from './client.ts';

describe('pg_dump and server versions', () => {
  it('reads the major version of pg_dump --version', () => {
    expect(pgDumpMajorVersion('pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n')).toBe(15);
    expect(pgDumpMajorVersion('pg_dump (PostgreSQL) 17.2')).toBe(17);
    expect(pgDumpMajorVersion('something else')).toBeNull();
  });

  it('reads the major version of server_version_num', () => {
    expect(serverMajorVersion(150018)).toBe(15);
    expect(serverMajorVersion(170002)).toBe(17);
  });
});
