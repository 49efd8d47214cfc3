import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citingFile, missingCitations } from './cited-documents.ts';

const root = resolve(import.meta.dirname, '../..');

describe('documents cited by code comments', () => {
  it('are all in the repository', () => {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => file && citingFile(file));
    expect(files.length).toBeGreaterThan(500);
    const missing = files.flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        return []; // listed but deleted in the work tree
      }
      return missingCitations(root, file, text);
    });
    expect(missing).toEqual([]);
  });

  it('catches the citations that used to point outside it', () => {
    const file = 'server/src/modules/organisations/teams/teams.service.ts';
    expect(missingCitations(root, file, '/** Teams (endpoints.md §12, entities.md Team). */')).toEqual([
      `${file}: endpoints.md`,
      `${file}: entities.md`,
    ]);
    expect(missingCitations(root, file, '// the plain-text 401 (protocol README §4)')).toHaveLength(1);
    expect(missingCitations(root, file, '// see docs/protocol/endpoints.md §12 and docs/protocol/overview.md §4')).toEqual([]);
  });
});
