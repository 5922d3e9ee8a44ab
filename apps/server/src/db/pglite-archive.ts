import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';

/** A member name that extracts under the folder it is extracted in: PGlite writes "/base/1/…", absolute. */
export function relativeMemberName(name: string): string {
  return name.replace(/^\/+/, '');
}

/**
 * PGlite's `dumpDataDir` archive with every member name made relative and every mode private (issue 12 items 6 and
 * 23): `tar -xzf backup.tar.gz -C DATA_DIR/pglite` restores it where the operator says, never over `/base`, and the
 * restored files are the server user's only. PGlite's own `loadDataDir` reads either form.
 */
export async function privateRelativeArchive(gzippedTar: Uint8Array): Promise<Buffer> {
  const extract = tar.extract();
  const pack = tar.pack();
  const repacked = buffer(pack.pipe(zlib.createGzip()));
  const repack = async () => {
    for await (const entry of extract) {
      const data = await buffer(entry);
      const name = relativeMemberName(entry.header.name);
      if (name === '') continue;
      const directory = entry.header.type === 'directory';
      const header = { ...entry.header, name, mode: directory ? 0o700 : 0o600, uid: 0, gid: 0, uname: '', gname: '' };
      pack.entry(header, directory ? Buffer.alloc(0) : data);
    }
    pack.finalize();
  };
  await Promise.all([pipeline(Readable.from([gzippedTar]), zlib.createGunzip(), extract), repack()]);
  return repacked;
}
