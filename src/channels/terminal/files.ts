/**
 * Documents in the terminal chat: a terminal cannot show a file, so its bytes are written to a
 * folder of this run under the system's temp folder and the chat prints where it is.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { MessageMedia } from '../../chat/types.js';
import type { MediaStore } from '../../store/media.js';

export interface FileSaver {
  /** Writes the document's bytes to a file; its path, or undefined when the bytes are gone. */
  save(media: Extract<MessageMedia, { kind: 'document' }>): Promise<string | undefined>;
}

export function fileSaver(media: MediaStore | undefined, root: string = tmpdir()): FileSaver {
  let folder: Promise<string> | undefined;
  let n = 0;
  return {
    async save(doc) {
      const bytes = await media?.get(doc.ref);
      if (!bytes) return undefined;
      folder ??= mkdir(root, { recursive: true }).then(() => mkdtemp(join(root, 'rampchat-')));
      // A number first: two statements of the same month never overwrite each other.
      n += 1;
      const path = join(await folder, `${n}-${basename(doc.filename)}`);
      await writeFile(path, bytes);
      return path;
    },
  };
}
