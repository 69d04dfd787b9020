// LibreOffice helpers shared by the server tests and the browser journeys (e2e): no app imports here.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The LibreOffice binary on PATH (soffice or libreoffice), if any. */
export const soffice = (): string | undefined =>
  spawnSync('sh', ['-c', 'command -v soffice || command -v libreoffice'], { encoding: 'utf8' }).stdout.trim() || undefined;

/** Converts CSV text to .xlsx with LibreOffice (a workbook our own writer did not make). */
export function libreOfficeXlsx(csv: string): Buffer {
  const bin = soffice();
  if (!bin) throw new Error('LibreOffice (soffice) is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-lo-'));
  try {
    fs.writeFileSync(path.join(dir, 'people.csv'), csv);
    // 76 = comma, 34 = double quote, 76 = UTF-8: the CSV import filter options.
    execFileSync(
      bin,
      [
        '--headless',
        `-env:UserInstallation=file://${dir}/profile`,
        '--infilter=CSV:44,34,76',
        '--convert-to',
        'xlsx',
        '--outdir',
        dir,
        path.join(dir, 'people.csv'),
      ],
      {
        stdio: 'pipe',
        timeout: 120_000,
      },
    );
    return fs.readFileSync(path.join(dir, 'people.xlsx'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
